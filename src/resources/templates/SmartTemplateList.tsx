/**
 * 智能模板 (POST /autoTemplate/list): filters from filters/template-smart.json (the sub-account
 * filter for agents only), 查询 / 新增模板 / 批量导入, the table from entities/template with audit-state tags
 * and the reason of a rejection, 编辑 / 删除 on the rows the user created (delete asks first).
 */
import { useState } from 'react';
import { Alert, App, Button, Card, Popconfirm, Space, Tooltip, Typography } from 'antd';
import { ImportOutlined, PlusOutlined } from '@ant-design/icons';
import { useDelete } from '@refinedev/core';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable, type SchemaColumn } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { useCurrentUser } from '@/layout/hooks';
import { isAgent } from '@/providers/access';
import { TemplateAuditState, YesNo, type SmsTemplate } from '@/generated/schemas';
import { TemplateAccountSelect } from './TemplateAccountSelect';
import { TemplateFormDialog } from './TemplateFormDialog';
import { TemplateImportDialog } from './TemplateImportDialog';
import { MESSAGES } from '../../../common/schema/messages';
import { templates } from './data';

export const TEMPLATE_NOTICE = '温馨提示：发送短信前，请先添加模板并提交审核，模板审核通过后方可发送短信。';

type Row = SmsTemplate;

const ellipsis = (v: string) => (
  <Typography.Paragraph ellipsis={{ rows: 2, tooltip: v }} style={{ marginBottom: 0, maxWidth: 360 }}>
    {v}
  </Typography.Paragraph>
);

export function SmartTemplateList() {
  const { user } = useCurrentUser();
  const agent = isAgent(user);
  const { message } = App.useApp();
  const [editing, setEditing] = useState<Row | null | undefined>(undefined);
  const [importing, setImporting] = useState(false);
  const { mutate: remove } = useDelete();
  const { tableProps, searchFormProps } = useSchemaList<Row>(templates, { queryOptions: { enabled: !!user } });

  const columns: (string | SchemaColumn<Row>)[] = [
    'templateId',
    ...(agent ? ['clientId'] : []),
    'smsType',
    'templateType',
    'smstype',
    'sign',
    { field: 'content', render: ellipsis },
    'varibleCount',
    {
      field: 'state',
      render: (v, r, _i, cell) => (
        <Space direction="vertical" size={2}>
          {cell}
          {v === TemplateAuditState.Rejected && r.remark && (
            <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="reject-reason">
              原因：{r.remark}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    'userName',
    'createTimeStr',
  ];

  const actions = {
    key: 'actions',
    title: '操作',
    fixed: 'right' as const,
    render: (_: unknown, r: Row) =>
      r.isCreateor === YesNo.Yes ? (
        <Space>
          <Button type="link" size="small" onClick={() => setEditing(r)}>
            编辑
          </Button>
          <Popconfirm
            title="确定删除该模板吗？"
            okText="确定"
            cancelText="取消"
            onConfirm={() =>
              void remove(
                { resource: templates.name, id: r.templateId },
                { onSuccess: () => void message.success(MESSAGES.deleted) },
              )
            }
          >
            <Button type="link" size="small" danger>
              删除
            </Button>
          </Popconfirm>
        </Space>
      ) : (
        <Tooltip title="仅模板创建者可以编辑或删除">
          <Typography.Text type="secondary">-</Typography.Text>
        </Tooltip>
      ),
  };

  return (
    <Card>
      <Alert type="info" showIcon message={TEMPLATE_NOTICE} style={{ marginBottom: 16 }} />
      <SchemaFilterBar
        filter={templates.filter}
        formProps={searchFormProps}
        agent={agent}
        widgets={{ 'client-select': () => <TemplateAccountSelect agentId={user?.clientid} placeholder="全部子账户" /> }}
        extra={
          <>
            <Button icon={<PlusOutlined />} onClick={() => setEditing(null)}>
              新增模板
            </Button>
            <Button icon={<ImportOutlined />} onClick={() => setImporting(true)}>
              批量导入
            </Button>
          </>
        }
      />
      <SchemaTable<Row>
        {...tableProps}
        entity={templates.entity}
        rowKey="templateId"
        columns={columns}
        extraColumns={[actions]}
      />
      <TemplateFormDialog
        open={editing !== undefined}
        template={editing ?? null}
        agent={agent}
        agentId={user?.clientid}
        operationMode={String(user?.operation_mode ?? '1')}
        onClose={() => setEditing(undefined)}
      />
      <TemplateImportDialog open={importing} onClose={() => setImporting(false)} />
    </Card>
  );
}

export default SmartTemplateList;
