/**
 * 签名报备 (/template/SignReport): the signs of the account (an agent: of its sub-accounts), with
 * the filter bar of schemas/filters/sign.json, the table of schemas/entities/sign.json, add,
 * delete, batch import and export.
 */
import { useState } from 'react';
import { App, Button, Card, Popconfirm, Space, Typography } from 'antd';
import { DeleteOutlined, ExportOutlined, ImportOutlined, PlusOutlined } from '@ant-design/icons';
import { useTable } from '@refinedev/antd';
import { useDelete, type CrudFilter } from '@refinedev/core';
import type { Dayjs } from 'dayjs';
import type { Sign } from '@/generated/schemas';
import { EnumTag } from '@/components/EnumTag/EnumTag';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable, type SchemaColumn } from '@/components/SchemaTable/SchemaTable';
import { useCurrentUser } from '@/layout/hooks';
import { isAgent } from '@/providers/access';
import { ApiError } from '@/providers/http';
import { exportSigns } from './files';
import { SignAddDialog } from './SignAddDialog';
import { SignImportDialog } from './SignImportDialog';

export const SIGN_PAGE_SIZE = 15;
const DELETED = 4;
const REJECTED = 2;

interface SearchValues {
  clientid?: string;
  state?: number;
  sign?: string;
  start_time?: Dayjs | null;
  end_time?: Dayjs | null;
}

/** filter bar values -> the list's parameters (dates as YYYY-MM-DD, empty ones left out) */
export function signFilterParams(v: SearchValues): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  if (v.clientid) out.clientid = v.clientid;
  if (v.state !== undefined && v.state !== null) out.state = v.state;
  if (v.sign?.trim()) out.sign = v.sign.trim();
  if (v.start_time) out.start_time = v.start_time.format('YYYY-MM-DD');
  if (v.end_time) out.end_time = v.end_time.format('YYYY-MM-DD');
  return out;
}

export function SignList() {
  const { message } = App.useApp();
  const { user } = useCurrentUser();
  const agent = isAgent(user);
  const [params, setParams] = useState<Record<string, string | number>>({});
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const { mutate: remove } = useDelete();

  const { tableProps, searchFormProps } = useTable<Sign, any, SearchValues>({
    resource: 'signs',
    pagination: { pageSize: SIGN_PAGE_SIZE },
    syncWithLocation: false,
    onSearch: (values) => {
      const p = signFilterParams(values);
      setParams(p);
      return (['clientid', 'state', 'sign', 'start_time', 'end_time'] as const).map((field): CrudFilter => ({ field, operator: 'eq', value: p[field] }));
    },
  });

  const doExport = async () => {
    setExporting(true);
    try {
      await exportSigns(params);
    } catch (e) {
      message.error(e instanceof ApiError ? e.message : '当前无法导出');
    } finally {
      setExporting(false);
    }
  };

  const columns: (string | SchemaColumn<Sign>)[] = [
    { field: 'rownum', width: 70 },
    ...(agent ? ['clientid', 'clientName'] : []),
    'sign',
    'userName',
    'createDate',
    'remarks',
    {
      field: 'state',
      render: (v: number, r: Sign) => (
        <Space direction="vertical" size={2}>
          <EnumTag enumName="sign-state" value={v} fallback={r.stateStr} />
          {v === REJECTED && r.cause && (
            <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="sign-cause">
              原因：{r.cause}
            </Typography.Text>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card title="签名报备">
      <SchemaFilterBar<SearchValues>
        filter="filters/sign"
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
            <Button icon={<ExportOutlined />} loading={exporting} onClick={doExport}>
              导出
            </Button>
          </>
        }
      />
      <SchemaTable<Sign>
        {...tableProps}
        entity="entities/sign"
        columns={columns}
        locale={{ emptyText: '暂无数据' }}
        extraColumns={[
          {
            key: 'actions',
            title: '操作',
            fixed: 'right',
            render: (_: unknown, r: Sign) =>
              r.state === DELETED ? null : (
                <Popconfirm
                  title="确定删除该签名吗？"
                  okText="确定"
                  cancelText="取消"
                  onConfirm={() => remove({ resource: 'signs', id: r.id }, { onSuccess: () => message.success('删除成功') })}
                >
                  <Button type="link" danger size="small" icon={<DeleteOutlined />}>
                    删除
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
      <SignAddDialog open={adding} agent={agent} onClose={() => setAdding(false)} onAdded={(msg) => message.success(msg)} />
      <SignImportDialog open={importing} onClose={() => setImporting(false)} />
    </Card>
  );
}

export default SignList;
