/**
 * MSW handlers and story data for online recharge (the recharge / pay dialogs, /finance/payorder),
 * answering with the shapes of docs/api-pay.md. Stories only; the app never imports this.
 */
import { http, type HttpHandler } from 'msw';
import type { PayOrder } from '@/generated/schemas';
import { fail, ok, type Calls } from './mockApi';
import { answering } from './pageRows';
import { rowOf } from './rows';

const QR =
  'http://localhost:6006/api/onlinePay/sandbox/scan?paymentId=P2026112510000012345678&token=0123456789abcdef0123456789abcdef';

/** an order of 88.88 by 支付宝 awaiting payment (its state's and mode's labels from their enums) */
export const payOrder = rowOf<PayOrder>('pay-order')({
  rowNum: 1,
  paymentId: 'P2026112510000012345678',
  orderId: '',
  paymentAmountStr: '88.88',
  price: '88.88',
  payType: 11,
  paymentMode: 0,
  paymentModeStr: '支付宝',
  payTimeStr: '2026-11-25 10:00:00',
  paidTimeStr: '',
  expireTimeStr: '2026-11-25 10:15:00',
  paymentState: 0,
  paymentStateStr: '待支付',
  remark: '',
  countDownStr: '900',
  qrCode: QR,
});

/** an order in `state` (0-5), the list's one of that state: its row number and payment id from the state, no countdown or code once it is over */
const inState = (state: PayOrder['paymentState'], diff: Partial<PayOrder> = {}) =>
  payOrder({
    rowNum: state + 1,
    paymentId: `P20261125100000000000${String(6 - state).padStart(2, '0')}`,
    paymentState: state,
    ...(state > 1 ? { countDownStr: '', qrCode: '' } : {}),
    ...diff,
  });
/** one order in each state (0-5) */
export const payOrderRows: PayOrder[] = [
  inState(0, { countDownStr: '600' }),
  inState(1, { countDownStr: '300', paymentMode: 1 }),
  inState(2, { orderId: 'SANDBOX2026112510000000000004', paidTimeStr: '2026-11-25 10:01:00' }),
  inState(3, { remark: '用户在支付页取消支付' }),
  inState(4, { remark: '超时未支付，订单已关闭' }),
  inState(5, { orderId: '2026112522001', paidTimeStr: '2026-11-24 09:01:00' }),
];

export interface PayApiOptions {
  calls?: Calls;
  isOpenPay?: 0 | 1;
  /** the list's rows (each call may answer other rows: a function of the call number) */
  orders?: PayOrder[] | ((call: number) => PayOrder[]);
  /** POST /onlinePay/createPay answers this order */
  created?: PayOrder;
  /** POST /onlinePay/payStatus: the order at the n-th poll */
  status?: (call: number, paymentId: string) => PayOrder;
}

export function payApi(opts: PayApiOptions = {}): HttpHandler[] {
  const { post } = answering(opts.calls);
  let listCalls = 0;
  let statusCalls = 0;
  return [
    http.get('/api/onlinePay/config', () =>
      ok({
        isOpenPay: opts.isOpenPay ?? 1,
        orderTtlSeconds: 900,
        minAmount: '1.00',
        maxAmount: '1000000.00',
        sandbox: { 0: true, 1: true },
      }),
    ),
    post(
      '/onlinePay/createPay',
      'createPay',
      (p) =>
        opts.created ??
        payOrder({
          paymentAmountStr: Number(p.amount).toFixed(2),
          price: Number(p.amount).toFixed(2),
          paymentMode: Number(p.paymentMode) as PayOrder['paymentMode'],
        }),
    ),
    post('/onlinePay/payStatus', 'payStatus', (p) =>
      opts.status ? opts.status(++statusCalls, p.paymentId) : payOrder({ paymentId: p.paymentId }),
    ),
    post('/onlinePay/queryPayOrder', 'queryPayOrder', () => {
      const rows = typeof opts.orders === 'function' ? opts.orders(++listCalls) : (opts.orders ?? payOrderRows);
      return { data: rows, totalRecord: rows.length, page: 1, rows: 15, totalPage: 1 };
    }),
    post('/onlinePay/cancelPay', 'cancelPay', (p) =>
      p.paymentId ? ok(null, '订单已取消') : fail(404, '支付订单不存在'),
    ),
  ];
}
