/**
 * Report figures without a hot row (issue 24: the SMPP accept and the dispatcher's outcomes took
 * turns on the account's daily-report row; docs/api-reports.md "How it is kept").
 *
 * Until now the statement-level triggers of 0018 / 0019 / 0028 upserted `report_daily` in the
 * writer's transaction: every transaction that inserted or changed an account's messages held that
 * account's row of the day from its message statement to its commit. An interface account sending
 * and receiving receipts at thousands a second had its accepting transactions (message COPY, then
 * commit) and every dispatch outcome transaction queue on that one row.
 *
 * Now the triggers append the same grouped difference to `report_delta` (an insert: no row is
 * shared, nobody waits), and `report_fold()` moves the deltas into `report_daily` (one DELETE …
 * RETURNING and one grouped upsert in key order, under a transaction-scoped advisory lock so that
 * one fold runs at a time; a second caller returns -1 at once). Every process folds on the reports
 * module's timer (buildApp's `reportFoldEveryMs`, default 1 s).
 *
 * Readers never wait for a fold: `report_rows` is report_daily UNION ALL report_delta, and every
 * figure is a sum over it. One statement sees either the deltas or the rows they were folded into
 * (the fold's delete and upsert commit together), so the figures still equal a recount of
 * sms_messages (and held chunks) at every commit, as before.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

const COLS =
  'account_id, day, smstype, paytype, inter, agent_id, send_num, charge_total, success_num, unknown_num, fail_num, wait_num, intercept_num';

/** the per-message columns of the aggregate (as 0019), `m` a message row, `sgn` +1 / -1 */
const CONTRIB = (sgn: string) => `
  ${sgn} as send_num,
  (case when m.state in (4, 6, 8, 9, 11, 12, 13, 14) then 0 else m.pieces end) * ${sgn} as charge_total,
  (case when m.state in (3, 16) then ${sgn} else 0 end) as success_num,
  (case when m.state in (1, 15) then ${sgn} else 0 end) as unknown_num,
  (case when m.state in (4, 6, 8, 9, 14) then ${sgn} else 0 end) as fail_num,
  (case when m.state in (0, 7) then ${sgn} else 0 end) as wait_num,
  (case when m.state in (11, 12, 13) then ${sgn} else 0 end) as intercept_num`;

/** 0019's grouped difference of message rows `src`, appended to report_delta */
const MESSAGE_DELTA = (src: string) => `
  insert into report_delta (${COLS})
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
    or sum(g.fail_num) <> 0 or sum(g.wait_num) <> 0 or sum(g.intercept_num) <> 0`;

const ROW = 'account_id, created_at, task_id, state, pieces, carrier';

/** 0028's figures of held chunks `src` (transition table), `sgn` +1 / -1, appended to report_delta */
const CHUNK_DELTA = (src: string, sgn: string) => `
  insert into report_delta (${COLS})
  select c.account_id, ((c.created_at at time zone 'UTC') + interval '8 hours')::date, t.smstype,
    (case when t.payer_id <> t.account_id then 1 else 0 end)::smallint, c.inter, coalesce(t.agent_id, 0),
    (${sgn} * sum(c.rows))::int,
    (${sgn} * sum(case when c.state in (4, 6, 8, 9, 11, 12, 13, 14) then 0 else c.pieces_total end))::int,
    0, 0,
    (${sgn} * sum(case when c.state in (4, 6, 8, 9, 14) then c.rows else 0 end))::int,
    (${sgn} * sum(case when c.state in (0, 7) then c.rows else 0 end))::int,
    (${sgn} * sum(case when c.state in (11, 12, 13) then c.rows else 0 end))::int
  from ${src} c
  join sms_tasks t on t.id = c.task_id
  where c.hold
  group by 1, 2, 3, 4, 5, 6`;

/** the advisory lock key of the fold (any constant no other lock uses: 'report_fold' as digits) */
export const REPORT_FOLD_LOCK = 7_264_851_093;

export const reportDeltas0041: Migration = {
  async up(db) {
    await run(db, [
      `create table report_delta (
        account_id integer not null,
        day date not null,
        smstype smallint not null,
        paytype smallint not null,
        inter smallint not null,
        agent_id integer not null default 0,
        send_num integer not null default 0,
        charge_total integer not null default 0,
        success_num integer not null default 0,
        unknown_num integer not null default 0,
        fail_num integer not null default 0,
        wait_num integer not null default 0,
        intercept_num integer not null default 0
      )`,
      `create or replace function report_daily_ins() returns trigger language plpgsql as $f$
       begin
         ${MESSAGE_DELTA(`select ${ROW}, 1 as sgn from report_new`)};
         return null;
       end $f$`,
      `create or replace function report_daily_del() returns trigger language plpgsql as $f$
       begin
         ${MESSAGE_DELTA(`select ${ROW}, -1 as sgn from report_old`)};
         return null;
       end $f$`,
      `create or replace function report_daily_upd() returns trigger language plpgsql as $f$
       begin
         ${MESSAGE_DELTA(`select ${ROW}, 1 as sgn from report_new union all select ${ROW}, -1 as sgn from report_old`)};
         return null;
       end $f$`,
      `create or replace function report_daily_chunk_ins() returns trigger language plpgsql as $f$
       begin
         ${CHUNK_DELTA('report_new', '1')};
         return null;
       end $f$`,
      `create or replace function report_daily_chunk_del() returns trigger language plpgsql as $f$
       begin
         ${CHUNK_DELTA('report_old', '-1')};
         return null;
       end $f$`,
      // the figures as readers see them: every sum over this view equals a recount
      `create view report_rows as
         select ${COLS} from report_daily
         union all
         select ${COLS} from report_delta`,
      // moves the committed deltas into report_daily; the number of report rows written, -1 when
      // another fold holds the lock (its deltas are folded by it)
      `create function report_fold() returns integer language plpgsql as $f$
       declare
         n integer;
       begin
         if not pg_try_advisory_xact_lock(${REPORT_FOLD_LOCK}) then
           return -1;
         end if;
         with d as (delete from report_delta returning *),
         folded as (
           insert into report_daily as r (${COLS})
           select account_id, day, smstype, paytype, inter, max(agent_id),
             sum(send_num)::int, sum(charge_total)::int, sum(success_num)::int, sum(unknown_num)::int,
             sum(fail_num)::int, sum(wait_num)::int, sum(intercept_num)::int
           from d
           group by 1, 2, 3, 4, 5
           having sum(send_num) <> 0 or sum(charge_total) <> 0 or sum(success_num) <> 0 or sum(unknown_num) <> 0
             or sum(fail_num) <> 0 or sum(wait_num) <> 0 or sum(intercept_num) <> 0
           order by 1, 2, 3, 4, 5
           on conflict (account_id, day, smstype, paytype, inter) do update set
             send_num = r.send_num + excluded.send_num,
             charge_total = r.charge_total + excluded.charge_total,
             success_num = r.success_num + excluded.success_num,
             unknown_num = r.unknown_num + excluded.unknown_num,
             fail_num = r.fail_num + excluded.fail_num,
             wait_num = r.wait_num + excluded.wait_num,
             intercept_num = r.intercept_num + excluded.intercept_num
           returning 1
         )
         select count(*)::int into n from folded;
         return n;
       end $f$`,
    ]);
  },
  async down() {
    throw new Error('0041_report_deltas cannot be undone (fold the deltas and restore 0019 / 0028 functions by hand)');
  },
};
