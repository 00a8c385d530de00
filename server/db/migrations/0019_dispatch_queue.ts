/**
 * The dispatch queue leaves the message table (docs/api-dispatch.md "Queue, leases, in flight").
 *
 * Until 0018 every message row was the queue entry as well as the send record: a claim, a submit
 * response and a receipt each rewrote the wide row and its nine indexes (the record filters' ones
 * included), PostgreSQL spending ~1 ms of CPU per message end to end. Now the record row is
 * written at acceptance and then only when its state changes for the customer (提交成功, the
 * receipt's final state, or straight to the final state when the receipt came first), and the
 * queue state lives in narrow tables:
 *
 * - `dispatch_queue`: one row per task with messages to hand out: `next_id` is the last message id
 *   handed out (messages of a task are claimed in id order, so `state = 0 and id > next_id` are the
 *   ones never claimed); `queued` false once the cursor has passed every message. A claim locks
 *   the row, reads the next messages from the (task_id, state, id) index and moves the cursor: one
 *   narrow update per batch instead of one wide update per message.
 * - `dispatch_leases`: one row per claimed batch (worker id, lease end, the message ids). Recording
 *   the batch's outcomes deletes it in the same transaction; an expired lease is recovered
 *   (its messages still in state 0 become unconfirmed: never submitted twice).
 * - `sms_requeue`: messages to submit again later (throttled, not bound) or released after the
 *   cursor passed them (approved in review): claimed before the tasks' queues when due.
 * - `sms_inflight`: the SMSC's message id of every submitted message awaiting its receipt (primary
 *   key msg_id: the receipt's lookup, and an id the SMSC gives twice is detected there). The
 *   receipt deletes the row and writes the final state to the record. `marked`: the record already
 *   says 1 提交成功; a message whose receipt comes within a moment of its submit is written once,
 *   straight to its final state (the dispatcher marks the others, docs/api-dispatch.md).
 *
 * Existing data is carried over: queued messages → sms_requeue (their tasks' cursors set past
 * them), leased ones → dispatch_leases (same owner and lease end, so a live worker of the previous
 * version can still record them and a dead one's are recovered), submitted messages with a message
 * id from the last 3 days → sms_inflight. Then the queue columns and indexes of sms_messages go,
 * its task index gains `id` (the claim's ordered range), and the report triggers of 0018 aggregate
 * an UPDATE's rows as new − old without joining the two transition tables (that join was planned
 * as a nested loop: quadratic in the statement's rows).
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

/** the per-message columns of the aggregate (as 0018), `m` a message row, `sgn` +1 / -1 */
const CONTRIB = (sgn: string) => `
  ${sgn} as send_num,
  (case when m.state in (4, 6, 8, 9, 11, 12, 13, 14) then 0 else m.pieces end) * ${sgn} as charge_total,
  (case when m.state in (3, 16) then ${sgn} else 0 end) as success_num,
  (case when m.state in (1, 15) then ${sgn} else 0 end) as unknown_num,
  (case when m.state in (4, 6, 8, 9, 14) then ${sgn} else 0 end) as fail_num,
  (case when m.state in (0, 7) then ${sgn} else 0 end) as wait_num,
  (case when m.state in (11, 12, 13) then ${sgn} else 0 end) as intercept_num`;

/**
 * `src` rows (account_id, created_at, task_id, state, pieces, carrier, sgn) summed per report key
 * first, then joined to their (few) tasks: the join works on groups, not on every row.
 */
const UPSERT = (src: string) => `
  insert into report_daily as r (account_id, day, smstype, paytype, inter, agent_id, send_num, charge_total, success_num, unknown_num, fail_num, wait_num, intercept_num)
  select g.account_id, g.day, t.smstype, (case when t.payer_id <> t.account_id then 1 else 0 end)::smallint, g.inter, coalesce(t.agent_id, 0),
    sum(g.send_num)::int, sum(g.charge_total)::int, sum(g.success_num)::int, sum(g.unknown_num)::int, sum(g.fail_num)::int,
    sum(g.wait_num)::int, sum(g.intercept_num)::int
  from (
    select m.account_id, m.task_id, ((m.created_at at time zone 'UTC') + interval '8 hours')::date as day,
      (case when m.carrier = 4 then 1 else 0 end)::smallint as inter,
      sum(d.send_num) as send_num, sum(d.charge_total) as charge_total, sum(d.success_num) as success_num,
      sum(d.unknown_num) as unknown_num, sum(d.fail_num) as fail_num, sum(d.wait_num) as wait_num, sum(d.intercept_num) as intercept_num
    from (${src}) m
    cross join lateral (select ${CONTRIB('m.sgn')}) d
    group by 1, 2, 3, 4
  ) g
  join sms_tasks t on t.id = g.task_id
  group by g.account_id, g.day, t.smstype, 4, g.inter, 6
  having sum(g.send_num) <> 0 or sum(g.charge_total) <> 0 or sum(g.success_num) <> 0 or sum(g.unknown_num) <> 0
    or sum(g.fail_num) <> 0 or sum(g.wait_num) <> 0 or sum(g.intercept_num) <> 0
  order by 1, 2, 3, 4, 5
  on conflict (account_id, day, smstype, paytype, inter) do update set
    send_num = r.send_num + excluded.send_num,
    charge_total = r.charge_total + excluded.charge_total,
    success_num = r.success_num + excluded.success_num,
    unknown_num = r.unknown_num + excluded.unknown_num,
    fail_num = r.fail_num + excluded.fail_num,
    wait_num = r.wait_num + excluded.wait_num,
    intercept_num = r.intercept_num + excluded.intercept_num`;

