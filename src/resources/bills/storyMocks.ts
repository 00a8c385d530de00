/** MSW fixtures of the own-bill page, for stories only (the app never imports this file). */
import { http, type HttpHandler } from 'msw';
import { consoleApi, fail, ok, agentPackageMode } from '@/stories/mockApi';
import { listReply } from '@/stories/listStates';
import { rowOf, table } from '@/stories/rows';
import type { CreditHistoryRow, OwnBillRow } from '@/generated/schemas';
import type { CreditAlarm } from './api';
import { creditHistories, ownBill } from './data';

/** a line of the agent's own ledger (no order, no payment, not an operator's) */
const billRow = rowOf<OwnBillRow>(ownBill.entity)({ order_id: '', paymentId: '', admin_name: '' });
const TASK = 'T20261124093000123456';
export const billRows: OwnBillRow[] = table<OwnBillRow>()(
  'id financial_type payment_type amount_str balance_str remark create_time order_id',
  [5310, 0, 11, '5000.00', '48499.50', '支付宝充值', '2026-11-25 10:12:05', 'P202611250001'],
  [5288, 1, 12, '-1200.00', '43499.50', '首次充值', '2026-11-24 16:40:11', 'c3f1a2d4'],
  [5101, 1, 6, '-0.50', '44699.50', `短信发送 任务${TASK}`, '2026-11-24 09:30:00', TASK],
  [4020, 0, 9, '44700.00', '44700.00', '年度授信', '2026-11-01 09:00:00'],
).map((r, i) => billRow({ ...r, rownum: i + 1 }));
// the online payment's id, and the operator of the recharge of a sub-account
Object.assign(billRows[0], { paymentId: billRows[0].order_id });
Object.assign(billRows[1], { admin_name: 'a10001' });

const creditRow = rowOf<CreditHistoryRow>(creditHistories.entity)({ endTIme: '', remark: '' });
export const creditRows: CreditHistoryRow[] = table<CreditHistoryRow>()(
  'id payment_type amount balance beginTime endTIme remark',
  [5012, 10, '-300.00', '44400.00', '2026-11-20 09:00:00'],
  [4020, 9, '44700.00', '44700.00', '2026-11-01 09:00:00', '2026-11-20 09:00:00', '年度授信'],
).map((r, i) => creditRow({ ...r, rownum: i + 1 }));

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
