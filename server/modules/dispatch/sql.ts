/**
 * The dispatch pipeline's statements, each set-based (one round trip per batch). Rules:
 * docs/api-dispatch.md. Every statement takes the clock value as a parameter (`ctx.now()`), so that
 * tests can move time.
 *
 * The queue state lives beside the records (migration 0019): a task's messages are handed out in
 * id order by moving its cursor (dispatch_queue), a claimed batch is a lease row
 * (dispatch_leases), messages to try again wait in sms_requeue, submitted ones in sms_inflight until
 * their receipt. A message's record row is written only when its state changes for the customer.
 */
import Decimal from 'decimal.js';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/types';
import type { AppContext } from '../../context';
import { settleRefunds } from '../billing';
import { SendRecordStatus, TaskStatus } from '../../../common/generated/schemas';
import { isRetryableDbError } from '../../lib/error-code';

type Q = Kysely<Database> | Transaction<Database>;
type Tx = Transaction<Database>;

/** error_code of a message that was written to the SMSC without a confirmation */
export const UNCONFIRMED = 'UNCONFIRMED';
/** a receipt stored because its message was not (yet) in flight is looked for this long by the applier */
export const RECEIPT_RACE_MS = 10 * 60_000;

const iso = (d: Date) => d.toISOString();

// ---------------------------------------------------------------- queueing (acceptance, timer, review)

/**
 * Makes a task's messages in state 0 claimable (acceptance, a timed task firing): its queue row,
 * cursor at the start. A task queued already keeps its cursor (messages behind it have been handed
 * out; `requeueMessages` releases ones that were not).
 */
export async function enqueueTask(trx: Q, taskId: number, now: Date): Promise<void> {
  await enqueueTaskSql(taskId, now).execute(trx);
}

/** enqueueTask's statement, for a caller that runs it as a CTE of its own statement (one round trip) */
export function enqueueTaskSql(taskId: number, now: Date) {
  return sql`
    insert into dispatch_queue (task_id, next_id, queued, ready_at) values (${taskId}, 0, true, ${iso(now)}::timestamptz)
    on conflict (task_id) do update set queued = true`;
}

/**
 * Messages of a task just set to state 0 (approved in review): those the task's cursor has already
 * passed are queued one by one (sms_requeue), the others are reached by the cursor.
 */
export async function releaseMessages(
  trx: Tx,
  taskId: number,
  messageIds: readonly number[],
  now: Date,
): Promise<void> {
  if (!messageIds.length) return;
  const q = await sql<{ next_id: number }>`
    insert into dispatch_queue (task_id, next_id, queued, ready_at) values (${taskId}, 0, true, ${iso(now)}::timestamptz)
    on conflict (task_id) do update set queued = true
    returning next_id`.execute(trx);
  const cursor = q.rows[0]?.next_id ?? 0;
  const behind = messageIds.filter((id) => id <= cursor);
  if (behind.length)
    await sql`
      insert into sms_requeue (message_id, task_id, next_at)
      select u.id, ${taskId}, ${iso(now)}::timestamptz from unnest(${behind}::bigint[]) as u(id)
      on conflict (message_id) do nothing`.execute(trx);
}

// ---------------------------------------------------------------- claiming

export interface ClaimedMessage {
  id: number;
  task_id: number;
  account_id: number;
  phone: string;
  content: string;
  /** the task's extension when its account has needextend 1 (appended to the source address), else '' */
  extension?: string;
  /** enums/carrier and the task's enums/sms-type: the channel routing (dispatcher.ts) */
  carrier: number;
  smstype: number;
  /** the dispatch_leases row of its batch */
  lease: string;
  /** tries recorded before this one (a retry counts): bounds the retries of a channel's system error */
  attempts?: number;
}

interface ClaimRow {
  id: number;
  task_id: number;
  account_id: number;
  phone: string;
  content: string | null;
  carrier: number;
  attempts: number;
}

/** tasks' queues to take messages from in one claim at most */
const CLAIM_TASKS_MAX = 8;

/**
 * Takes up to `want` messages from the next queue row (least recently served first), in one
 * statement: the row locked, its messages after its cursor, the cursor moved past them and the row
 * left queued only when it gave all that was asked (it may have more). `wait`: wait for a row
 * another claim holds (used when nothing else is free: that claim is short). undefined: no queue
 * row (free, or at all with `wait`); otherwise its task and the messages (none when it had none left).
 */
async function takeFromNextQueue(
  trx: Tx,
  skip: readonly number[],
  wait: boolean,
  want: number,
  now: Date,
): Promise<{ taskId: number; rows: ClaimRow[] } | undefined> {
  const r = await sql<{ queue_task: number } & { [K in keyof ClaimRow]: ClaimRow[K] | null }>`
    with q as (
      select task_id, next_id from dispatch_queue
      where queued ${skip.length ? sql`and task_id <> all(${skip}::int[])` : sql``}
      order by ready_at, task_id
      limit 1
      for update ${wait ? sql`` : sql`skip locked`}
    ),
    m as (
      select x.id, x.task_id, x.account_id, x.phone, x.content, x.carrier, x.attempts
      from q cross join lateral (
        select id, task_id, account_id, phone, content, carrier, attempts from sms_messages
        where task_id = q.task_id and state = ${sql.lit(SendRecordStatus.NotSent)} and id > q.next_id
        order by id limit ${want}) x
    ),
    moved as (
      update dispatch_queue d
      set next_id = coalesce((select max(m.id) from m), q.next_id),
        queued = (select count(*) from m) >= ${want},
        ready_at = ${iso(now)}::timestamptz
      from q where d.task_id = q.task_id
    )
    select q.task_id as queue_task, m.id, m.task_id, m.account_id, m.phone, m.content, m.carrier, m.attempts
    from q left join m on true
    order by m.id`.execute(trx);
  if (!r.rows.length) return undefined;
  return { taskId: r.rows[0].queue_task, rows: r.rows.filter((x): x is typeof x & ClaimRow => x.id !== null) };
}

/**
 * Claims up to `limit` messages for `owner` until `leaseUntil`, in one transaction: first the
 * requeued messages that are due, then the next messages of the queued tasks (least recently served
 * first; each task's cursor moves past what it handed out). The batch is one lease row. The tasks
 * of the batch go from 0 Processing (or 1 Waiting) to 2 Sending.
 */
