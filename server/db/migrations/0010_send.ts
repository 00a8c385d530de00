/**
 * Send acceptance (server/modules/send): the submit lock shared by every API process, whether a
 * task has been charged yet (timed tasks accepted without the credit check are charged when they
 * fire), and the carrier of every pool movement (so that returned pieces go back to the pools
 * that paid for that carrier). Rules: docs/api-send.md.
 *
 * sms_messages.task_id loses its foreign key: message rows are written only by the acceptance, in
 * the same transaction as their task (which is never deleted, a cancelled one keeps its row), and
 * the per-row check of the key was ~40% of the time of a 60,000-number acceptance
 * (bench/send-accept.ts).
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

export const send0010: Migration = {
  async up(db) {
    await run(db, [
      // one row per sending account: the last accepted submit (3秒内不可重复提交)
      `create table send_submit_locks (
        account_id integer primary key references accounts(id),
        last_at timestamptz not null
      )`,
      // 1 charged at acceptance, 0 deferred (isCheckAvailableCredit 0: charged when it fires), 2 billing failed
      `alter table sms_tasks add column charge_state smallint not null default 1`,
      // the carrier of the messages a movement charged or returned (0: not about messages)
      `alter table pool_movements add column carrier smallint not null default 0`,
      `alter table sms_messages drop constraint if exists sms_messages_task_id_fkey`,
    ]);
  },
  async down(db) {
    await run(db, [
      'alter table sms_messages add constraint sms_messages_task_id_fkey foreign key (task_id) references sms_tasks(id)',
      'alter table pool_movements drop column carrier',
      'alter table sms_tasks drop column charge_state',
      'drop table send_submit_locks',
    ]);
  },
};
