/** Calls of the own-bill page (server/modules/bills, docs/api-bills.md). Every answer is { code, msg, data }. */
import { get, postForm } from '@/providers/http';
import type { BillFigures, CreditAlarmForm } from '@/generated/schemas';

/** GET /finance/bill/data (schemas/responses/bill-figures.json) */
export type BillData = BillFigures;

/** GET /finance/agentBalanceAlarm/get */
export interface CreditAlarm {
  agentId: string;
  /** whole yuan; '0' = no reminder */
  alarmAmount: string;
  alarmPhone: string;
  /** 1: the balance is at or above the amount (the next fall below sends) */
  armed: number;
  lastAlarmTime: string;
  balance: string;
}

export const billsApi = {
  data: () => get<BillData>('/finance/bill/data'),
  alarm: () => get<CreditAlarm>('/finance/agentBalanceAlarm/get'),
  saveAlarm: (v: CreditAlarmForm) =>
    postForm<CreditAlarm>(
      '/finance/agentBalanceAlarm/edit',
      { ...v, alarmPhone: v.alarmPhone ?? '' },
      { silent: true },
    ),
};
