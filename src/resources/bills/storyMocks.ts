/** MSW fixtures of the own-bill page, for stories only (the app never imports this file). */
import { http, type HttpHandler } from 'msw';
import { consoleApi, fail, ok, agentPackageMode } from '@/stories/mockApi';
import { listReply } from '@/stories/listStates';
import { rowOf } from '@/stories/rows';
import type { CreditHistoryRow, OwnBillRow } from '@/generated/schemas';
import type { CreditAlarm } from './api';
import { creditHistories, ownBill } from './data';

/** a line of the agent's own ledger (no order, no payment, not an operator's) */
const billRow = rowOf<OwnBillRow>(ownBill.entity)({ order_id: '', paymentId: '', admin_name: '' });
export const billRows: OwnBillRow[] = [
  billRow({
    rownum: 1,
    id: 5310,
    financial_type: 0,
    payment_type: 11,
    amount_str: '5000.00',
    balance_str: '48499.50',
    order_id: 'P202611250001',
    paymentId: 'P202611250001',
    remark: '支付宝充值',
    create_time: '2026-11-25 10:12:05',
  }),
  billRow({
    rownum: 2,
    id: 5288,
    financial_type: 1,
    payment_type: 12,
    amount_str: '-1200.00',
    balance_str: '43499.50',
    order_id: 'c3f1a2d4',
    admin_name: 'a10001',
    remark: '首次充值',
    create_time: '2026-11-24 16:40:11',
  }),
  billRow({
    rownum: 3,
    id: 5101,
    financial_type: 1,
    payment_type: 6,
    amount_str: '-0.50',
    balance_str: '44699.50',
    order_id: 'T20261124093000123456',
    remark: '短信发送 任务T20261124093000123456',
    create_time: '2026-11-24 09:30:00',
  }),
  billRow({
    rownum: 4,
    id: 4020,
    financial_type: 0,
    payment_type: 9,
    amount_str: '44700.00',
    balance_str: '44700.00',
    remark: '年度授信',
    create_time: '2026-11-01 09:00:00',
  }),
];

const creditRow = rowOf<CreditHistoryRow>(creditHistories.entity)({ endTIme: '', remark: '' });
export const creditRows: CreditHistoryRow[] = [
  creditRow({
    rownum: 1,
    id: 5012,
    payment_type: 10,
    amount: '-300.00',
    balance: '44400.00',
    beginTime: '2026-11-20 09:00:00',
  }),
  creditRow({
    rownum: 2,
    id: 4020,
    payment_type: 9,
    amount: '44700.00',
    balance: '44700.00',
    beginTime: '2026-11-01 09:00:00',
    endTIme: '2026-11-20 09:00:00',
    remark: '年度授信',
  }),
];

/** the agent's alarm: none set ('0', no phone) and one set */
export const alarmOff: CreditAlarm = {
  agentId: 'a10001',
  alarmAmount: '0',
  alarmPhone: '',
  armed: 1,
  lastAlarmTime: '',
  balance: '48499.50',
};
export const alarmSet: CreditAlarm = {
  ...alarmOff,
  alarmAmount: '10000',
  alarmPhone: '13800138000,13900139000',
  lastAlarmTime: '2026-11-10 08:15:00',
};

export interface OwnBillMockOptions {
  bill?: OwnBillRow[];
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
    listReply(ownBill, o.bill ?? billRows),
    http.post('/api/finance/bill/self/export', () => fail(500, '当前条件没有数据，无法导出')),
    listReply(creditHistories, o.credit ?? creditRows),
    http.get('/api/finance/agentBalanceAlarm/get', () => ok(alarm)),
    http.post('/api/finance/agentBalanceAlarm/edit', async ({ request }) => {
      if (o.save === 'refused') return fail(403, '只能设置本账户的额度提醒');
      const f = new URLSearchParams(await request.text());
      alarm = { ...alarm, alarmAmount: String(Number(f.get('alarmAmount'))), alarmPhone: f.get('alarmPhone') ?? '' };
      return ok(alarm, '额度提醒设置成功');
    }),
  ];
}
