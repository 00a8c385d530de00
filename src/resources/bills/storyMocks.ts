/** MSW fixtures of the own-bill page, for stories only (the app never imports this file). */
import { delay, http, type HttpHandler } from 'msw';
import { consoleApi, fail, listPageOf, ok, agentPackageMode } from '@/stories/mockApi';
import type { CreditHistoryRow, OwnBillRow } from '@/generated/schemas';
import type { CreditAlarm } from './api';

export const billRows: OwnBillRow[] = [
  {
    rownum: 1,
    id: 5310,
    financial_type: 0,
    financial_type_str: '入账',
    payment_type: 11,
    payment_type_str: '在线充值',
    amount_str: '5000.00',
    balance_str: '48499.50',
    order_id: 'P202611250001',
    paymentId: 'P202611250001',
    admin_name: '',
    remark: '支付宝充值',
    create_time: '2026-11-25 10:12:05',
  },
  {
    rownum: 2,
    id: 5288,
    financial_type: 1,
    financial_type_str: '出账',
    payment_type: 12,
    payment_type_str: '子账户充值',
    amount_str: '-1200.00',
    balance_str: '43499.50',
    order_id: 'c3f1a2d4',
    paymentId: '',
    admin_name: 'a10001',
    remark: '首次充值',
    create_time: '2026-11-24 16:40:11',
  },
  {
    rownum: 3,
    id: 5101,
    financial_type: 1,
    financial_type_str: '出账',
    payment_type: 6,
    payment_type_str: '后付费子账户使用',
    amount_str: '-0.50',
    balance_str: '44699.50',
    order_id: 'T20261124093000123456',
    paymentId: '',
    admin_name: '',
    remark: '短信发送 任务T20261124093000123456',
    create_time: '2026-11-24 09:30:00',
  },
  {
    rownum: 4,
    id: 4020,
    financial_type: 0,
    financial_type_str: '入账',
    payment_type: 9,
    payment_type_str: '提升额度',
    amount_str: '44700.00',
    balance_str: '44700.00',
    order_id: '',
    paymentId: '',
    admin_name: '',
    remark: '年度授信',
    create_time: '2026-11-01 09:00:00',
  },
];

export const creditRows: CreditHistoryRow[] = [
  {
    rownum: 1,
    id: 5012,
    payment_type: 10,
    payment_type_str: '降低额度',
    amount: '-300.00',
    balance: '44400.00',
    beginTime: '2026-11-20 09:00:00',
    endTIme: '',
    remark: '',
  },
  {
    rownum: 2,
    id: 4020,
    payment_type: 9,
    payment_type_str: '提升额度',
    amount: '44700.00',
    balance: '44700.00',
    beginTime: '2026-11-01 09:00:00',
    endTIme: '2026-11-20 09:00:00',
    remark: '年度授信',
  },
];

export const alarmSet: CreditAlarm = {
  agentId: 'a10001',
  alarmAmount: '10000',
  alarmPhone: '13800138000,13900139000',
  armed: 1,
  lastAlarmTime: '2026-11-10 08:15:00',
  balance: '48499.50',
};
export const alarmOff: CreditAlarm = {
  agentId: 'a10001',
  alarmAmount: '0',
  alarmPhone: '',
  armed: 1,
  lastAlarmTime: '',
  balance: '48499.50',
};

export interface OwnBillMockOptions {
  bill?: OwnBillRow[] | 'loading';
  credit?: CreditHistoryRow[];
  alarm?: CreditAlarm;
  /** the server refuses the alarm */
  save?: 'ok' | 'refused';
}

export function ownBillHandlers(o: OwnBillMockOptions = {}): HttpHandler[] {
  let alarm = o.alarm ?? alarmSet;
  return [
    ...consoleApi({ user: agentPackageMode }),
    http.get('/api/finance/bill/data', () => ok({ available_line: '48499.50', balance: '48499.50' })),
    http.post('/api/finance/bill/self', async () => {
      if (o.bill === 'loading') await delay('infinite');
      return ok(listPageOf((o.bill as OwnBillRow[] | undefined) ?? billRows, {}));
    }),
    http.post('/api/finance/bill/self/export', () => fail(500, '当前条件没有数据，无法导出')),
    http.get('/api/finance/creditHistories/list', () => ok(listPageOf(o.credit ?? creditRows, {}))),
    http.get('/api/finance/agentBalanceAlarm/get', () => ok(alarm)),
    http.post('/api/finance/agentBalanceAlarm/edit', async ({ request }) => {
      if (o.save === 'refused') return fail(403, '只能设置本账户的额度提醒');
      const f = new URLSearchParams(await request.text());
      alarm = { ...alarm, alarmAmount: String(Number(f.get('alarmAmount'))), alarmPhone: f.get('alarmPhone') ?? '' };
      return ok(alarm, '额度提醒设置成功');
    }),
  ];
}
