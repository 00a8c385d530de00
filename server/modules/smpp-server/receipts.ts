/**
 * Receipts back to the customer over SMPP (needreport 2, pass-through; docs/api-smpp.md
 * "Receipts"). `enqueueSmppReceipts` runs in the transaction that records final states (the
 * dispatch pipeline's report hook) and writes one smpp_receipts row per final message of a
 * needreport 2 account, as its submit's registered_delivery asked (0 none, 2 failures only). The listener's pump (server.ts) leases the rows of the accounts bound as
 * receivers in its process, oldest first, sends each as deliver_sm (esm_class 0x04, the appendix-B
 * text, receipted_message_id and message_state) and deletes a row when the customer answers 0; an
 * error answer, no answer within the lease or a dropped session leaves it for a later attempt.
 */
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/types';
import { NeedReport, SendRecordStatus } from '../../../common/generated/schemas';

/** kept this long when no receiver binds (then dropped) */
export const RECEIPT_KEEP_MS = 72 * 3600_000;

/** the appendix-B stat of a platform state (the carrier's own stat when the report names one) */
export function statOf(state: number, report: string): string {
  const carrier = /^(DELIVRD|EXPIRED|DELETED|UNDELIV|ACCEPTD|UNKNOWN|REJECTD)$/.exec(report.trim());
  if (state === SendRecordStatus.Delivered || state === SendRecordStatus.DeliveredAlt) return 'DELIVRD';
  if (carrier && carrier[1] !== 'DELIVRD') return carrier[1];
  if (state === SendRecordStatus.DeliveryFailed) return 'UNDELIV';
  return 'REJECTD';
}

/** Final states a receipt reports (not 提交成功: a receipt may still come) */
const FINAL: number[] = [
  SendRecordStatus.Delivered,
  SendRecordStatus.DeliveredAlt,
  SendRecordStatus.DeliveryFailed,
  SendRecordStatus.SubmitFailed,
  SendRecordStatus.ReviewFailed,
  SendRecordStatus.GatewaySendIntercepted,
  SendRecordStatus.FrequencyIntercepted,
  SendRecordStatus.BillingFailed,
];

/** Queues the receipts of the needreport 2 accounts among `rows` (messages whose state was just recorded); returns how many. */
export async function enqueueSmppReceipts(trx: Transaction<Database>, rows: { id: number; account_id: number; state: number }[], now: Date): Promise<number> {
  const final = rows.filter((r) => FINAL.includes(r.state));
  if (!final.length) return 0;
  const accounts = [...new Set(final.map((r) => r.account_id))];
  const wanted = await trx.selectFrom('accounts').select('id').where('id', 'in', accounts).where('needreport', '=', NeedReport.PassThrough).execute();
  if (!wanted.length) return 0;
  const ids = new Set(wanted.map((a) => a.id));
  const messages = await trx
    .selectFrom('sms_messages as m')
    .innerJoin('sms_tasks as t', 't.id', 'm.task_id')
    .select(['m.id', 'm.account_id', 'm.phone', 'm.state', 'm.error_code', 'm.report', 'm.created_at', 'm.done_at', 't.content', 't.registered_delivery'])
    .where(sql<boolean>`m.id = any(${final.filter((r) => ids.has(r.account_id)).map((r) => r.id)}::int[])`)
    .orderBy('m.id')
    .execute();
  // registered_delivery of the submit (sms_tasks.registered_delivery): 0 none, 2 failures only, else every final state
  const receipts = messages.filter((m) => m.registered_delivery !== 0 && !(m.registered_delivery === 2 && statOf(m.state, m.report) === 'DELIVRD'));
  if (!receipts.length) return 0;
  const r = await trx
    .insertInto('smpp_receipts')
    .values(
      receipts.map((m) => ({
        account_id: m.account_id,
        message_id: m.id,
        phone: m.phone,
        stat: statOf(m.state, m.report),
        err: (/^\d{1,3}$/.test(m.error_code) ? m.error_code : m.state === SendRecordStatus.Delivered ? '0' : '1').padStart(3, '0'),
        text: m.content.slice(0, 20),
        submit_at: m.created_at,
        done_at: m.done_at ?? now,
        created_at: now,
      })),
    )
    .onConflict((oc) => oc.column('message_id').doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0);
}
