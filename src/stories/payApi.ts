/**
 * MSW handlers and story data for online recharge (the recharge / pay dialogs, /finance/payorder),
 * answering with the shapes of docs/api-pay.md. Stories only; the app never imports this.
 */
import { http, type HttpHandler } from 'msw';
import { PaymentMode, type PayOrder } from '@/generated/schemas';
import { fail, ok, recorder, type Calls } from './mockApi';

const QR =
  'http://localhost:6006/api/onlinePay/sandbox/scan?paymentId=P2026112510000012345678&token=0123456789abcdef0123456789abcdef';

export const payOrder = (o: Partial<PayOrder> = {}): PayOrder => ({
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
  ...o,
});

/** one order in each state (0-5) */
export const payOrderRows: PayOrder[] = [
  payOrder({
    rowNum: 1,
    paymentId: 'P2026112510000000000006',
    paymentState: 0,
    paymentStateStr: '待支付',
    countDownStr: '600',
  }),
  payOrder({
    rowNum: 2,
    paymentId: 'P2026112510000000000005',
    paymentState: 1,
    paymentStateStr: '已提交支付',
    countDownStr: '300',
    paymentMode: 1,
    paymentModeStr: '微信支付',
  }),
  payOrder({
    rowNum: 3,
    paymentId: 'P2026112510000000000004',
    paymentState: 2,
    paymentStateStr: '支付成功',
    countDownStr: '',
    qrCode: '',
    orderId: 'SANDBOX2026112510000000000004',
    paidTimeStr: '2026-11-25 10:01:00',
  }),
  payOrder({
    rowNum: 4,
    paymentId: 'P2026112510000000000003',
    paymentState: 3,
    paymentStateStr: '支付失败',
    countDownStr: '',
    qrCode: '',
    remark: '用户在支付页取消支付',
  }),
  payOrder({
    rowNum: 5,
    paymentId: 'P2026112510000000000002',
    paymentState: 4,
    paymentStateStr: '已取消',
    countDownStr: '',
    qrCode: '',
    remark: '超时未支付，订单已关闭',
  }),
  payOrder({
    rowNum: 6,
    paymentId: 'P2026112510000000000001',
    paymentState: 5,
    paymentStateStr: '支付成功',
    countDownStr: '',
    qrCode: '',
    orderId: '2026112522001',
    paidTimeStr: '2026-11-24 09:01:00',
  }),
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
  const log = recorder(opts.calls);
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
    http.post('/api/onlinePay/createPay', async ({ request }) => {
      const p = await log('createPay', request);
      const mode = Number(p.paymentMode);
      return ok(
        opts.created ??
          payOrder({
            paymentAmountStr: Number(p.amount).toFixed(2),
            price: Number(p.amount).toFixed(2),
            paymentMode: mode as PayOrder['paymentMode'],
            paymentModeStr: mode === PaymentMode.WeChatPay ? '微信支付' : '支付宝',
          }),
      );
    }),
    http.post('/api/onlinePay/payStatus', async ({ request }) => {
      const p = await log('payStatus', request);
      statusCalls += 1;
      return ok(opts.status ? opts.status(statusCalls, p.paymentId) : payOrder({ paymentId: p.paymentId }));
    }),
    http.post('/api/onlinePay/queryPayOrder', async ({ request }) => {
      await log('queryPayOrder', request);
      listCalls += 1;
      const rows = typeof opts.orders === 'function' ? opts.orders(listCalls) : (opts.orders ?? payOrderRows);
      return ok({ data: rows, totalRecord: rows.length, page: 1, rows: 15, totalPage: 1 });
    }),
    http.post('/api/onlinePay/cancelPay', async ({ request }) => {
      const p = await log('cancelPay', request);
      return p.paymentId ? ok(null, '订单已取消') : fail(404, '支付订单不存在');
    }),
  ];
}
