/**
 * 支付订单 (/finance/payorder, POST /onlinePay/queryPayOrder): filters of filters/pay-order.json
 * (order number, payment mode, state, order time range yyyy-MM-dd HH:mm:ss; the pickers forbid
 * dates later than now − 8.64e6 ms as coded), 15 a page, the table of entities/pay-order. Unpaid
 * orders count down live; when one reaches 0 the list reloads (the server has closed it); 支付 and
 * 取消 are disabled at or below 0. 支付 reopens the pay dialog, 取消 cancels after a confirmation.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { App, Button, Card, Space, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import type { PayOrder } from '@/generated/schemas';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable, type SchemaColumn } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import {
  PayDialog,
  cancelPay,
  formatCountdown,
  isOpenOrder,
  payOrderDisabledDate,
  secondsLeft,
  useNow,
} from '@/components/OnlinePay';
import { useCurrentUser } from '@/layout/hooks';
import { ApiError } from '@/providers/http';
import { businessTime, type BusinessTimeInput } from '@/lib/businessTime';
import { MESSAGES } from '../../../common/schema/messages';
import { payOrders } from './data';
import { useScreen } from '@/layout/screens';

const pickerProps = {
  disabledDate: (d: Dayjs) => payOrderDisabledDate(d),
  format: 'YYYY-MM-DD HH:mm:ss',
  allowClear: true,
};

function validate(v: Record<string, unknown>) {
  const from = v.startPayTime ? businessTime(v.startPayTime as BusinessTimeInput) : null;
  const to = v.endPayTime ? businessTime(v.endPayTime as BusinessTimeInput) : null;
  return from && to && to.isBefore(from) ? MESSAGES.endBeforeStart : null;
}

export function PayOrderList() {
  const payOrderScreen = useScreen();
  const { user } = useCurrentUser();
  const { message, modal } = App.useApp();
  const [paying, setPaying] = useState<PayOrder | null>(null);
  const { tableProps, searchFormProps, tableQuery } = useSchemaList<PayOrder>(payOrders, {
    validate,
    queryOptions: { enabled: !!user },
  });
  const rows = tableProps.dataSource ?? [];
  // the countdowns count from the time the rows arrived
  const dataUpdatedAt = tableQuery.dataUpdatedAt;
  const counting = rows.some((r) => isOpenOrder(r) && Number(r.countDownStr) > 0);
  const now = useNow(counting);
  const leftOf = useCallback(
    (r: PayOrder) => (isOpenOrder(r) ? secondsLeft(r.countDownStr, dataUpdatedAt, now) : 0),
    [now, dataUpdatedAt],
  );

  // a countdown reached 0: reload once (the server closes the order)
  const reloadedFor = useRef(0);
  const expiredNow = rows.some((r) => isOpenOrder(r) && Number(r.countDownStr) > 0 && leftOf(r) <= 0);
  const refetch = tableQuery.refetch;
  useEffect(() => {
    if (expiredNow && reloadedFor.current !== dataUpdatedAt) {
      reloadedFor.current = dataUpdatedAt;
      void refetch();
    }
  }, [expiredNow, dataUpdatedAt, refetch]);

  const cancel = (r: PayOrder) =>
    modal.confirm({
      title: '提示',
      content: '确定取消该支付订单吗？',
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        try {
          message.success((await cancelPay(r.paymentId)) || MESSAGES.payOrderCancelled);
        } catch (e) {
          if (!(e instanceof ApiError)) message.error('接口异常');
        }
        await refetch();
      },
    });

  const columns: (string | SchemaColumn<PayOrder>)[] = [
    { field: 'rowNum', width: 64 },
    'paymentId',
    'orderId',
    'paymentAmountStr',
    { field: 'paymentMode', labelField: 'paymentModeStr' },
    // sandbox orders moved no money: marked (never invoiceable, docs/api-pay.md)
    { field: 'sandbox', width: 72, render: (v: number | undefined) => (v ? <Tag color="orange">沙箱</Tag> : '-') },
    'payTimeStr',
    { field: 'paymentState', labelField: 'paymentStateStr' },
    {
      field: 'countDownStr',
      render: (_v: string, r: PayOrder) => {
        if (!isOpenOrder(r)) return '-';
        const left = leftOf(r);
        return (
          <Typography.Text type={left > 0 ? 'danger' : 'secondary'} data-testid="row-countdown">
            {left > 0 ? formatCountdown(left) : '已超时'}
          </Typography.Text>
        );
      },
    },
    'remark',
  ];

  return (
    <Card title={payOrderScreen.label}>
      <SchemaFilterBar
        filter={payOrders.filter}
        formProps={searchFormProps}
        fieldProps={{ startPayTime: pickerProps, endPayTime: pickerProps }}
      />
      <SchemaTable<PayOrder>
        {...tableProps}
        loading={tableQuery.isLoading}
        entity={payOrders.entity}
        columns={columns}
        rowKey="paymentId"
        locale={{ emptyText: '暂无数据' }}
        extraColumns={[
          {
            key: 'actions',
            title: '操作',
            fixed: 'right',
            render: (_: unknown, r: PayOrder) => {
              if (!isOpenOrder(r)) return null;
              const disabled = leftOf(r) <= 0;
              return (
                <Space size={0}>
                  <Button
                    type="link"
                    size="small"
                    disabled={disabled}
                    onClick={() => setPaying({ ...r, countDownStr: String(leftOf(r)) })}
                    data-testid="row-pay"
                  >
                    支付
                  </Button>
                  <Button
                    type="link"
                    size="small"
                    danger
                    disabled={disabled}
                    onClick={() => cancel(r)}
                    data-testid="row-cancel"
                  >
                    取消
                  </Button>
                </Space>
              );
            },
          },
        ]}
      />
      <PayDialog order={paying} onClose={() => setPaying(null)} onChanged={() => void refetch()} />
    </Card>
  );
}

export default PayOrderList;