export async function claimBatch(
  db: Kysely<Database>,
  owner: string,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<ClaimedMessage[]> {
  return inTransaction(db, async (trx) => {
    const rows: ClaimRow[] = [];
    const due = await sql<{ message_id: number }>`
      delete from sms_requeue where message_id = any(array(
        select message_id from sms_requeue where next_at <= ${iso(now)}::timestamptz
        order by next_at, message_id limit ${limit} for update skip locked))
      returning message_id`.execute(trx);
    if (due.rows.length) {
      const r = await sql<ClaimRow>`
        select id, task_id, account_id, phone, content, carrier, attempts from sms_messages
        where id = any(${due.rows.map((x) => x.message_id)}::bigint[]) and state = ${sql.lit(SendRecordStatus.NotSent)} order by id`.execute(
        trx,
      );
      rows.push(...r.rows);
    }
    const served: number[] = [];
    while (rows.length < limit && served.length < CLAIM_TASKS_MAX) {
      const want = limit - rows.length;
      const q =
        (await takeFromNextQueue(trx, served, false, want, now)) ??
        (rows.length ? undefined : await takeFromNextQueue(trx, served, true, want, now));
      if (!q) break;
      served.push(q.taskId);
      rows.push(...q.rows);
    }
    if (!rows.length) return [];
    const taskIds = [...new Set(rows.map((m) => m.task_id))].sort((a, b) => a - b);
    // the lease row, the tasks to 2 Sending and what the submits need of them: one statement
    // (the select reads the tasks as they were before the update: their texts do not change)
    const tasks = await sql<{ id: number; content: string; smstype: number; extension: string; lease_id: string }>`
      with lease as (
        insert into dispatch_leases (owner, lease_until, message_ids, written)
        values (${owner}, ${iso(leaseUntil)}::timestamptz, ${rows.map((m) => m.id)}::bigint[], '{}')
        returning id
      ),
      sending as (
        update sms_tasks t set status = ${TaskStatus.Sending}, updated_at = ${iso(now)}::timestamptz
        where t.id = any(${taskIds}::int[]) and t.status in (${TaskStatus.Processing}, ${TaskStatus.Waiting})
      )
      select t.id, t.content, t.smstype, case when a.needextend = 1 then t.extension else '' end as extension,
        (select id from lease)::text as lease_id
      from sms_tasks t join accounts a on a.id = t.account_id where t.id = any(${taskIds}::int[])`.execute(trx);
    if (!tasks.rows.length) throw new Error('claimBatch: the claimed messages have no task');
    const leaseId = String(tasks.rows[0].lease_id);
    const byId = new Map(tasks.rows.map((t) => [t.id, t]));
    return rows.map((m) => ({
      id: m.id,
      task_id: m.task_id,
      account_id: m.account_id,
      phone: m.phone,
      content: m.content ?? byId.get(m.task_id)?.content ?? '',
      carrier: m.carrier,
      smstype: byId.get(m.task_id)?.smstype ?? 0,
      lease: leaseId,
      extension: byId.get(m.task_id)?.extension ?? '',
      attempts: m.attempts,
    }));
  });
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
  /** `pieces` per carrier (index = carrier, 0 for any other value) */
  byCarrier: number[];
}

/** index of a carrier in sms_tasks.refundable_pieces_by_carrier (minus 1: SQL arrays start at 1) */
export const carrierSlot = (carrier: number) => (carrier >= 1 && carrier <= 4 ? carrier : 0);

export class Deltas {
  readonly byTask = new Map<number, TaskDelta>();
  /** tasks some of whose messages left state 0 (completion may be due) */
  readonly dequeued = new Set<number>();
  get(taskId: number): TaskDelta {
    let d = this.byTask.get(taskId);
    if (!d)
      this.byTask.set(
        taskId,
        (d = {
          submitted: 0,
          unknown: 0,
          success: 0,
          fail: 0,
          cost: new Decimal(0),
          pieces: 0,
          byCarrier: [0, 0, 0, 0, 0],
        }),
      );
    return d;
  }
  /** tasks with refundable messages in this transaction */
  refundTasks(): number[] {
    return [...this.byTask].filter(([, d]) => d.pieces > 0 || !d.cost.isZero()).map(([id]) => id);
  }
}

/** Runs `fn` in a transaction, again (a few times) when PostgreSQL picked it as a deadlock victim. */
export async function inTransaction<T>(db: Kysely<Database>, fn: (trx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction().execute(fn);
    } catch (e) {
      if (!isRetryableDbError(e) || attempt >= 5) throw e;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * (attempt + 1)));
    }
  }
}

/**
 * Applies the counter moves (one UPDATE for every task, rows locked in id order first when there are
 * several so that concurrent workers never deadlock), completes the tasks that have no message left
 * in 0 or 7, and settles the refunds (billing/billing.ts) of the tasks that got refundable messages.
 * Must run after the message updates of the same transaction (completion: docs/api-dispatch.md),
 * and is best run as its last step: a task's row stays locked until the commit, and every other outcome or
 * receipt transaction of that task waits for it.
 */
export async function applyDeltas(trx: Tx, ctx: Pick<AppContext, 'now'>, deltas: Deltas, now: Date): Promise<void> {
  const ids = [...deltas.byTask.keys()].sort((a, b) => a - b);
  if (ids.length) {
    if (ids.length > 1)
      await sql`select id from sms_tasks where id = any(${ids}::int[]) order by id for update`.execute(trx);
    const ds = ids.map((id) => deltas.byTask.get(id)!);
    await sql`
      update sms_tasks t set
        submitted_num = t.submitted_num + a.submitted,
        unknown_num = t.unknown_num + a.unknown,
        success_num = t.success_num + a.success,
        fail_num = t.fail_num + a.fail,
        refundable_cost = t.refundable_cost + a.cost,
        refundable_pieces = t.refundable_pieces + a.pieces,
        refundable_pieces_by_carrier = array[t.refundable_pieces_by_carrier[1] + a.c0, t.refundable_pieces_by_carrier[2] + a.c1,
          t.refundable_pieces_by_carrier[3] + a.c2, t.refundable_pieces_by_carrier[4] + a.c3, t.refundable_pieces_by_carrier[5] + a.c4],
        updated_at = ${iso(now)}::timestamptz
      from (select * from unnest(${ids}::int[], ${ds.map((d) => d.submitted)}::int[], ${ds.map((d) => d.unknown)}::int[],
              ${ds.map((d) => d.success)}::int[], ${ds.map((d) => d.fail)}::int[], ${ds.map((d) => d.cost.toFixed())}::numeric[],
              ${ds.map((d) => d.pieces)}::int[], ${ds.map((d) => d.byCarrier[0])}::int[], ${ds.map((d) => d.byCarrier[1])}::int[],
              ${ds.map((d) => d.byCarrier[2])}::int[], ${ds.map((d) => d.byCarrier[3])}::int[], ${ds.map((d) => d.byCarrier[4])}::int[])
            as a(id, submitted, unknown, success, fail, cost, pieces, c0, c1, c2, c3, c4)) a
      where t.id = a.id`.execute(trx);
  }
  if (deltas.dequeued.size) await completeTasks(trx, [...deltas.dequeued], now);
  const refund = deltas.refundTasks();
  if (refund.length)
    await settleRefunds(
      trx,
      ctx,
      refund.sort((a, b) => a - b),
    );
}

