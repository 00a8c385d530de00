/**
 * The dispatch pipeline's set-based statements (one round trip per batch each). Rules:
 * docs/api-dispatch.md. Every statement takes the clock value as a parameter (`ctx.now()`), so that
 * tests can move time.
 */
import Decimal from 'decimal.js';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/types';
import type { AppContext } from '../../context';
import { settleRefunds } from '../send/billing';

type Q = Kysely<Database> | Transaction<Database>;
type Tx = Transaction<Database>;

/** sms_messages.state values the pipeline writes (enums/send-record-status.json) */
export const STATE = { NotSent: 0, Submitted: 1, Delivered: 3, SubmitFailed: 4, DeliveryFailed: 6, AwaitingReview: 7 } as const;
/** sms_tasks.status values (enums/task-status.json) */
export const TASK = { Processing: 0, Waiting: 1, Sending: 2, Completed: 3, Cancelled: 4 } as const;
/** error_code of a message that was written to the SMSC without a confirmation */
export const UNCONFIRMED = 'UNCONFIRMED';

const iso = (d: Date) => d.toISOString();

export interface ClaimedMessage {
  id: number;
  task_id: number;
  account_id: number;
  phone: string;
  content: string;
}

/**
 * Claims up to `limit` due messages for `owner` until `leaseUntil` (one statement): the queue's
 * oldest first, rows another worker is claiming are skipped; their tasks go to 2 Sending.
 */
export async function claimBatch(db: Q, owner: string, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedMessage[]> {
  const r = await sql<ClaimedMessage>`
    with c as (
      select id from sms_messages
      where state = 0 and next_at is not null and next_at <= ${iso(now)}::timestamptz and lease_until is null
      order by next_at, id
      limit ${limit}
      for update skip locked
    ), u as (
      update sms_messages m set lease_owner = ${owner}, lease_until = ${iso(leaseUntil)}::timestamptz
      where m.id = any(array(select id from c))
      returning m.id, m.task_id, m.account_id, m.phone, m.content
    ), s as (
      update sms_tasks t set status = ${TASK.Sending}, updated_at = ${iso(now)}::timestamptz
      where t.id in (select distinct task_id from u) and t.status in (${TASK.Processing}, ${TASK.Waiting})
    )
    select u.id, u.task_id, u.account_id, u.phone, coalesce(u.content, t.content) as content
    from u join sms_tasks t on t.id = u.task_id
    order by u.id`.execute(db);
  return r.rows;
}

/** Counter moves of one task in one transaction. */
export interface TaskDelta {
  submitted: number;
  unknown: number;
  success: number;
  fail: number;
  /** refundable money (decimal string) and pieces added by messages that reached a refundable state */
  cost: Decimal;
  pieces: number;
}

export class Deltas {
  readonly byTask = new Map<number, TaskDelta>();
  /** tasks some of whose messages left state 0 (completion may be due) */
  readonly dequeued = new Set<number>();
  get(taskId: number): TaskDelta {
    let d = this.byTask.get(taskId);
    if (!d) this.byTask.set(taskId, (d = { submitted: 0, unknown: 0, success: 0, fail: 0, cost: new Decimal(0), pieces: 0 }));
    return d;
  }
  /** tasks with refundable messages in this transaction */
  refundTasks(): number[] {
    return [...this.byTask].filter(([, d]) => d.pieces > 0 || !d.cost.isZero()).map(([id]) => id);
  }
}

const isRetryable = (e: unknown) => ['40P01', '40001'].includes((e as { code?: string })?.code ?? '');

/** Runs `fn` in a transaction, again (a few times) when PostgreSQL picked it as a deadlock victim. */
export async function inTransaction<T>(db: Kysely<Database>, fn: (trx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction().execute(fn);
    } catch (e) {
      if (!isRetryable(e) || attempt >= 5) throw e;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * (attempt + 1)));
    }
  }
}

/**
 * Applies the counter moves (one UPDATE for every task, rows locked in id order first when there are
 * several so that concurrent workers never deadlock), completes the tasks that have no message left
 * in 0 or 7, and settles the refunds (send/billing.ts) of the tasks that got refundable messages.
 * Must run after the message updates of the same transaction (completion: docs/api-dispatch.md).
 */
