/**
 * Money abuse fixes (issue 23, items 1 and 3):
 *
 * - `pay_orders.sandbox`: the order was paid (or is payable) through the sandbox provider, i.e.
 *   with no money changing hands. Its credit is a normal ledger row (so the balance stays the sum
 *   of the ledger), but it is shown as 沙箱 everywhere and never counts as invoiceable
 *   (server/modules/invoice canAmountOf). Existing sandbox orders are marked from their provider.
 * - `credit_alarm_events.sms_count` / `skipped`: what the alarm job did with a crossing — the SMS
 *   it sent (counted against the daily system budget ALARM_SMS_DAILY) or why it sent none
 *   (`cooldown`, `budget`, `no-phone`), for the operator (`npm run cli -- alarm-stats`). Events
 *   already delivered are counted from their task.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

export const paySandbox0025: Migration = {
  async up(db) {
    await run(db, [
      `alter table pay_orders add column sandbox boolean not null default false`,
      `update pay_orders set sandbox = true where provider = 'sandbox'`,
      `alter table credit_alarm_events add column sms_count integer not null default 0`,
      `alter table credit_alarm_events add column skipped text not null default ''`,
      `update credit_alarm_events e set sms_count = t.submit_total from sms_tasks t where t.id = e.task_id`,
      `create index credit_alarm_events_sent on credit_alarm_events (sent_at) where sent_at is not null`,
    ]);
  },
  async down(db) {
    await run(db, [
      'drop index credit_alarm_events_sent',
      'alter table credit_alarm_events drop column skipped',
      'alter table credit_alarm_events drop column sms_count',
      'alter table pay_orders drop column sandbox',
    ]);
  },
};
