/**
 * Receipts back to the customer over SMPP (needreport 2, pass-through; docs/api-smpp.md
 * "Receipts"). `enqueueSmppReceipts` runs in the transaction that records final states (the
 * dispatch pipeline's report hook) and writes one smpp_receipts row per final message of a
 * needreport 2 account, as its submit's registered_delivery asked (0 none, 2 failures only), and
 * one more for each id the parts of a long message were answered with (interface_part_ids,
 * migration 0043: a gateway waits for the report of the id it holds; with `whole` (migration 0045, the SGIP door) only
 * those, as they name every submit). The listener's pump (server.ts) leases the rows of the accounts bound as
 * receivers in its process, oldest first, sends each as deliver_sm (esm_class 0x04, the appendix-B
 * text, receipted_message_id and message_state) and deletes a row when the customer answers 0; an
 * error answer, no answer within the lease or a dropped session leaves it for a later attempt.
 */
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/types';
import { NeedReport, SendRecordStatus } from '../../../common/generated/schemas';

/** kept this long when no receiver binds (then dropped) */
export const RECEIPT_KEEP_MS = 72 * 3600_000;

/**
 * The stat words a receipt carries (SMPP appendix B `stat:`, CMPP's Stat): DELIVRD for a delivered
 * message, else the carrier's own word when its report names one of these, UNDELIV for another
 * delivery failure, REJECTD for what the platform or the carrier refused. The doors' documents
 * list them (smpp-doc.ts, cmpp-doc.ts).
 */
export const RECEIPT_STATS = ['DELIVRD', 'EXPIRED', 'DELETED', 'UNDELIV', 'ACCEPTD', 'UNKNOWN', 'REJECTD'] as const;
export type ReceiptStat = (typeof RECEIPT_STATS)[number];
const CARRIER_STAT = new RegExp(`^(${RECEIPT_STATS.join('|')})$`);
/** a failure word of the carrier in a report (the SQL of enqueueSmppReceipts) */
const CARRIER_FAILURE_SQL = `^[[:space:]]*(${RECEIPT_STATS.filter((x) => x !== 'DELIVRD').join('|')})[[:space:]]*$`;

/** the appendix-B stat of a platform state (the carrier's own stat when the report names one) */
export function statOf(state: number, report: string): ReceiptStat {
  const carrier = CARRIER_STAT.exec(report.trim()) as [string, ReceiptStat] | null;
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

/**
 * Queues the receipts of the needreport 2 accounts among `rows` (messages whose state was just
 * recorded); returns how many. One statement (it runs in the dispatcher's recording transaction,
 * whose locks are held until its commit): the accounts' needreport, the
 * messages' final values and their submit's registered_delivery (sms_tasks) are read by the
 * INSERT itself; `statOf` and the err field are computed in SQL the same way.
 */
export async function enqueueSmppReceipts(
  trx: Transaction<Database>,
  rows: { id: number; account_id: number; state: number }[],
  now: Date,
): Promise<number> {
  const final = rows.filter((r) => FINAL.includes(r.state));
  if (!final.length) return 0;
  const delivered = sql.lit(SendRecordStatus.Delivered);
  const stat = sql`(case
      when m.state in (${delivered}, ${sql.lit(SendRecordStatus.DeliveredAlt)}) then 'DELIVRD'
      when substring(m.report from ${sql.lit(CARRIER_FAILURE_SQL)}) is not null
        then substring(m.report from ${sql.lit(CARRIER_FAILURE_SQL)})
      when m.state = ${sql.lit(SendRecordStatus.DeliveryFailed)} then 'UNDELIV'
      else 'REJECTD' end)`;
  // registered_delivery of the submit (sms_tasks.registered_delivery): 0 none, 2 failures only, else every final state
  // the messages by primary key first, on their own (materialized): joined to the accounts, the
  // planner may otherwise walk an account's whole range in a month's partition checking each id
  // (a partition not analyzed yet: the month's first minutes, a new database), O(rows) a batch
  const r = await sql`
    with m as materialized (
      select id, account_id, task_id, phone, state, error_code, report, created_at, done_at
      from sms_messages where id = any(${final.map((x) => x.id)}::bigint[])
    )
    insert into smpp_receipts (account_id, message_id, part_id, phone, stat, err, text, submit_at, done_at, created_at)
    select m.account_id, m.id, p.part_id, m.phone, s.stat,
      lpad(case when m.error_code ~ '^[0-9]{1,3}$' then m.error_code when m.state = ${delivered} then '0' else '1' end, 3, '0'),
      left(t.content, 20), m.created_at, coalesce(m.done_at, ${now}::timestamptz), ${now}::timestamptz
    from m
    join sms_tasks t on t.id = m.task_id
    join accounts a on a.id = m.account_id and a.needreport = ${sql.lit(NeedReport.PassThrough)}
    cross join lateral (select ${stat} as stat) s
    left join interface_part_ids ip on ip.message_id = m.id
    cross join lateral (select '' as part_id where not coalesce(ip.whole, false) union all select x from unnest(ip.part_ids) x) p
    where t.registered_delivery <> 0 and not (t.registered_delivery = 2 and s.stat = 'DELIVRD')
    order by m.id, p.part_id
    on conflict (message_id, part_id) do nothing`.execute(trx);
  return Number(r.numAffectedRows ?? 0);
}
