/**
 * 剩余条数 (/remain?type=<product type>): the unexpired product pools with pieces left
 * (GET /index/clientsmsdetail), filtered by product type and carrier (and sub-account, agents),
 * 即将过期 on pools due within 7 days (dead = 0), a summary row (hidden for userType 2) and a
 * button back to the home page.
 */
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, Card, Space } from 'antd';
import { HomeOutlined } from '@ant-design/icons';
import { RemainDead, type RemainRow } from '@/generated/schemas';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { EnumTag } from '@/components/EnumTag/EnumTag';
import { useCurrentUser } from '@/layout/hooks';
import { isAgent } from '@/providers/access';
import { remain, remainScreen } from '.';

export function RemainPage() {
  const navigate = useNavigate();
  const { user } = useCurrentUser();
  const agent = isAgent(user);
  const [search] = useSearchParams();
  const [initialValues] = useState(() => {
    const t = search.get('type');
    return t !== null && /^[0-4]$/.test(t) ? { product_type: Number(t) } : {};
  });
  const { tableProps, searchFormProps } = useSchemaList<RemainRow>(remain, { initialValues, queryOptions: { enabled: !!user } });
  const columns = [
    { field: 'rownum', width: 64 },
    ...(agent ? ['client_id', 'client_name'] : []),
    'product_type_str',
    'operator_code_str',
    'area_code_str',
    'sms_unitprice',
    'account_balance',
    {
      field: 'due_time',
      render: (v: string, r: RemainRow) => (
        <Space>
          {v}
          {r.dead === RemainDead.ExpiringSoon && <EnumTag enumName="remain-dead" value={r.dead} />}
        </Space>
      ),
    },
  ];
  return (
    <Card
      title={remainScreen.label}
      extra={
        <Button icon={<HomeOutlined />} onClick={() => navigate('/')}>
          返回首页
        </Button>
      }
    >
      <SchemaFilterBar filter={remain.filter} agent={agent} formProps={searchFormProps} />
      <SchemaTable<RemainRow>
        {...tableProps}
        rowKey="rownum"
        entity={remain.entity}
        columns={columns}
        rowClassName={(r) => (r.dead === RemainDead.ExpiringSoon ? 'remain-expiring' : '')}
        locale={{ emptyText: '暂无数据' }}
        // the spec's summary row (not for sub-accounts): 合计 of the x-table.sum columns
        totals={agent}
      />
    </Card>
  );
}

export default RemainPage;
