/**
 * 签名报备 (/template/SignReport): the signs of the account (an agent: of its sub-accounts), with
 * the filter bar of schemas/filters/sign.json, the table of schemas/entities/sign.json, add,
 * delete, batch import and export.
 */
import { ExportButton } from '@/components/ExportButton/ExportButton';
import { useState } from 'react';
import { App, Button, Card, Popconfirm, Space, Typography } from 'antd';
import { DeleteOutlined, ImportOutlined, PlusOutlined } from '@ant-design/icons';
import { useDelete } from '@refinedev/core';
import { SignState, type Sign } from '@/generated/schemas';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable, type SchemaColumn } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { useCurrentUser } from '@/layout/hooks';
import { isAgent } from '@/providers/access';
import { SignAddDialog } from './SignAddDialog';
import { SignImportDialog } from './SignImportDialog';
import { MESSAGES } from '../../../common/schema/messages';
import { signs } from './data';
import { useScreen } from '@/layout/screens';

export function SignList() {
  const signReport = useScreen();
  const { message } = App.useApp();
  const { user } = useCurrentUser();
  const agent = isAgent(user);
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const { mutate: remove } = useDelete();

  const { tableProps, searchFormProps, params } = useSchemaList<Sign>(signs);

  const columns: (string | SchemaColumn<Sign>)[] = [
    { field: 'rownum', width: 70 },
    ...(agent ? ['clientid', 'clientName'] : []),
    'sign',
    'userName',
    'createDate',
    'remarks',
    {
      field: 'state',
      labelField: 'stateStr',
      render: (v: number, r: Sign, _i, cell) => (
        <Space direction="vertical" size={2}>
          {cell}
          {v === SignState.Rejected && r.cause && (
            <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="sign-cause">
              原因：{r.cause}
            </Typography.Text>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card title={signReport.label}>
      <SchemaFilterBar
        filter={signs.filter}
        agent={agent}
        formProps={searchFormProps}
        extra={
          <>
            <Button icon={<PlusOutlined />} onClick={() => setAdding(true)}>
              新增签名
            </Button>
            <Button icon={<ImportOutlined />} onClick={() => setImporting(true)}>
              批量导入
            </Button>
            <ExportButton url="/sign/export" params={params} fileName="签名报备.xlsx" fallbackError="当前无法导出" />
          </>
        }
      />
      <SchemaTable<Sign>
        {...tableProps}
        entity={signs.entity}
        columns={columns}
        locale={{ emptyText: '暂无数据' }}
        extraColumns={[
          {
            key: 'actions',
            title: '操作',
            fixed: 'right',
            render: (_: unknown, r: Sign) =>
              r.state === SignState.Deleted ? null : (
                <Popconfirm
                  title="确定删除该签名吗？"
                  okText="确定"
                  cancelText="取消"
                  onConfirm={() =>
                    void remove(
                      { resource: signs.name, id: r.id },
                      { onSuccess: () => void message.success(MESSAGES.deleted) },
                    )
                  }
                >
                  <Button type="link" danger size="small" icon={<DeleteOutlined />}>
                    删除
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
      <SignAddDialog
        open={adding}
        agent={agent}
        onClose={() => setAdding(false)}
        onAdded={(msg) => message.success(msg)}
      />
      <SignImportDialog open={importing} onClose={() => setImporting(false)} />
    </Card>
  );
}

export default SignList;
