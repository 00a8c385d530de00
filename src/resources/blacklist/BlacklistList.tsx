/**
 * 黑名单 (/sms/blacklist): the numbers marketing SMS of the account (an agent: of itself and its
 * sub-accounts) never goes to — added by unsubscribe replies (TD / T / 退订) or by hand; the filter
 * bar of schemas/filters/blacklist.json, the table of schemas/entities/blacklist.json, add, remove
 * and export. The platform's own blacklist is kept by operators and not shown here.
 */
import { ExportButton } from '@/components/ExportButton/ExportButton';
import { useState } from 'react';
import { Alert, App, Button, Card, Popconfirm } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useDelete } from '@refinedev/core';
import type { BlacklistEntry } from '@/generated/schemas';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable, type SchemaColumn } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { useCurrentUser } from '@/layout/hooks';
import { isAgent } from '@/providers/access';
import { MESSAGES } from '../../../common/schema/messages';
import sourceEnum from '../../../schemas/enums/blacklist-source.json';
import { BlacklistAddDialog } from './BlacklistAddDialog';
import { blacklist } from './data';
import { useScreen } from '@/layout/screens';

/** 回复 TD、T 或 退订 (schemas/enums/blacklist-source.json) */
export const UNSUBSCRIBE_HINT = `用户回复 ${sourceEnum['x-unsubscribe-words'].join('、')}（不区分大小写）后自动加入；营销短信不会发送到黑名单号码，这些号码不计费，在任务中计入“黑名单”。通知、验证码短信不受影响。`;

export function BlacklistList() {
  const blacklistScreen = useScreen();
  const { message } = App.useApp();
  const { user } = useCurrentUser();
  const agent = isAgent(user);
  const [adding, setAdding] = useState(false);
  const { mutate: remove } = useDelete();
  const { tableProps, searchFormProps, params } = useSchemaList<BlacklistEntry>(blacklist);

  const columns: (string | SchemaColumn<BlacklistEntry>)[] = [
    { field: 'rownum', width: 70 },
    ...(agent ? ['clientid', { field: 'clientName', ellipsis: true } as SchemaColumn<BlacklistEntry>] : []),
    { field: 'phone', width: 140 },
    'source',
    { field: 'remark', ellipsis: true },
    'createdBy',
    { field: 'createDate', width: 180 },
  ];

  return (
    <Card title={blacklistScreen.label}>
      <Alert
        type="info"
        showIcon
        message={UNSUBSCRIBE_HINT}
        style={{ marginBottom: 16 }}
        data-testid="blacklist-hint"
      />
      <SchemaFilterBar
        filter={blacklist.filter}
        agent={agent}
        formProps={searchFormProps}
        extra={
          <>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
              添加号码
            </Button>
            <ExportButton url="/blacklist/export" params={params} fileName="黑名单.xlsx" fallbackError="当前无法导出" />
          </>
        }
      />
      <SchemaTable<BlacklistEntry>
        {...tableProps}
        entity={blacklist.entity}
        columns={columns}
        locale={{ emptyText: '暂无数据' }}
        extraColumns={[
          {
            key: 'actions',
            title: '操作',
            fixed: 'right',
            width: 100,
            render: (_: unknown, r: BlacklistEntry) => (
              <Popconfirm
                title={`确定将 ${r.phone} 移出黑名单吗？`}
                description="移出后营销短信将恢复发送到该号码"
                okText="移出"
                cancelText="不移出"
                onConfirm={() =>
                  void remove(
                    { resource: blacklist.name, id: r.id },
                    { onSuccess: () => void message.success(MESSAGES.deleted) },
                  )
                }
              >
                <Button type="link" danger size="small" icon={<DeleteOutlined />} data-testid="blacklist-remove">
                  移出
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
      <BlacklistAddDialog
        open={adding}
        agent={agent}
        onClose={() => setAdding(false)}
        onAdded={(msg) => message.success(msg)}
      />
    </Card>
  );
}

export default BlacklistList;