/** Tasks (0 Processing / 2 Sending) without a message in 0 or 7, nor a chunk still to write → 3 Completed. */
export async function completeTasks(db: Q, taskIds: number[] | null, now: Date): Promise<number> {
  const r = await sql`
    update sms_tasks t set status = ${TaskStatus.Completed}, finished_at = ${iso(now)}::timestamptz, updated_at = ${iso(now)}::timestamptz
    where t.status in (${TaskStatus.Processing}, ${TaskStatus.Sending})
      ${taskIds ? sql`and t.id = any(${taskIds}::int[])` : sql``}
      and not exists (select 1 from sms_messages m where m.task_id = t.id and m.state in (${SendRecordStatus.NotSent}, ${SendRecordStatus.AwaitingReview}))
      and not exists (select 1 from sms_task_chunks c where c.task_id = t.id)`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

export interface Outcome {
  id: number;
  /** the message's task (from the claim); looked up when absent */
  taskId?: number;
  /** NotSent back to the queue (retry), Submitted (accepted or unconfirmed), SubmitFailed */
  state: SendRecordStatus;
  msgId: string | null;
  code: string;
  report: string;
  /** retry: queue again after this many ms */
  delayMs: number;
  /** accepted as several submits (long=udh|sar): every part's message id, in part order (msgId is the first) */
  parts?: string[];
  /** the lease the message was claimed in (ClaimedMessage.lease): when every outcome has one, the leases are read by id */
  lease?: string;
}

/** A stored receipt, as it is applied. */
interface StoredReceipt {
  msg_id: string;
  state: number;
  error_code: string;
  report: string;
  done_at: Date;
}

/**
 * A message the pipeline moved to a new state: what the counters, refunds and report pushes need
 * (the pushes load the rest for the accounts that want reports).
 */
export interface AppliedReport {
  id: number;
  task_id: number;
  account_id: number;
  state: number;
  pieces: number;
  carrier: number;
  /** the channel it was submitted on ('' = the default link, or never submitted) */
  channel: string;
  /** pieces × price of a failed message (refundable), else null */
  cost: string | null;
}

const RETURNING = sql`m.id, m.task_id, m.account_id, m.state, m.pieces, m.carrier, m.channel, (case when m.state in (${sql.lit(SendRecordStatus.SubmitFailed)}, ${sql.lit(SendRecordStatus.DeliveryFailed)}) then m.pieces * m.price end)::text as cost`;

/** Counter moves of messages that left state 0 (`row.state` their new state). */
function outcomeDeltas(rows: readonly AppliedReport[]): Deltas {
  const deltas = new Deltas();
  for (const row of rows) {
    if (row.state === SendRecordStatus.NotSent) continue;
    const d = deltas.get(row.task_id);
    deltas.dequeued.add(row.task_id);
    d.submitted++;
    if (row.state === SendRecordStatus.Submitted) d.unknown++;
    else if (row.state === SendRecordStatus.Delivered) d.success++;
    else {
      d.fail++;
      d.cost = d.cost.plus(row.cost ?? 0);
      d.pieces += row.pieces;
      d.byCarrier[carrierSlot(row.carrier)] += row.pieces;
    }
  }
  return deltas;
}

/**
 * Records the outcomes of `owner`'s submits in one transaction and returns how many were recorded.
 * Only messages of `owner`'s leases are recorded (lease recovery has given the others their
 * outcome); the leases lose them. An accepted message whose receipt came first (stored in
 * sms_receipts) gets its final state at once; the others go in flight (sms_inflight) as 1 提交成功.
 * A message id the SMSC gave twice (in this batch, or to a message still in flight) cannot tell
 * receipts apart: those messages are recorded without it, as unconfirmed. Retries go back to the
 * queue (sms_requeue) after their delay. The counters, completion and refunds of the tasks move in
 * the same transaction.
 */
export async function recordOutcomes(
  db: Kysely<Database>,
  ctx: Pick<AppContext, 'now'>,
  owner: string,
  outcomes: Outcome[],
  /** messages that reached a final state here (submit refused, or the receipt had come first), in the same transaction (report pushes) */
  onFinal?: (trx: Tx, rows: AppliedReport[]) => Promise<void>,
  /**
   * true: an accepted message waiting for its receipt keeps its record row as it is (0) — only its
   * sms_inflight row is written — until its receipt comes or `markSubmitted` writes 1 提交成功;
   * false: 1 提交成功 is written now
   */
  deferSubmitted = false,
): Promise<number> {
  if (!outcomes.length) return 0;
  return inTransaction(db, async (trx) => {
    const now = ctx.now();
    await keyPlans(trx);
    // by the leases' ids when the outcomes name them: PostgreSQL's && compares every element of one
    // array with every element of the other (~6 ms for two batches of 1,000 that do not overlap)
    const leaseIds = outcomes.every((o) => o.lease !== undefined) ? [...new Set(outcomes.map((o) => o.lease!))] : null;
    const leases = await sql<{ id: string; message_ids: number[] }>`
      select id, message_ids from dispatch_leases where owner = ${owner}
        and ${leaseIds ? sql`id = any(${leaseIds}::bigint[])` : sql`message_ids && ${outcomes.map((o) => o.id)}::bigint[]`}
      order by id for update`.execute(trx);
    const leased = new Set(leases.rows.flatMap((l) => l.message_ids));
    const mine = outcomes.filter((o) => leased.has(o.id)).map((o) => ({ ...o }));
    if (!mine.length) return 0;
    const recorded = new Set(mine.map((o) => o.id));
    const emptied: string[] = [];
    for (const l of leases.rows) {
      const rest = l.message_ids.filter((id) => !recorded.has(id));
      if (!rest.length) emptied.push(l.id);
      else await sql`update dispatch_leases set message_ids = ${rest}::bigint[] where id = ${l.id}`.execute(trx);
    }
    if (emptied.length) await sql`delete from dispatch_leases where id = any(${emptied}::bigint[])`.execute(trx);

    const unconfirmed = (o: Outcome, why: string) =>
      Object.assign(o, { msgId: null, code: UNCONFIRMED, report: why, parts: undefined });
    const seen = new Set<string>();
    for (const o of mine) {
      if (o.state !== SendRecordStatus.Submitted || !o.msgId) continue;
      const ids = o.parts ?? [o.msgId];
      if (ids.some((id) => seen.has(id)) || new Set(ids).size < ids.length) unconfirmed(o, 'duplicate message id');
      else for (const id of ids) seen.add(id);
    }
    const accepted = mine.filter((o) => o.state === SendRecordStatus.Submitted && o.msgId);
    // a long message's parts: their receipts that came first are applied by the applier once the parts are in flight
    const whole = accepted.filter((o) => !o.parts);
    const early = new Map<string, StoredReceipt>();
    if (whole.length) {
      const r = await sql<StoredReceipt>`
        delete from sms_receipts where msg_id = any(${whole.map((o) => o.msgId)}::text[])
        returning msg_id, state, error_code, report, done_at`.execute(trx);
      for (const x of r.rows) early.set(x.msg_id, x);
    }
    const waiting = accepted.filter((o) => !early.has(o.msgId!));
    /** accepted messages whose record row is left as it is (deferSubmitted) */
    const deferred: { message_id: number; task_id: number }[] = [];
    if (waiting.length) {
      const known = waiting.every((o) => o.taskId !== undefined);
      // one in-flight row per submit: part 0 for a message sent whole, 1..n for the parts of a long one
      const multi = waiting.some((o) => o.parts);
      const rows = multi
        ? waiting.flatMap((o) =>
            o.parts ? o.parts.map((msgId, i) => ({ o, msgId, part: i + 1 })) : [{ o, msgId: o.msgId!, part: 0 }],
          )
        : null;
      const msgIds = rows ? rows.map((x) => x.msgId) : waiting.map((o) => o.msgId);
      const ids = rows ? rows.map((x) => x.o.id) : waiting.map((o) => o.id);
      const r = await sql<{ msg_id: string; message_id: number; task_id: number; part: number }>`
        insert into sms_inflight (msg_id, message_id, task_id, submitted_at, marked${rows ? sql`, part` : sql``})
        ${
          known
            ? sql`select u.msg_id, u.id, u.task_id, ${iso(now)}::timestamptz, ${!deferSubmitted}::boolean${rows ? sql`, u.part` : sql``}
                from unnest(${msgIds}::text[], ${ids}::bigint[], ${rows ? rows.map((x) => x.o.taskId) : waiting.map((o) => o.taskId)}::int[]
                  ${rows ? sql`, ${rows.map((x) => x.part)}::int[]` : sql``}) as u(msg_id, id, task_id${rows ? sql`, part` : sql``})`
            : sql`select u.msg_id, m.id, m.task_id, ${iso(now)}::timestamptz, ${!deferSubmitted}::boolean${rows ? sql`, u.part` : sql``}
                from unnest(${msgIds}::text[], ${ids}::bigint[]${rows ? sql`, ${rows.map((x) => x.part)}::int[]` : sql``}) as u(msg_id, id${rows ? sql`, part` : sql``})
                join sms_messages m on m.id = u.id and m.state = ${sql.lit(SendRecordStatus.NotSent)}`
        }
        on conflict (msg_id) do nothing
        returning msg_id, message_id, task_id${rows ? sql`, part` : sql``}`.execute(trx);
      const ok = new Set(r.rows.map((x) => x.msg_id));
      const lost = new Set<number>();
      for (const o of waiting) {
        if ((o.parts ?? [o.msgId!]).every((id) => ok.has(id))) continue;
        lost.add(o.id);
        // a long message some of whose parts' ids are taken: none of its parts is tracked
        if (o.parts) {
          const mineIds = o.parts.filter((id) => ok.has(id));
          if (mineIds.length)
            await sql`delete from sms_inflight where msg_id = any(${mineIds}::text[]) and message_id = ${o.id}`.execute(
              trx,
            );
        }
        unconfirmed(o, 'duplicate message id');
      }
      const parted = waiting.filter((o) => o.parts && !lost.has(o.id));
      if (parted.length) {
        const p = parted.flatMap((o) =>
          o.parts!.map((msgId, i) => ({ id: o.id, part: i + 1, parts: o.parts!.length, msgId })),
        );
        await sql`
          insert into sms_message_parts (message_id, part, parts, msg_id, submitted_at)
          select u.id, u.part, u.parts, u.msg_id, ${iso(now)}::timestamptz
          from unnest(${p.map((x) => x.id)}::bigint[], ${p.map((x) => x.part)}::int[], ${p.map((x) => x.parts)}::int[], ${p.map((x) => x.msgId)}::text[])
            as u(id, part, parts, msg_id)
          on conflict (message_id, part) do update set parts = excluded.parts, msg_id = excluded.msg_id, state = null, error_code = '', report = '',
            done_at = null, submitted_at = excluded.submitted_at`.execute(trx);
      }
      if (deferSubmitted) for (const x of r.rows) if (!(x.part > 1) && !lost.has(x.message_id)) deferred.push(x);
    }
    const deferredIds = new Set(deferred.map((x) => x.message_id));
    const written = deferredIds.size ? mine.filter((o) => !deferredIds.has(o.id)) : mine;

    // the record: one UPDATE for the batch
    const n = written.length;
    const state = new Array<number>(n);
    const code = new Array<string>(n);
    const report = new Array<string>(n);
    const doneAt = new Array<string | null>(n);
    written.forEach((o, i) => {
      const rc = o.msgId ? early.get(o.msgId) : undefined;
      state[i] = rc ? rc.state : o.state;
      code[i] = rc ? rc.error_code : o.code;
      report[i] = rc ? rc.report : o.report;
      doneAt[i] = rc ? iso(new Date(rc.done_at)) : o.state === SendRecordStatus.SubmitFailed ? iso(now) : null;
    });
    const r = !n
      ? { rows: [] as AppliedReport[] }
      : await sql<AppliedReport>`
      update sms_messages m set
        state = u.state,
        msg_id = u.msg_id,
        error_code = u.code,
        report = u.report,
        attempts = least(m.attempts + 1, 32767),
        submitted_at = case when u.state = ${sql.lit(SendRecordStatus.NotSent)} then m.submitted_at else ${iso(now)}::timestamptz end,
        done_at = u.done_at
      from unnest(${written.map((o) => o.id)}::bigint[], ${state}::int[], ${written.map((o) => o.msgId)}::text[], ${code}::text[], ${report}::text[],
        ${doneAt}::timestamptz[]) as u(id, state, msg_id, code, report, done_at)
      where m.id = u.id and m.state = ${sql.lit(SendRecordStatus.NotSent)}
      returning ${RETURNING}`.execute(trx);

    const retry = r.rows.filter((x) => x.state === SendRecordStatus.NotSent);
    if (retry.length) {
      const delay = new Map(mine.map((o) => [o.id, o.delayMs]));
      await sql`
        insert into sms_requeue (message_id, task_id, next_at)
        select u.id, u.task_id, ${iso(now)}::timestamptz + u.delay_ms * interval '1 millisecond'
        from unnest(${retry.map((x) => x.id)}::bigint[], ${retry.map((x) => x.task_id)}::int[], ${retry.map((x) => delay.get(x.id) ?? 0)}::int[]) as u(id, task_id, delay_ms)
        on conflict (message_id) do update set next_at = excluded.next_at`.execute(trx);
    }
    const final = r.rows.filter((x) => x.state !== SendRecordStatus.NotSent && x.state !== SendRecordStatus.Submitted);
    if (final.length && onFinal) await onFinal(trx, final);
    const deltas = outcomeDeltas(r.rows);
    for (const x of deferred) {
      const d = deltas.get(x.task_id);
      d.submitted++;
      d.unknown++;
    }
    await applyDeltas(trx, ctx, deltas, now);
    return r.rows.length + deferred.length;
  });
}

/**
 * Marks messages of `owner`'s lease `leaseId` (ClaimedMessage.lease) as possibly written to the SMSC, before they are handed to the
 * link, and extends the lease to `leaseUntil` (the worker's heartbeat). Returns false when the lease
 * has expired or was recovered: the messages must not be written then (recovery has put them back
 * in the queue, or will: another worker sends them). A named `channel` is written on the messages
 * in the same statement (sms_messages.channel).
 */
export async function markWritten(
  db: Q,
  owner: string,
  leaseId: string,
  ids: readonly number[],
  now: Date,
  leaseUntil: Date,
  channel = '',
): Promise<boolean> {
  if (!ids.length) return true;
  const lease = sql`
    update dispatch_leases set written = written || ${ids}::bigint[], lease_until = greatest(lease_until, ${iso(leaseUntil)}::timestamptz)
    where id = ${leaseId}::bigint and owner = ${owner} and lease_until >= ${iso(now)}::timestamptz`;
  if (!channel) return Number((await lease.execute(db)).numAffectedRows ?? 0) > 0;
  // a named channel is recorded on the messages in the same statement (the default link's '' needs no write)
  const r = await sql<{ n: number }>`
    with l as (${lease} returning id),
      m as (update sms_messages set channel = ${channel} where id = any(${ids}::bigint[]) and exists (select 1 from l) returning id)
    select (select count(*) from l)::int as n, (select count(*) from m)::int as written`.execute(db);
  return (r.rows[0]?.n ?? 0) > 0;
}

/**
 * Lease recovery: of the messages of expired leases (their worker died or hung), those marked
 * written (`markWritten`) may have reached the SMSC, so they are never submitted again: state 1 with
 * error_code UNCONFIRMED, counted unknown; the others were never written and go back to the queue
 * (sms_requeue, due now). A lease without marks (`written` null: taken by a worker before migration
 * 0031) counts as written entirely. Returns how many messages were recovered (both kinds).
 */
export async function recoverLeases(db: Kysely<Database>, ctx: Pick<AppContext, 'now'>, limit = 20): Promise<number> {
  return inTransaction(db, async (trx) => {
    const now = ctx.now();
    await keyPlans(trx);
    const leases = await sql<{ id: string; message_ids: number[]; written: number[] | null }>`
      select id, message_ids, written from dispatch_leases where lease_until < ${iso(now)}::timestamptz
      order by lease_until, id limit ${limit} for update skip locked`.execute(trx);
    if (!leases.rows.length) return 0;
    const written: number[] = [];
    const unwritten: number[] = [];
    for (const l of leases.rows) {
      // no marks (a lease of a worker before migration 0031): every message may have been written
      const w = l.written === null ? null : new Set(l.written);
      for (const id of l.message_ids) (!w || w.has(id) ? written : unwritten).push(id);
    }
    const r = !written.length
      ? { rows: [] as AppliedReport[] }
      : await sql<AppliedReport>`
      update sms_messages m set state = ${SendRecordStatus.Submitted}, error_code = ${UNCONFIRMED}, report = 'lease expired',
        submitted_at = ${iso(now)}::timestamptz, attempts = least(m.attempts + 1, 32767)
      where m.id = any(${written}::bigint[]) and m.state = ${sql.lit(SendRecordStatus.NotSent)}
      returning ${RETURNING}`.execute(trx);
    const back = !unwritten.length
      ? { rows: [] }
      : await sql<{ message_id: number }>`
      insert into sms_requeue (message_id, task_id, next_at)
      select m.id, m.task_id, ${iso(now)}::timestamptz from sms_messages m
      where m.id = any(${unwritten}::bigint[]) and m.state = ${sql.lit(SendRecordStatus.NotSent)}
      on conflict (message_id) do nothing
      returning message_id`.execute(trx);
    await sql`delete from dispatch_leases where id = any(${leases.rows.map((l) => l.id)}::bigint[])`.execute(trx);
    await applyDeltas(trx, ctx, outcomeDeltas(r.rows), now);
    return r.rows.length + back.rows.length;
  });
}

export interface ReceiptRow {
  msgId: string;
  /** other readings of msgId (hex ↔ decimal), tried when msgId matches no message in flight */
  readings?: string[];
  state: number;
  errorCode: string;
  report: string;
  doneAt: Date;
  /** the number it is for (deliver_sm source_addr) and the channel it came on: unconfirmed messages are matched by them */
  phone?: string;
  channel?: string;
}

/**
 * Stores receipts (a receipt already stored is ignored); they wait there until applied. A receipt
 * with other readings of its id is stored under each of them too: whichever the submit's record
 * brings in flight is applied, the others are purged with the stale ones.
 */
export async function storeReceipts(db: Q, input: ReceiptRow[], now: Date): Promise<void> {
  const rows = input.flatMap((r) => [r, ...(r.readings ?? []).map((msgId) => ({ ...r, msgId }))]);
  if (!rows.length) return;
  await sql`
    insert into sms_receipts (msg_id, state, error_code, report, done_at, received_at, phone, channel)
    select r.msg_id, r.state, r.error_code, r.report, r.done_at, ${iso(now)}::timestamptz, r.phone, r.channel
    from unnest(${rows.map((r) => r.msgId)}::text[], ${rows.map((r) => r.state)}::int[], ${rows.map((r) => r.errorCode)}::text[],
      ${rows.map((r) => r.report)}::text[], ${rows.map((r) => iso(r.doneAt))}::timestamptz[], ${rows.map((r) => r.phone ?? '')}::text[],
      ${rows.map((r) => r.channel ?? '')}::text[]) as r(msg_id, state, error_code, report, done_at, phone, channel)
    on conflict (msg_id) do nothing`.execute(db);
}

/** Counter moves of applied receipts (unknown → success / fail, refundable cost and pieces of failures). */
function receiptDeltas(rows: readonly AppliedReport[]): Deltas {
  const deltas = new Deltas();
  for (const row of rows) {
    // a deferred record left state 0 here: completion may be due
    deltas.dequeued.add(row.task_id);
    const d = deltas.get(row.task_id);
    d.unknown--;
    if (row.state === SendRecordStatus.Delivered) d.success++;
    else {
      d.fail++;
      d.cost = d.cost.plus(row.cost ?? 0);
      d.pieces += row.pieces;
      d.byCarrier[carrierSlot(row.carrier)] += row.pieces;
    }
  }
  return deltas;
}

interface InflightHit {
  message_id: number;
  msg_id: string;
  submitted_at: Date;
  r: Pick<ReceiptRow, 'state' | 'errorCode' | 'report' | 'doneAt'>;
}

/**
 * Receipts of parts of long messages (their in-flight rows just deleted): each part's state is
 * written to sms_message_parts; the messages all of whose parts have one are final — delivered
 * when every part was, else failed with the first failed part's (in part order) error and stat;
 * done when the last part was — and their part rows go. The message's part rows are locked first
 * (in key order): two parts' receipts in two transactions, the second sees the first's. Returns
 * the final messages as in-flight hits (the message id of part 1).
 */
async function settleParts(trx: Tx, hits: readonly (InflightHit & { part: number })[]): Promise<InflightHit[]> {
  const ids = [...new Set(hits.map((x) => x.message_id))].sort((a, b) => a - b);
  await sql`select 1 from sms_message_parts where message_id = any(${ids}::bigint[]) order by message_id, part for update`.execute(
    trx,
  );
  await sql`
    update sms_message_parts p set state = u.state, error_code = u.error_code, report = u.report, done_at = u.done_at
    from unnest(${hits.map((x) => x.message_id)}::bigint[], ${hits.map((x) => x.part)}::int[], ${hits.map((x) => x.r.state)}::int[],
      ${hits.map((x) => x.r.errorCode)}::text[], ${hits.map((x) => x.r.report)}::text[], ${hits.map((x) => iso(x.r.doneAt))}::timestamptz[])
      as u(id, part, state, error_code, report, done_at)
    where p.message_id = u.id and p.part = u.part`.execute(trx);
  const all = await sql<{
    message_id: number;
    part: number;
    parts: number;
    msg_id: string;
    state: number | null;
    error_code: string;
    report: string;
    done_at: Date | null;
    submitted_at: Date;
  }>`
    select message_id, part, parts, msg_id, state, error_code, report, done_at, submitted_at from sms_message_parts
    where message_id = any(${ids}::bigint[]) order by message_id, part`.execute(trx);
  const byMessage = new Map<number, typeof all.rows>();
  for (const x of all.rows) {
    let list = byMessage.get(x.message_id);
    if (!list) byMessage.set(x.message_id, (list = []));
    list.push(x);
  }
  const final: InflightHit[] = [];
  for (const [id, list] of byMessage) {
    if (list.length < list[0].parts || list.some((x) => x.state === null)) continue; // parts still waiting: the message stays 1 (unknown)
    const failed = list.find((x) => x.state !== SendRecordStatus.Delivered);
    const last = Math.max(...list.map((x) => new Date(x.done_at!).getTime()));
    final.push({
      message_id: id,
      msg_id: list[0].msg_id,
      submitted_at: list[0].submitted_at,
      r: failed
        ? { state: failed.state!, errorCode: failed.error_code, report: failed.report, doneAt: new Date(last) }
        : {
            state: SendRecordStatus.Delivered,
            errorCode: '',
            report: list[list.length - 1].report,
            doneAt: new Date(last),
          },
    });
  }
  if (final.length)
    await sql`delete from sms_message_parts where message_id = any(${final.map((x) => x.message_id)}::bigint[])`.execute(
      trx,
    );
  return final;
}

/**
 * Applies receipts to the messages in flight with their message ids (one statement: the in-flight
 * rows are deleted, the records get 3 / 6 with the receipt's error, stat and done time — and the
 * message id, submit time and attempt when the record did not say 1 提交成功 yet). A part of a long
 * message counts once all its message's parts have their receipt (settleParts). `matched`: the
 * receipts' message ids that found their submit (final or not).
 */
async function applyToInflight(
  trx: Tx,
  rows: readonly ReceiptRow[],
): Promise<{ rows: (AppliedReport & { msg_id: string })[]; matched: string[] }> {
  await keyPlans(trx);
  const d = await sql<{ message_id: number; msg_id: string; submitted_at: Date; part: number }>`
    delete from sms_inflight where msg_id = any(${rows.map((x) => x.msgId)}::text[])
    returning message_id, msg_id, submitted_at, part`.execute(trx);
  if (!d.rows.length) return { rows: [], matched: [] };
  const matched = d.rows.map((x) => x.msg_id);
  const byMsgId = new Map(rows.map((x) => [x.msgId, x]));
  let hit: InflightHit[] = d.rows.map((x) => ({ ...x, r: byMsgId.get(x.msg_id)! }));
  if (d.rows.some((x) => x.part > 0)) {
    const parts = d.rows.filter((x) => x.part > 0).map((x) => ({ ...x, r: byMsgId.get(x.msg_id)! }));
    hit = hit.filter((x) => !(x as { part?: number }).part).concat(await settleParts(trx, parts));
    if (!hit.length) return { rows: [], matched };
  }
  const ids = hit.map((x) => x.message_id);
  // the records by primary key (`m.id = any`), joined to the receipts' arrays (of a size the planner
  // knows), unnested once (materialized). The planner's estimate of the records the state check
  // leaves is a guess (a batch is exactly the in-flight rows, all 0 or 1; a month's partition not
  // analyzed yet knows nothing at all); from an estimate of one record it loops over the receipts for
  // each record, and without the CTE it unnested the arrays again each time: 10.9 ms a batch of
  // ~70 receipts in bench/cmpp-customer-e2e.ts, 5.3 ms with it
  const r = await sql<AppliedReport & { msg_id: string }>`
    with u as materialized (
      select * from unnest(${ids}::bigint[], ${hit.map((x) => x.msg_id)}::text[], ${hit.map((x) => iso(new Date(x.submitted_at)))}::timestamptz[],
        ${hit.map((x) => x.r.state)}::int[], ${hit.map((x) => x.r.errorCode)}::text[], ${hit.map((x) => x.r.report)}::text[],
        ${hit.map((x) => iso(x.r.doneAt))}::timestamptz[]) as u(id, msg_id, submitted_at, state, error_code, report, done_at)
    )
    update sms_messages m set state = u.state, error_code = u.error_code, report = u.report, done_at = u.done_at,
      msg_id = u.msg_id,
      submitted_at = case when m.state = ${SendRecordStatus.NotSent} then u.submitted_at else m.submitted_at end,
      attempts = case when m.state = ${SendRecordStatus.NotSent} then least(m.attempts + 1, 32767) else m.attempts end
    from u
    -- 0 or 1, not by the in-flight row's marked: markSubmitted may commit 1 between this statement's
    -- snapshot and the record's lock; the record's visible 0 must still be locked and re-read as 1
    where m.id = any(${ids}::bigint[]) and m.id = u.id and m.state in (${SendRecordStatus.NotSent}, ${SendRecordStatus.Submitted})
    returning ${RETURNING}, u.msg_id`.execute(trx);
  return { rows: r.rows, matched };
}

/**
 * The pipeline's statements find their rows by key, a batch at a time. With PostgreSQL's default
 * page costs (random_page_cost 4: every index probe a disk read) the planner prefers to scan and
 * hash a whole table of up to a few million rows rather than probe it a thousand times, ~0.1 ms a
 * message more; the pipeline's working set is in memory, so its transactions plan with the cost
 * PostgreSQL advises for SSDs and cached data (1.1). Transaction-local; both databases.
 */
async function keyPlans(trx: Tx): Promise<void> {
  await sql`select set_config('random_page_cost', '1.1', true)`.execute(trx);
}

/**
 * Writes 1 提交成功 (message id, submit time, attempt) to the records of messages in flight since
 * before `olderThan` whose record still says 0 (their receipt did not come within that time), up to
 * `limit`; completes the tasks that have nothing left to submit. Returns how many were written.
 */
export async function markSubmitted(
  db: Kysely<Database>,
  ctx: Pick<AppContext, 'now'>,
  olderThan: Date,
  limit = 5000,
): Promise<number> {
  return inTransaction(db, async (trx) => {
    const now = ctx.now();
    await keyPlans(trx);
    const r = await sql<{ task_id: number }>`
      with i as (
        update sms_inflight set marked = true
        where msg_id = any(array(
          select msg_id from sms_inflight where not marked and submitted_at < ${iso(olderThan)}::timestamptz
          order by submitted_at limit ${limit} for update skip locked))
        returning message_id, msg_id, submitted_at
      )
      update sms_messages m set state = ${SendRecordStatus.Submitted}, msg_id = i.msg_id, submitted_at = i.submitted_at,
        attempts = least(m.attempts + 1, 32767)
      from i where m.id = i.message_id and m.state = ${SendRecordStatus.NotSent}
      returning m.task_id`.execute(trx);
    const tasks = [...new Set(r.rows.map((x) => x.task_id))];
    if (tasks.length) await completeTasks(trx, tasks, now);
    return r.rows.length;
  });
}

/**
 * Receipts straight from the link: applied to their messages in flight, and only those that match
 * none are stored in sms_receipts to wait (the receipt came before its submit_sm_resp was recorded,
 * or a duplicate: the recorder and the applier sort them out). One transaction; the SMSC is
 * acknowledged after it commits. Returns { applied, stored }.
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
    const first = await applyToInflight(trx, rows);
    const applied = first.rows;
    const done = new Set(first.matched);
    let rest = rows.filter((x) => !done.has(x.msgId));
    // ids that match no message as written: their hex ↔ decimal readings (one per message at most)
    const alternates = rest.flatMap((r) =>
      (r.readings ?? [])
        .filter((id) => !byId.has(id))
        .map((id) => ({ ...r, msgId: id, readings: undefined, original: r.msgId })),
    );
    if (alternates.length) {
      const unique = new Map<string, (typeof alternates)[number]>();
      for (const a of alternates) if (!unique.has(a.msgId)) unique.set(a.msgId, a);
      const more = await applyToInflight(trx, [...unique.values()]);
      for (const id of more.matched) done.add(unique.get(id)!.original);
      applied.push(...more.rows);
      rest = rest.filter((x) => !done.has(x.msgId));
    }
    if (applied.length && onApplied) await onApplied(trx, applied);
    await storeReceipts(trx, rest, now);
    // last: the task rows stay locked from here to the commit, which every other transaction of the task waits for
    await applyDeltas(trx, ctx, receiptDeltas(applied), now);
    return { applied: applied.length, stored: rest.length };
  });
}

/**
 * The applier: stored receipts (of the last RECEIPT_RACE_MS) whose message is now in flight — the
 * receipt and the submit's record committed at the same moment, neither seeing the other — are
 * applied and deleted, up to `limit`. Returns how many were applied.
 */
export async function applyReceipts(
  db: Kysely<Database>,
  ctx: Pick<AppContext, 'now'>,
  limit: number,
  onApplied?: (trx: Tx, rows: AppliedReport[]) => Promise<void>,
): Promise<number> {
  return inTransaction(db, async (trx) => {
    const now = ctx.now();
    const r = await sql<StoredReceipt>`
      delete from sms_receipts where msg_id = any(array(
        select r.msg_id from sms_receipts r
        where r.received_at > ${iso(new Date(now.getTime() - RECEIPT_RACE_MS))}::timestamptz
          and exists (select 1 from sms_inflight i where i.msg_id = r.msg_id)
        limit ${limit} for update of r skip locked))
      returning msg_id, state, error_code, report, done_at`.execute(trx);
    if (!r.rows.length) return 0;
    const { rows: applied } = await applyToInflight(
      trx,
      r.rows.map((x) => ({
        msgId: x.msg_id,
        state: x.state,
        errorCode: x.error_code,
        report: x.report,
        doneAt: new Date(x.done_at),
      })),
    );
    if (applied.length && onApplied) await onApplied(trx, applied);
    await applyDeltas(trx, ctx, receiptDeltas(applied), now);
    return applied.length;
  });
}

/**
 * Receipts for messages recorded as unconfirmed (written, their submit_sm_resp never recorded: a
 * crash, a dropped link, a timeout): a stored receipt that no message in flight took within
 * `settledMs` (the applier's race is over) is applied to the unconfirmed message (error_code
 * UNCONFIRMED, no message id) of the same number and channel recorded within `windowMs` of it —
 * only when that pair is unambiguous: one such message for the number, and one receipt (its copies
 * under other id readings aside). Up to `limit`; returns how many were applied.
 */
export async function applyUnconfirmedReceipts(
  db: Kysely<Database>,
  ctx: Pick<AppContext, 'now'>,
  settledMs: number,
  windowMs: number,
  limit = 1000,
  onApplied?: (trx: Tx, rows: AppliedReport[]) => Promise<void>,
): Promise<number> {
  return inTransaction(db, async (trx) => {
    const now = ctx.now();
    await keyPlans(trx);
    const pairs = await sql<{
      id: number;
      msg_id: string;
      phone: string;
      channel: string;
      state: number;
      error_code: string;
      report: string;
      done_at: Date;
    }>`
      with r as (
        select r.msg_id, r.phone, r.channel, r.state, r.error_code, r.report, r.done_at, r.received_at from sms_receipts r
        where r.phone <> '' and r.received_at < ${iso(new Date(now.getTime() - settledMs))}::timestamptz
          and not exists (select 1 from sms_inflight i where i.msg_id = r.msg_id)
        order by r.received_at limit ${limit * 4}
      ),
      c as (
        select r.phone, r.channel, min(m.id) as id, min(r.msg_id) as msg_id,
          count(distinct r.state::text || ' ' || r.done_at::text) as receipts, count(distinct m.id) as messages
        from r join sms_messages m on m.phone = r.phone and m.channel = r.channel
          and m.state = ${sql.lit(SendRecordStatus.Submitted)} and m.error_code = ${UNCONFIRMED} and m.msg_id is null
          and m.submitted_at between r.received_at - ${windowMs} * interval '1 millisecond' and r.received_at + ${windowMs} * interval '1 millisecond'
        group by r.phone, r.channel
      )
      select c.id, r.msg_id, r.phone, r.channel, r.state, r.error_code, r.report, r.done_at
      from c join r on r.msg_id = c.msg_id
      where c.receipts = 1 and c.messages = 1
      order by c.id limit ${limit}`.execute(trx);
    if (!pairs.rows.length) return 0;
    const p = pairs.rows;
    // the receipt and its copies under other readings of its id
    await sql`
      delete from sms_receipts r using unnest(${p.map((x) => x.phone)}::text[], ${p.map((x) => x.channel)}::text[], ${p.map((x) => x.state)}::int[],
        ${p.map((x) => iso(new Date(x.done_at)))}::timestamptz[]) as u(phone, channel, state, done_at)
      where r.phone = u.phone and r.channel = u.channel and r.state = u.state and r.done_at = u.done_at
        and r.received_at < ${iso(new Date(now.getTime() - settledMs))}::timestamptz`.execute(trx);
    const r = await sql<AppliedReport>`
      update sms_messages m set state = u.state, error_code = u.error_code, report = u.report, done_at = u.done_at
      from unnest(${p.map((x) => x.id)}::bigint[], ${p.map((x) => x.state)}::int[], ${p.map((x) => x.error_code)}::text[], ${p.map((x) => x.report)}::text[],
        ${p.map((x) => iso(new Date(x.done_at)))}::timestamptz[]) as u(id, state, error_code, report, done_at)
      where m.id = u.id and m.state = ${sql.lit(SendRecordStatus.Submitted)} and m.error_code = ${UNCONFIRMED} and m.msg_id is null
      returning ${RETURNING}`.execute(trx);
    if (r.rows.length && onApplied) await onApplied(trx, r.rows);
    await applyDeltas(trx, ctx, receiptDeltas(r.rows), now);
    return r.rows.length;
  });
}

/**
 * Receipts nobody can apply (for unconfirmed or already final messages) and messages that waited
 * for their receipt in vain (they stay 1 提交成功), both older than `olderThan`.
 */
export async function purgeStale(db: Q, olderThan: Date): Promise<number> {
  const a = await sql`delete from sms_receipts where received_at < ${iso(olderThan)}::timestamptz`.execute(db);
  const b = await sql`delete from sms_inflight where submitted_at < ${iso(olderThan)}::timestamptz and marked`.execute(
    db,
  );
  // long messages some of whose parts never answered: they stay 1 (unknown)
  await sql`delete from sms_message_parts where submitted_at < ${iso(olderThan)}::timestamptz`.execute(db);
  return Number(a.numAffectedRows ?? 0) + Number(b.numAffectedRows ?? 0);
}

/** Progress of a task in percent from its counters (contract: taskSchedule). */
export function taskSchedule(t: {
  submit_total: number;
  success_num: number;
  fail_num: number;
  unknown_num: number;
  intercept_num: number;
}): number {
  if (!t.submit_total) return 100;
  const pending = Math.max(0, t.submit_total - t.success_num - t.fail_num - t.unknown_num - t.intercept_num);
  return Math.round((100 * (t.submit_total - pending)) / t.submit_total);
}
