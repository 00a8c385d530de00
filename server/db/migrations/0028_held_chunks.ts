/**
 * Large accepts that neither write a row per number they do not need nor hold the database
 * (issue 23 item 2; docs/api-send.md "Large tasks").
 *
 * - **Held chunks.** Until now only messages waiting for dispatch (state 0) beyond the first
 *   10,000 were stored as chunks; intercepted messages (11-13) and messages awaiting review (7)
 *   were all written as rows in the accepting transaction: an intercepted 1,000,000-number send
 *   wrote 1,000,000 rows for nothing. Now every state past the first 10,000 is stored as chunks.
 *   Chunks of messages awaiting review are expanded by the dispatch workers like those waiting
 *   for dispatch (review expands what is left first). Chunks of intercepted messages (final at
 *   once) are `hold`: the workers never expand them, a reader that needs the task's numbers does
 *   (the task's number list and export). `state` / `done_at` are the state and final time a
 *   chunk's rows get (0 / null for the chunks of messages waiting for dispatch, as before).
 * - **The reports count held chunks.** report_daily is the recount of sms_messages; a held chunk
 *   is messages that are not rows yet, so its figures are added when it is inserted and taken
 *   away when it is deleted (expanded into rows, which the message triggers add, or cancelled).
 *   Its rows share one task, one state, one acceptance time and one domestic / international
 *   side, so one chunk adds to one report row: `account_id`, `inter`, `rows`, `pieces_total`
 *   (Σ pieces, the charge_total of a state that is charged). Held chunks are only inserted and
 *   deleted, never updated (review expands a task before changing its messages).
 * - **Staging.** The chunks of a large accept are compressed and written before its transaction,
 *   in short transactions of their own, to `sms_chunk_staging` under a random token; the
 *   accepting transaction moves them to sms_task_chunks with one INSERT ... SELECT. So the accept
 *   holds the database (one connection, on the embedded PGlite everybody's) only for that copy
 *   and its first 10,000 rows, not for the compression of a million numbers. Staged rows of an
 *   accept that was refused are deleted by it; of a process that died meanwhile, after a day by
 *   purgeExpired.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

/** the report rows of a set of held chunks `c` (transition table), `sgn` +1 / -1 */
const CHUNK_UPSERT = (src: string, sgn: string) => `
  insert into report_daily as r (account_id, day, smstype, paytype, inter, agent_id, send_num, charge_total, success_num, unknown_num, fail_num, wait_num, intercept_num)
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
  group by 1, 2, 3, 4, 5, 6
  order by 1, 2, 3, 4, 5
  on conflict (account_id, day, smstype, paytype, inter) do update set
    send_num = r.send_num + excluded.send_num,
    charge_total = r.charge_total + excluded.charge_total,
    fail_num = r.fail_num + excluded.fail_num,
    wait_num = r.wait_num + excluded.wait_num,
    intercept_num = r.intercept_num + excluded.intercept_num`;

export const heldChunks0028: Migration = {
  async up(db) {
    await run(db, [
      `alter table sms_task_chunks add column hold boolean not null default false`,
      `alter table sms_task_chunks add column state smallint not null default 0`,
      `alter table sms_task_chunks add column done_at timestamptz`,
      `alter table sms_task_chunks add column account_id integer not null default 0`,
      `alter table sms_task_chunks add column inter smallint not null default 0`,
      `alter table sms_task_chunks add column pieces_total integer not null default 0`,
      // the workers' claim looks at the chunks they may expand only
      `create index sms_task_chunks_free on sms_task_chunks (task_id, seq) where not hold`,
      `create table sms_chunk_staging (
        token text not null,
        seq integer not null,
        rows integer not null,
        pieces_total integer not null,
        payload bytea not null,
        created_at timestamptz not null default now(),
        primary key (token, seq)
      )`,
      `alter table sms_chunk_staging alter column payload set storage external`,
      `create function report_daily_chunk_ins() returns trigger language plpgsql as $f$
       begin
         ${CHUNK_UPSERT('report_new', '1')};
         return null;
       end $f$`,
      `create function report_daily_chunk_del() returns trigger language plpgsql as $f$
       begin
         ${CHUNK_UPSERT('report_old', '-1')};
         return null;
       end $f$`,
      `create trigger sms_task_chunks_report_ins after insert on sms_task_chunks referencing new table as report_new for each statement execute function report_daily_chunk_ins()`,
      `create trigger sms_task_chunks_report_del after delete on sms_task_chunks referencing old table as report_old for each statement execute function report_daily_chunk_del()`,
    ]);
  },
  async down(db) {
    await run(db, [
      'drop trigger sms_task_chunks_report_del on sms_task_chunks',
      'drop trigger sms_task_chunks_report_ins on sms_task_chunks',
      'drop function report_daily_chunk_del()',
      'drop function report_daily_chunk_ins()',
      'drop table sms_chunk_staging',
      'drop index sms_task_chunks_free',
      'alter table sms_task_chunks drop column hold, drop column state, drop column done_at, drop column account_id, drop column inter, drop column pieces_total',
    ]);
  },
};
