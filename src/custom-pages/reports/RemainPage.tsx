/**
 * 剩余条数 (/remain?type=<product type>): the unexpired product pools with pieces left
 * (GET /index/clientsmsdetail), filtered by product type and carrier (and sub-account, agents),
 * 即将过期 on pools due within 7 days (dead = 0), counts with thousands separators, the price paid
 * (赠送 for a gift pool), summary rows for agents — the agent's own pools and its sub-accounts'
 * apart, never added together (the agent's own pay for its postpaid sub-accounts) — and a button back
 * to the home page. It is the one pools page: the 购买 menu's 剩余条数 (/sms/pools) opens it too.
 */
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, Card, Space, Table, Typography } from 'antd';
import { HomeOutlined } from '@ant-design/icons';
import { ProductType, RemainDead, type RemainRow } from '@/generated/schemas';
import { formatMoney } from '@/components/Money/money';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { EnumTag } from '@/components/EnumTag/EnumTag';
import { useCurrentUser } from '@/layout/hooks';
import { isAgent } from '@/providers/access';
import { remain } from './data';
import { useScreen } from '@/layout/screens';

/** a pool's figure as shown: 19,996 条, or 200.00 元 for an international pool */
const figure = (r: Pick<RemainRow, 'product_type' | 'account_balance'>) =>
  r.product_type === ProductType.International
    ? `${formatMoney(String(r.account_balance), 2)} 元`
    : `${formatMoney(String(r.account_balance), 0)} 条`;

/** the sum of these pools: pieces, and yuan for international ones, apart */
function sumText(rows: RemainRow[]): string {
  const intl = rows.filter((r) => r.product_type === ProductType.International);
  const pieces = rows
    .filter((r) => r.product_type !== ProductType.International)
    .reduce((s, r) => s + Number(r.account_balance), 0);
  const yuan = intl.reduce((s, r) => s + Math.round(Number(r.account_balance) * 100), 0);
  const parts = [
    ...(pieces || !intl.length ? [`${formatMoney(String(pieces), 0)} 条`] : []),
    ...(intl.length ? [`${formatMoney((yuan / 100).toFixed(2), 2)} 元`] : []),
  ];
  return parts.join(' + ');
}

export function RemainPage() {
  const remainScreen = useScreen();
  const navigate = useNavigate();
  const { user } = useCurrentUser();
  const agent = isAgent(user);
  const [search] = useSearchParams();
  const [initialValues] = useState(() => {
    const t = search.get('type');
    return t !== null && /^[0-4]$/.test(t) ? { product_type: Number(t) } : {};
  });
  const { tableProps, searchFormProps } = useSchemaList<RemainRow>(remain, {
    initialValues,
    queryOptions: { enabled: !!user },
  });
  const rows = (tableProps.dataSource ?? []) as RemainRow[];
  const columns = [
    { field: 'rownum', width: 64 },
    ...(agent ? ['client_id', 'client_name'] : []),
    'product_type_str',
    'operator_code_str',
    'area_code_str',
    {
      field: 'sms_unitprice',
      align: 'right' as const,
      render: (v: string, r: RemainRow) => (r.gift ? '赠送' : formatMoney(v, 4)),
    },
    {
      field: 'account_balance',
      align: 'right' as const,
      render: (_: unknown, r: RemainRow) => <span style={{ whiteSpace: 'nowrap' }}>{figure(r)}</span>,
    },
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
        summary={
          agent && rows.length
            ? () => {
                // the agent's own pools and its sub-accounts' are different money: two rows, never one sum
                const groups = [
                  { key: 'own', label: '合计（本账户）', rows: rows.filter((r) => r.client_id === user?.clientid) },
                  { key: 'sub', label: '合计（子账户）', rows: rows.filter((r) => r.client_id !== user?.clientid) },
                ].filter((g) => g.rows.length);
                return groups.map((g) => (
                  <Table.Summary.Row key={g.key} data-testid={`remain-summary-${g.key}`}>
                    <Table.Summary.Cell index={0} colSpan={3}>
                      <Typography.Text strong>{g.label}</Typography.Text>
                    </Table.Summary.Cell>
                    <Table.Summary.Cell index={3} colSpan={4} />
                    <Table.Summary.Cell index={7} align="right">
                      <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>
                        {sumText(g.rows)}
                      </Typography.Text>
                    </Table.Summary.Cell>
                    <Table.Summary.Cell index={8} />
                  </Table.Summary.Row>
                ));
              }
            : undefined
        }
      />
    </Card>
  );
}

export default RemainPage;
