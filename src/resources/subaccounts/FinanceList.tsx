/** 客户财务 (/customer/finance): balances and prices of the sub-accounts; recharge, rollback, reminder, price, expiration. */
import { useState } from 'react';
import { Button, Card, Space } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { PayType, PriceType, YesNo, type SubAccountRow } from '@/generated/schemas';
import { Money } from '@/components/Money/Money';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable, type SchemaColumn } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { isDirectChargeMode } from '@/providers/access';
import { useCurrentUser } from '@/layout/hooks';
import { downloadExport } from './api';
import { ExpirationDialog, PriceDialog, ReminderDialog, TransferDialog } from './dialogs';
import { useStat } from './SubAccountList';
import { subAccountFinance } from './data';
import { useScreen } from '@/layout/screens';

type DialogKind = 'recharge' | 'rollback' | 'remind' | 'price' | 'expire';

/** accounts billed against the main account (postpaid): no recharge, no reminder */
export const billedByAgent = (r: SubAccountRow) => r.balanceOfAgent === YesNo.Yes || r.paytype === PayType.Postpaid;

export default function FinanceList() {
  const financeScreen = useScreen();
  const { user } = useCurrentUser();
  const { tableProps, searchFormProps, tableQuery, params } = useSchemaList<SubAccountRow>(subAccountFinance);
  const { stat, reload } = useStat();
  const [dialog, setDialog] = useState<{ kind: DialogKind; row: SubAccountRow } | null>(null);
  const rowOf = (k: DialogKind) => (dialog?.kind === k ? dialog.row : null);
  const close = () => setDialog(null);
  const done = () => {
    void tableQuery.refetch();
    reload();
  };
  const price = (v: string) => <Money value={v} scale={4} />;
  const columns: (string | SchemaColumn<SubAccountRow>)[] = [
    'client_id',
    'client_name',
    ...(isDirectChargeMode(user)
      ? [{ field: 'smstype', labelField: 'smstype_str' } as SchemaColumn<SubAccountRow>]
      : []),
    { field: 'paytype', labelField: 'paytype_str' },
    {
      field: 'balance',
      align: 'right',
      render: (v: string, r: SubAccountRow) => (billedByAgent(r) ? '使用主账户余额' : <Money value={v} />),
    },
    { field: 'priceType' },
    {
      field: 'mobilePrice',
      align: 'right',
      render: (v: string, r: SubAccountRow) => price(r.priceType === PriceType.Unified ? r.unifiedPrice! : v),
    },
    {
      field: 'unicomPrice',
      align: 'right',
      render: (v: string, r: SubAccountRow) => price(r.priceType === PriceType.Unified ? r.unifiedPrice! : v),
    },
    {
      field: 'telecomPrice',
      align: 'right',
      render: (v: string, r: SubAccountRow) => price(r.priceType === PriceType.Unified ? r.unifiedPrice! : v),
    },
    { field: 'expireDate', render: (v: string) => v || '长期' },
    { field: 'status', labelField: 'status_str' },
    'remarks',
  ];
  return (
    <Card
      title={financeScreen.label}
      data-testid="subaccount-finance"
      extra={
        stat && (
          <span>
            可用余额：
            <Money value={stat.agentBalance} />
          </span>
        )
      }
    >
      <SchemaFilterBar
        filter={subAccountFinance.filter}
        formProps={searchFormProps}
        agent
        extra={
          <Button
            icon={<DownloadOutlined />}
            onClick={() => downloadExport('/recharge/rollback/export', params, '客户财务.xlsx')}
          >
            导出
          </Button>
        }
      />
      <SchemaTable<SubAccountRow>
        {...tableProps}
        rowKey="client_id"
        entity={subAccountFinance.entity}
        columns={columns}
        extraColumns={[
          {
            key: 'actions',
            title: '操作',
            fixed: 'right',
            render: (_: unknown, row: SubAccountRow) => (
              <Space size={0} wrap>
                {!billedByAgent(row) && (
                  <Button type="link" size="small" onClick={() => setDialog({ kind: 'recharge', row })}>
                    充值
                  </Button>
                )}
                <Button type="link" size="small" onClick={() => setDialog({ kind: 'rollback', row })}>
                  回退
                </Button>
                {!billedByAgent(row) && (
                  <Button type="link" size="small" onClick={() => setDialog({ kind: 'remind', row })}>
                    提醒
                  </Button>
                )}
                <Button type="link" size="small" onClick={() => setDialog({ kind: 'price', row })}>
                  价格
                </Button>
                <Button type="link" size="small" onClick={() => setDialog({ kind: 'expire', row })}>
                  到期
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <TransferDialog
        op="recharge"
        account={rowOf('recharge')}
        agentBalance={stat?.agentBalance}
        onClose={close}
        onDone={done}
      />
      <TransferDialog
        op="rollback"
        account={rowOf('rollback')}
        agentBalance={stat?.agentBalance}
        onClose={close}
        onDone={done}
      />
      <ReminderDialog account={rowOf('remind')} onClose={close} onDone={done} />
      <PriceDialog account={rowOf('price')} onClose={close} onDone={done} />
      <ExpirationDialog account={rowOf('expire')} onClose={close} onDone={done} />
    </Card>
  );
}
