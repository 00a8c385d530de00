/**
 * Reports (docs/api-reports.md): pre-aggregated daily rows of the send records.
 *
 * `report_daily` holds one row per (account, business day (Asia/Shanghai) of the message's
 * acceptance, SMS type, paytype 0 prepaid / 1 postpaid (the task's payer is the agent),
 * normal / international (carrier 4)) with the counts of its messages by outcome.
 *
 * It is kept by statement-level AFTER triggers on sms_messages with transition tables: every
 * INSERT (acceptance, unnest or COPY), UPDATE (dispatch claims / outcomes / receipts, review,
 * timed tasks firing, the seed) and DELETE (timed-task cancel) applies ONE grouped, key-ordered
 * upsert of the difference, in the writer's own transaction. So the rows equal a recount of
 * sms_messages at every commit, whichever process or code path wrote the messages, and the
 * dispatch hot path pays one grouped statement per batch, not one per message.
 *
 * Outcomes (same as the task counters): success 3, 16; fail 4, 6, 8, 9, 14; unknown 1, 15;
 * intercepted 11, 12, 13; waiting 0, 7. charge_total: pieces of the messages not in a refunded
 * state (send/billing.ts REFUNDABLE_STATES).
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

/** the per-message columns of the aggregate, `m` a message row, `sgn` +1 / -1 */
const CONTRIB = (sgn: string) => `
  ${sgn} as send_num,
  (case when m.state in (4, 6, 8, 9, 11, 12, 13, 14) then 0 else m.pieces end) * ${sgn} as charge_total,
  (case when m.state in (3, 16) then ${sgn} else 0 end) as success_num,
  (case when m.state in (1, 15) then ${sgn} else 0 end) as unknown_num,
  (case when m.state in (4, 6, 8, 9, 14) then ${sgn} else 0 end) as fail_num,
  (case when m.state in (0, 7) then ${sgn} else 0 end) as wait_num,
  (case when m.state in (11, 12, 13) then ${sgn} else 0 end) as intercept_num`;

/** rows of `src` (a set of message rows named m) grouped by the report key, ready to upsert */
const GROUPED = (src: string) => `
  select m.account_id, ((m.created_at at time zone 'UTC') + interval '8 hours')::date as day,
    t.smstype, (case when t.payer_id <> t.account_id then 1 else 0 end)::smallint as paytype,
    (case when m.carrier = 4 then 1 else 0 end)::smallint as inter, coalesce(t.agent_id, 0) as agent_id,
    sum(d.send_num)::int as send_num, sum(d.charge_total)::int as charge_total, sum(d.success_num)::int as success_num,
    sum(d.unknown_num)::int as unknown_num, sum(d.fail_num)::int as fail_num, sum(d.wait_num)::int as wait_num,
    sum(d.intercept_num)::int as intercept_num
  from (${src}) m
  cross join lateral (select ${CONTRIB('m.sgn')}) d
  join sms_tasks t on t.id = m.task_id
  group by 1, 2, 3, 4, 5, 6`;

const UPSERT = (src: string) => `
  insert into report_daily as r (account_id, day, smstype, paytype, inter, agent_id, send_num, charge_total, success_num, unknown_num, fail_num, wait_num, intercept_num)
  select * from (${GROUPED(src)}) g
  where g.send_num <> 0 or g.charge_total <> 0 or g.success_num <> 0 or g.unknown_num <> 0 or g.fail_num <> 0 or g.wait_num <> 0 or g.intercept_num <> 0
  order by account_id, day, smstype, paytype, inter
  on conflict (account_id, day, smstype, paytype, inter) do update set
    send_num = r.send_num + excluded.send_num,
    charge_total = r.charge_total + excluded.charge_total,
    success_num = r.success_num + excluded.success_num,
    unknown_num = r.unknown_num + excluded.unknown_num,
    fail_num = r.fail_num + excluded.fail_num,
    wait_num = r.wait_num + excluded.wait_num,
    intercept_num = r.intercept_num + excluded.intercept_num`;

export const reports0018: Migration = {
  async up(db) {
    await run(db, [
      `create table report_daily (
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
        intercept_num integer not null default 0,
        primary key (account_id, day, smstype, paytype, inter)
      )`,
      // an agent's report reads its sub-accounts' rows of the range from this index alone (index-only scan)
      `create index report_daily_agent on report_daily (agent_id, day) include (account_id, smstype, paytype, inter, send_num, charge_total, success_num, unknown_num, fail_num, wait_num, intercept_num)`,
      `create function report_daily_ins() returns trigger language plpgsql as $f$
       begin
         ${UPSERT('select n.*, 1 as sgn from report_new n')};
         return null;
       end $f$`,
      `create function report_daily_del() returns trigger language plpgsql as $f$
       begin
         ${UPSERT('select o.*, -1 as sgn from report_old o')};
         return null;
       end $f$`,
      // only rows whose counted columns changed (claims and lease moves change none)
      `create function report_daily_upd() returns trigger language plpgsql as $f$
       begin
         ${UPSERT(`select n.*, 1 as sgn from report_new n join report_old o on o.id = n.id
                     where o.state <> n.state or o.pieces <> n.pieces or o.carrier <> n.carrier or o.created_at <> n.created_at or o.task_id <> n.task_id or o.account_id <> n.account_id
                   union all
                   select o.*, -1 as sgn from report_old o join report_new n on o.id = n.id
                     where o.state <> n.state or o.pieces <> n.pieces or o.carrier <> n.carrier or o.created_at <> n.created_at or o.task_id <> n.task_id or o.account_id <> n.account_id`)};
         return null;
       end $f$`,
      `create trigger sms_messages_report_ins after insert on sms_messages referencing new table as report_new for each statement execute function report_daily_ins()`,
      `create trigger sms_messages_report_upd after update on sms_messages referencing old table as report_old new table as report_new for each statement execute function report_daily_upd()`,
      `create trigger sms_messages_report_del after delete on sms_messages referencing old table as report_old for each statement execute function report_daily_del()`,
      // the messages already there
      UPSERT('select m.*, 1 as sgn from sms_messages m'),
    ]);
  },
  async down(db) {
    await run(db, [
      'drop trigger sms_messages_report_del on sms_messages',
      'drop trigger sms_messages_report_upd on sms_messages',
      'drop trigger sms_messages_report_ins on sms_messages',
      'drop function report_daily_upd()',
      'drop function report_daily_del()',
      'drop function report_daily_ins()',
      'drop table report_daily',
    ]);
  },
};