const ROW = 'account_id, created_at, task_id, state, pieces, carrier';

export const dispatchQueue0019: Migration = {
  async up(db) {
    await run(db, [
      `create table dispatch_queue (
        task_id integer primary key,
        next_id integer not null default 0,
        queued boolean not null default true,
        ready_at timestamptz not null default now()
      )`,
      `create index dispatch_queue_ready on dispatch_queue (ready_at, task_id) where queued`,
      `create table dispatch_leases (
        id bigint generated always as identity primary key,
        owner text not null,
        lease_until timestamptz not null,
        message_ids integer[] not null
      )`,
      `create index dispatch_leases_until on dispatch_leases (lease_until)`,
      `create table sms_requeue (
        message_id integer primary key,
        task_id integer not null,
        next_at timestamptz not null
      )`,
      `create index sms_requeue_due on sms_requeue (next_at, message_id)`,
      `create table sms_inflight (
        msg_id text primary key,
        message_id integer not null,
        task_id integer not null,
        submitted_at timestamptz not null,
        marked boolean not null default false
      )`,
      `create index sms_inflight_submitted on sms_inflight (submitted_at)`,
      `create index sms_inflight_unmarked on sms_inflight (submitted_at) where not marked`,
      `create index sms_receipts_received on sms_receipts (received_at)`,

      // ---- the queue state of the existing messages
      `insert into dispatch_leases (owner, lease_until, message_ids)
        select coalesce(lease_owner, 'unknown'), max(lease_until), array_agg(id order by id)
        from sms_messages where state = 0 and lease_until is not null group by lease_owner`,
      `insert into sms_requeue (message_id, task_id, next_at)
        select id, task_id, next_at from sms_messages where state = 0 and next_at is not null and lease_until is null`,
      `insert into dispatch_queue (task_id, next_id, queued, ready_at)
        select task_id, max(id), false, now() from sms_messages where state = 0 and (next_at is not null or lease_until is not null) group by task_id`,
      `insert into sms_inflight (msg_id, message_id, task_id, submitted_at, marked)
        select msg_id, id, task_id, coalesce(submitted_at, created_at), true from sms_messages
        where state = 1 and msg_id is not null and coalesce(submitted_at, created_at) > now() - interval '3 days'
        on conflict (msg_id) do nothing`,

      // ---- the message table keeps the record only
      `drop index if exists sms_messages_queue`,
      `drop index if exists sms_messages_leased`,
      `drop index if exists sms_messages_msg_id`,
      `alter table sms_messages drop column next_at, drop column lease_owner, drop column lease_until`,
      `create index sms_messages_task_state on sms_messages (task_id, state, id)`,
      `drop index sms_messages_task`,

      // ---- report triggers: linear in the statement's rows
      `create or replace function report_daily_ins() returns trigger language plpgsql as $f$
       begin
         ${UPSERT(`select ${ROW}, 1 as sgn from report_new`)};
         return null;
       end $f$`,
      `create or replace function report_daily_del() returns trigger language plpgsql as $f$
       begin
         ${UPSERT(`select ${ROW}, -1 as sgn from report_old`)};
         return null;
       end $f$`,
      // an UPDATE adds its new rows and takes its old ones away: unchanged rows cancel out
      `create or replace function report_daily_upd() returns trigger language plpgsql as $f$
       begin
         ${UPSERT(`select ${ROW}, 1 as sgn from report_new union all select ${ROW}, -1 as sgn from report_old`)};
         return null;
       end $f$`,
    ]);
  },
  async down() {
    throw new Error('0019_dispatch_queue cannot be undone');
  },
};
