/**
 * 自有账单 (/finance/own, route finance_own, agents): the balance figures (GET /finance/bill/data),
 * the credit alarm (额度提醒, a SchemaFormDialog over schemas/forms/credit-alarm.json), the bill —
 * the account's ledger rows (POST /finance/bill/self, filters/own-bill, export .xlsx) — and the
 * credit history (GET /finance/creditHistories/list). The online-recharge button comes from
 * ./onlineRechargeSlot (set by the online-payment work).
 */
import { ExportButton } from '@/components/ExportButton/ExportButton';
import { useCallback, useEffect, useState } from 'react';
import { Button, Card, Col, Descriptions, Row, Statistic, Tabs } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { BillPaymentType, type CreditAlarmForm, type CreditHistoryRow, type OwnBillRow } from '@/generated/schemas';
import alarmForm from '@/generated/forms/credit-alarm';
import { Money } from '@/components/Money/Money';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaFormDialog } from '@/components/SchemaForm/SchemaFormDialog';
import { SchemaTable } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { billsApi, type BillData, type CreditAlarm } from './api';
import { OnlineRechargeSlot } from './onlineRechargeSlot';
import { creditHistories, ownBill } from './data';
import { useScreen } from '@/layout/screens';

const SUBMIT_LOCK_MS = 3000;

export function CreditAlarmDialog({
  open,
  alarm,
  onClose,
  onDone,
}: {
  open: boolean;
  alarm?: CreditAlarm;
  onClose: () => void;
  onDone?: () => void;
}) {
  return (
    <SchemaFormDialog<CreditAlarmForm>
      open={open}
      title="额度提醒"
      form={alarmForm}
      fields={['alarmAmount', 'alarmPhone']}
      initial={{ agentId: alarm?.agentId, alarmAmount: alarm?.alarmAmount ?? '0', alarmPhone: alarm?.alarmPhone ?? '' }}
      save={async (v) => (await billsApi.saveAlarm(v)).msg}
      lockMs={SUBMIT_LOCK_MS}
      errorTestId="credit-alarm-error"
      onClose={onClose}
      onDone={onDone}
    >
      <p>
        账户余额低于提醒额度时，向提醒手机号发送一条短信（每次跌破提醒一次，余额回到额度以上后重新生效）；额度为 0
        表示不提醒。
      </p>
    </SchemaFormDialog>
  );
}

function BillTab() {
  const { tableProps, searchFormProps, params } = useSchemaList<OwnBillRow>(ownBill);
  return (
    <>
      <SchemaFilterBar
        filter={ownBill.filter}
        formProps={searchFormProps}
        agent
        extra={<ExportButton url="/finance/bill/self/export" params={params} fileName="自有账单.xlsx" />}
      />
      <SchemaTable<OwnBillRow>
        {...tableProps}
        rowKey="id"
        entity={ownBill.entity}
        data-testid="own-bill-table"
        columns={[
          { field: 'rownum', width: 64 },
          { field: 'financial_type', labelField: 'financial_type_str' },
          { field: 'payment_type', labelField: 'payment_type_str' },
          { field: 'amount_str', align: 'right', render: (v: string) => <Money value={v} signed /> },
          { field: 'balance_str', align: 'right', render: (v: string) => <Money value={v} /> },
          'order_id',
          // the payment number only for online recharges
          {
            field: 'paymentId',
            render: (v: string, r: OwnBillRow) => (r.payment_type === BillPaymentType.OnlineRecharge && v ? v : '-'),
          },
          'admin_name',
          'remark',
          'create_time',
        ]}
        locale={{ emptyText: '暂无数据' }}
      />
    </>
  );
}

function CreditTab() {
  const { tableProps } = useSchemaList<CreditHistoryRow>(creditHistories);
  return (
    <SchemaTable<CreditHistoryRow>
      {...tableProps}
      rowKey="id"
      entity={creditHistories.entity}
      data-testid="credit-history-table"
      columns={[
        { field: 'rownum', width: 64 },
        { field: 'payment_type', labelField: 'payment_type_str' },
        { field: 'amount', align: 'right', render: (v: string) => <Money value={v} signed /> },
        { field: 'balance', align: 'right', render: (v: string) => <Money value={v} /> },
        'beginTime',
        { field: 'endTIme', render: (v: string) => v || '至今' },
        'remark',
      ]}
      locale={{ emptyText: '暂无数据' }}
    />
  );
}

export default function OwnBill() {
  const ownBillScreen = useScreen();
  const [data, setData] = useState<BillData>();
  const [alarm, setAlarm] = useState<CreditAlarm>();
  const [alarmOpen, setAlarmOpen] = useState(false);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => {
    billsApi
      .data()
      .then((b) => setData(b.data))
      .catch(() => undefined);
    billsApi
      .alarm()
      .then((b) => setAlarm(b.data))
      .catch(() => undefined);
  }, []);
  useEffect(reload, [reload]);
  const alarmOn = !!alarm && alarm.alarmAmount !== '0';
  return (
    <div data-testid="own-bill">
      <Card title={ownBillScreen.label} loading={!data}>
        <Row gutter={[24, 16]} align="middle">
          <Col xs={24} sm={12} md={6}>
            <Statistic title="可用额度" valueRender={() => <Money value={data?.available_line} />} />
          </Col>
          <Col xs={24} sm={12} md={6}>
            <Statistic title="账户余额" valueRender={() => <Money value={data?.balance} />} />
          </Col>
          <Col xs={24} md={12}>
            <Descriptions size="small" column={1} data-testid="credit-alarm-summary">
              <Descriptions.Item label="额度提醒">
                {alarmOn ? (
                  <span>
                    余额低于 <Money value={alarm.alarmAmount} scale={0} /> 时提醒 {alarm.alarmPhone}
                  </span>
                ) : (
                  '未设置'
                )}
              </Descriptions.Item>
              {alarmOn && alarm.lastAlarmTime && (
                <Descriptions.Item label="上次提醒">{alarm.lastAlarmTime}</Descriptions.Item>
              )}
            </Descriptions>
            <Button icon={<BellOutlined />} onClick={() => setAlarmOpen(true)} disabled={!alarm}>
              额度提醒
            </Button>
            {OnlineRechargeSlot && (
              <span style={{ marginLeft: 8 }}>
                <OnlineRechargeSlot
                  onDone={() => {
                    reload();
                    setVersion((v) => v + 1);
                  }}
                />
              </span>
            )}
          </Col>
        </Row>
      </Card>
      <Card style={{ marginTop: 16 }}>
        <Tabs
          key={version}
          items={[
            { key: 'bill', label: '账单明细', children: <BillTab /> },
            { key: 'credit', label: '额度记录', children: <CreditTab /> },
          ]}
        />
      </Card>
      <CreditAlarmDialog open={alarmOpen} alarm={alarm} onClose={() => setAlarmOpen(false)} onDone={reload} />
    </div>
  );
}