export async function applyDeltas(trx: Tx, ctx: Pick<AppContext, 'now'>, deltas: Deltas, now: Date): Promise<void> {
  const ids = [...deltas.byTask.keys()].sort((a, b) => a - b);
  if (ids.length) {
    if (ids.length > 1) await sql`select id from sms_tasks where id = any(${ids}::int[]) order by id for update`.execute(trx);
    const ds = ids.map((id) => deltas.byTask.get(id)!);
    await sql`
      update sms_tasks t set
        submitted_num = t.submitted_num + a.submitted,
        unknown_num = t.unknown_num + a.unknown,
        success_num = t.success_num + a.success,
        fail_num = t.fail_num + a.fail,
        refundable_cost = t.refundable_cost + a.cost,
        refundable_pieces = t.refundable_pieces + a.pieces,
        updated_at = ${iso(now)}::timestamptz
      from (select * from unnest(${ids}::int[], ${ds.map((d) => d.submitted)}::int[], ${ds.map((d) => d.unknown)}::int[],
              ${ds.map((d) => d.success)}::int[], ${ds.map((d) => d.fail)}::int[], ${ds.map((d) => d.cost.toFixed())}::numeric[],
              ${ds.map((d) => d.pieces)}::int[]) as a(id, submitted, unknown, success, fail, cost, pieces)) a
      where t.id = a.id`.execute(trx);
  }
  if (deltas.dequeued.size) await completeTasks(trx, [...deltas.dequeued], now);
  const refund = deltas.refundTasks();
  if (refund.length) await settleRefunds(trx, ctx, refund.sort((a, b) => a - b));
}

