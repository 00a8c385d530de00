/**
 * The per-minute series of the operators' 监控 screen (issue 39; docs/api-metrics.md "Per-minute
 * series"), shared by every process over one database, written without any cost per message:
 *
 * - `metric_minutes`: one row per (minute, name, label, source), `minute` the database's own clock
 *   truncated to the minute (so that the processes' rows meet whatever their hosts' clocks say).
 *   Flows (messages submitted per channel, delivered / failed per carrier and channel, refusals by
 *   reason) are added to their row of source '' by each process every ~10 s from its in-memory
 *   counters (an upsert adding the difference since its last write: one statement, a few rows);
 *   gauges are written as they are sampled: waiting and unconfirmed messages (the database's
 *   figures: source '', whichever process samples the minute first), door sessions (each process
 *   its own: source = its process id, the series add them up).
 * - `report_fold()` (0041), which every process already runs about once a second to fold the
 *   report deltas, now also adds the deltas' message figures to the minute of the fold: accepted
 *   (send_num: messages written by any acceptance, in any process, net of timed sends withdrawn),
 *   delivered (success_num) and failed (fail_num). The triggers of 0041 already compute them in the
 *   writers' transactions; the fold sums what it folds (one more grouped insert of at most three
 *   rows per fold). Otherwise the function is 0041's.
 *
 * Rows older than the retention (8 days) are deleted by the metrics module's purge.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { REPORT_FOLD_LOCK } from './0041_report_deltas';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

const COLS =
  'account_id, day, smstype, paytype, inter, agent_id, send_num, charge_total, success_num, unknown_num, fail_num, wait_num, intercept_num';

/** 0041's report_fold(), with `extra` (more CTEs over the deleted deltas `d`) */
const FOLD = (extra: string) => `create or replace function report_fold() returns integer language plpgsql as $f$
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
    )${extra}
    select count(*)::int into n from folded;
    return n;
  end $f$`;

/** the fold's message figures added to the minute's rows (a data-modifying CTE runs whether or not it is read) */
const MINUTES = `,
    minutes as (
      insert into metric_minutes as m (minute, name, label, source, value)
      select date_trunc('minute', now()), x.name, '', '', x.value
      from (select sum(send_num) as accepted, sum(success_num) as delivered, sum(fail_num) as failed from d) s
      cross join lateral (values ('accepted', s.accepted), ('delivered', s.delivered), ('failed', s.failed)) as x(name, value)
      where x.value <> 0
      on conflict (minute, name, label, source) do update set value = m.value + excluded.value
      returning 1
    )`;

export const metricMinutes0047: Migration = {
  async up(db) {
    await run(db, [
      `create table metric_minutes (
        minute timestamptz not null,
        name text not null,
        label text not null default '',
        source text not null default '',
        value double precision not null default 0,
        primary key (minute, name, label, source)
      )`,
      FOLD(MINUTES),
    ]);
  },
  async down(db) {
    await run(db, [FOLD(''), 'drop table metric_minutes']);
  },
};