/** Tasks (0 Processing / 2 Sending) without a message in 0 or 7 → 3 Completed. */
export async function completeTasks(db: Q, taskIds: number[] | null, now: Date): Promise<number> {
  const r = await sql`
    update sms_tasks t set status = ${TASK.Completed}, finished_at = ${iso(now)}::timestamptz, updated_at = ${iso(now)}::timestamptz
    where t.status in (${TASK.Processing}, ${TASK.Sending})
      ${taskIds ? sql`and t.id = any(${taskIds}::int[])` : sql``}
      and not exists (select 1 from sms_messages m where m.task_id = t.id and m.state in (${STATE.NotSent}, ${STATE.AwaitingReview}))`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

export interface Outcome {
  id: number;
  /** 0 back to the queue (retry), 1 submitted (accepted or unconfirmed), 4 submit failed */
  state: number;
  msgId: string | null;
  code: string;
  report: string;
  /** retry: queue again after this many ms */
  delayMs: number;
}

/**
 * Records the outcomes of `owner`'s submits (one UPDATE for the batch; rows whose lease is no longer
 * `owner`'s are left alone: lease recovery has already given them their outcome) and the counters.
 * Returns how many rows were recorded.
 */
export async function recordOutcomes(
  db: Kysely<Database>,
  ctx: Pick<AppContext, 'now'>,
  owner: string,
  outcomes: Outcome[],
  /** messages that reached a final state here (4 submit failed), in the same transaction (report pushes) */
  onFinal?: (trx: Tx, rows: AppliedReport[]) => Promise<void>,
): Promise<number> {
  if (!outcomes.length) return 0;
  return inTransaction(db, async (trx) => {
    const now = ctx.now();
    const r = await sql<AppliedReport>`
      with o as (
        select * from unnest(${outcomes.map((o) => o.id)}::int[], ${outcomes.map((o) => o.state)}::int[], ${outcomes.map((o) => o.msgId)}::text[],
          ${outcomes.map((o) => o.code)}::text[], ${outcomes.map((o) => o.report)}::text[], ${outcomes.map((o) => o.delayMs)}::int[])
          as o(id, state, msg_id, code, report, delay_ms)
      )
      update sms_messages m set
        state = o.state,
        msg_id = o.msg_id,
        error_code = o.code,
        report = o.report,
        attempts = least(m.attempts + 1, 32767),
        lease_owner = null,
        lease_until = null,
        next_at = case when o.state = 0 then ${iso(now)}::timestamptz + o.delay_ms * interval '1 millisecond' else null end,
        submitted_at = case when o.state = 0 then m.submitted_at else ${iso(now)}::timestamptz end,
        done_at = case when o.state = ${STATE.SubmitFailed} then ${iso(now)}::timestamptz else m.done_at end
      from o
      where m.id = o.id and m.id = any(${outcomes.map((o) => o.id)}::int[]) and m.lease_owner = ${owner} and m.state = 0
      returning m.id, m.task_id, m.account_id, m.phone, m.state, m.error_code, m.report, m.msg_id, m.done_at, m.pieces,
        (m.pieces * m.price)::text as cost`.execute(trx);
    const deltas = new Deltas();
    for (const row of r.rows) {
      if (row.state === STATE.NotSent) continue;
      const d = deltas.get(row.task_id);
      deltas.dequeued.add(row.task_id);
      d.submitted++;
      if (row.state === STATE.Submitted) d.unknown++;
      else {
        d.fail++;
        d.cost = d.cost.plus(row.cost);
        d.pieces += row.pieces;
      }
    }
    await applyDeltas(trx, ctx, deltas, now);
    const final = r.rows.filter((x) => x.state === STATE.SubmitFailed);
    if (final.length && onFinal) await onFinal(trx, final);
    return r.rows.length;
  });
}

/**
 * Lease recovery: messages whose lease ran out (their worker died or hung) may have been written to
 * the SMSC, so they are never submitted again: state 1 with error_code UNCONFIRMED, counted unknown.
 */
export async function recoverLeases(db: Kysely<Database>, ctx: Pick<AppContext, 'now'>, limit = 5000): Promise<number> {
  return inTransaction(db, async (trx) => {
    const now = ctx.now();
    const r = await sql<{ task_id: number }>`
      update sms_messages m set state = ${STATE.Submitted}, error_code = ${UNCONFIRMED}, report = 'lease expired',
        lease_owner = null, lease_until = null, next_at = null, submitted_at = ${iso(now)}::timestamptz,
        attempts = least(m.attempts + 1, 32767)
      where m.id = any(array(
        select id from sms_messages where lease_until is not null and lease_until < ${iso(now)}::timestamptz and state = 0
        order by id limit ${limit} for update skip locked))
      returning m.task_id`.execute(trx);
    const deltas = new Deltas();
    for (const row of r.rows) {
      const d = deltas.get(row.task_id);
      deltas.dequeued.add(row.task_id);
      d.submitted++;
      d.unknown++;
    }
    await applyDeltas(trx, ctx, deltas, now);
    return r.rows.length;
  });
}

export interface ReceiptRow {
  msgId: string;
  state: number;
  errorCode: string;
  report: string;
  doneAt: Date;
}

/** Stores receipts (a receipt already stored is ignored); they wait there until applied. */
export async function storeReceipts(db: Q, rows: ReceiptRow[], now: Date): Promise<void> {
  if (!rows.length) return;
  await sql`
    insert into sms_receipts (msg_id, state, error_code, report, done_at, received_at)
    select r.msg_id, r.state, r.error_code, r.report, r.done_at, ${iso(now)}::timestamptz
    from unnest(${rows.map((r) => r.msgId)}::text[], ${rows.map((r) => r.state)}::int[], ${rows.map((r) => r.errorCode)}::text[],
      ${rows.map((r) => r.report)}::text[], ${rows.map((r) => iso(r.doneAt))}::timestamptz[]) as r(msg_id, state, error_code, report, done_at)
    on conflict (msg_id) do nothing`.execute(db);
}

/** A message whose final receipt was just applied (for delivery-report pushes). */
export interface AppliedReport {
  id: number;
  task_id: number;
  account_id: number;
  phone: string;
  state: number;
  error_code: string;
  report: string;
  msg_id: string | null;
  done_at: Date;
  pieces: number;
  cost: string;
}

/**
 * Applies up to `limit` stored receipts whose message has its msg_id recorded (receipts that came
 * before their submit_sm_resp was recorded wait): state 3 / 6, counters unknown → success / fail,
 * refunds for failures, receipts deleted. `onApplied` runs in the same transaction (report pushes).
 */
export async function applyReceipts(
  db: Kysely<Database>,
  ctx: Pick<AppContext, 'now'>,
  limit: number,
  onApplied?: (trx: Tx, rows: AppliedReport[]) => Promise<void>,
): Promise<number> {
  return inTransaction(db, async (trx) => {
    const now = ctx.now();
    const r = await sql<AppliedReport>`
      with r as (
        select r.msg_id, r.state, r.error_code, r.report, r.done_at
        from sms_receipts r
        where exists (select 1 from sms_messages m where m.msg_id = r.msg_id and m.msg_id is not null)
        limit ${limit}
        for update of r skip locked
      ), u as (
        update sms_messages m set state = r.state, error_code = r.error_code, report = r.report, done_at = r.done_at
        from r where m.msg_id = r.msg_id and m.msg_id = any(array(select msg_id from r)) and m.msg_id is not null and m.state = ${STATE.Submitted}
        returning m.id, m.task_id, m.account_id, m.phone, m.state, m.error_code, m.report, m.msg_id, m.done_at, m.pieces,
          (m.pieces * m.price)::text as cost
      ), d as (
        delete from sms_receipts s where s.msg_id = any(array(select msg_id from r))
      )
      select * from u`.execute(trx);
    const rows = r.rows;
    await applyDeltas(trx, ctx, receiptDeltas(rows), now);
    if (rows.length && onApplied) await onApplied(trx, rows);
    return rows.length;
  });
}

/** Counter moves of applied receipts (unknown → success / fail, refundable cost and pieces of failures). */
function receiptDeltas(rows: AppliedReport[]): Deltas {
  const deltas = new Deltas();
  for (const row of rows) {
    const d = deltas.get(row.task_id);
    d.unknown--;
    if (row.state === STATE.Delivered) d.success++;
    else {
      d.fail++;
      d.cost = d.cost.plus(row.cost);
      d.pieces += row.pieces;
    }
  }
  return deltas;
}

/**
 * Receipts straight from the link (the usual case: their message's msg_id is already recorded):
 * applied to the messages in one UPDATE, and only those that match no submitted message are stored
 * in sms_receipts to wait (receipt before its submit_sm_resp was recorded, or a duplicate: the
 * applier sorts them out). One transaction; the SMSC is acknowledged after it commits.
 * Returns { applied, stored }.
 */
export async function applyOrStoreReceipts(
  db: Kysely<Database>,
  ctx: Pick<AppContext, 'now'>,
  input: ReceiptRow[],
  onApplied?: (trx: Tx, rows: AppliedReport[]) => Promise<void>,
): Promise<{ applied: number; stored: number }> {
  const byId = new Map<string, ReceiptRow>();
  for (const r of input) if (!byId.has(r.msgId)) byId.set(r.msgId, r);
  const rows = [...byId.values()];
  if (!rows.length) return { applied: 0, stored: 0 };
  return inTransaction(db, async (trx) => {
    const now = ctx.now();
    const ids = rows.map((r) => r.msgId);
    const r = await sql<AppliedReport>`
      update sms_messages m set state = r.state, error_code = r.error_code, report = r.report, done_at = r.done_at
      from (select * from unnest(${ids}::text[], ${rows.map((x) => x.state)}::int[], ${rows.map((x) => x.errorCode)}::text[],
              ${rows.map((x) => x.report)}::text[], ${rows.map((x) => iso(x.doneAt))}::timestamptz[]) as r(msg_id, state, error_code, report, done_at)) r
      where m.msg_id = r.msg_id and m.msg_id = any(${ids}::text[]) and m.msg_id is not null and m.state = ${STATE.Submitted}
      returning m.id, m.task_id, m.account_id, m.phone, m.state, m.error_code, m.report, m.msg_id, m.done_at, m.pieces,
        (m.pieces * m.price)::text as cost`.execute(trx);
    await applyDeltas(trx, ctx, receiptDeltas(r.rows), now);
    if (r.rows.length && onApplied) await onApplied(trx, r.rows);
    const applied = new Set(r.rows.map((x) => x.msg_id));
    const rest = rows.filter((x) => !applied.has(x.msgId));
    await storeReceipts(trx, rest, now);
    return { applied: r.rows.length, stored: rest.length };
  });
}

/** Receipts nobody can apply (their message was never recorded: unconfirmed submits) after `olderThan`. */
export async function purgeOrphanReceipts(db: Q, olderThan: Date): Promise<number> {
  const r = await sql`
    delete from sms_receipts r where r.received_at < ${iso(olderThan)}::timestamptz
      and not exists (select 1 from sms_messages m where m.msg_id = r.msg_id)`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

/** Progress of a task in percent from its counters (contract: taskSchedule). */
export function taskSchedule(t: { submit_total: number; success_num: number; fail_num: number; unknown_num: number; intercept_num: number }): number {
  if (!t.submit_total) return 100;
  const pending = Math.max(0, t.submit_total - t.success_num - t.fail_num - t.unknown_num - t.intercept_num);
  return Math.round((100 * (t.submit_total - pending)) / t.submit_total);
}
