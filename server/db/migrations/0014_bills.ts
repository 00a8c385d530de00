/**
 * Own bill and credit alarm (server/modules/bills, docs/api-bills.md).
 *
 * - `credit_alarms`: an agent's 额度提醒 (alarm amount in yuan, 0 = off; the phones, comma
 *   separated) and whether it is armed (the balance is at or above the amount, so the next fall
 *   below sends one SMS).
 * - `credit_alarm_events`: one row per crossing, written by the trigger below in the SAME
 *   transaction as the balance change that crossed; the alarm job (any process, FOR UPDATE SKIP
 *   LOCKED) turns each into a system SMS task and records its task id.
 * - trigger `accounts_credit_alarm` (after update of balance): balance < amount and armed → disarm
 *   + event; balance >= amount and disarmed → re-arm. The accounts row is already locked by the
 *   update, so concurrent balance changes of one account decide one after the other: exactly one
 *   event per crossing, whichever process or code path (ledger, CLI, purchases) changed the balance.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

export const bills0014: Migration = {
  async up(db) {
    await run(db, [
      `create table credit_alarms (
        account_id integer primary key references accounts(id),
        alarm_amount numeric(14,2) not null default 0 check (alarm_amount >= 0 and alarm_amount <= 1000000),
        alarm_phones text not null default '',
        armed boolean not null default true,
        last_alarm_at timestamptz,
        updated_at timestamptz not null default now()
      )`,
      `create table credit_alarm_events (
        id integer generated always as identity primary key,
        account_id integer not null references accounts(id),
        balance numeric(14,2) not null,
        alarm_amount numeric(14,2) not null,
        phones text not null,
        created_at timestamptz not null default now(),
        task_id integer references sms_tasks(id),
        sent_at timestamptz
      )`,
      `create index credit_alarm_events_pending on credit_alarm_events (id) where sent_at is null`,
      `create index credit_alarm_events_account on credit_alarm_events (account_id, id desc)`,
      `create function credit_alarm_on_balance() returns trigger language plpgsql as $$
      declare
        a credit_alarms%rowtype;
      begin
        select * into a from credit_alarms where account_id = new.id and alarm_amount > 0 for update;
        if not found then
          return null;
        end if;
        if new.balance < a.alarm_amount then
          if a.armed then
            update credit_alarms set armed = false, last_alarm_at = now() where account_id = new.id;
            insert into credit_alarm_events (account_id, balance, alarm_amount, phones)
              values (new.id, new.balance, a.alarm_amount, a.alarm_phones);
          end if;
        elsif not a.armed then
          update credit_alarms set armed = true where account_id = new.id;
        end if;
        return null;
      end
      $$`,
      `create trigger accounts_credit_alarm after update of balance on accounts
        for each row when (old.balance is distinct from new.balance) execute function credit_alarm_on_balance()`,
    ]);
  },
  async down(db) {
    await run(db, [
      'drop trigger accounts_credit_alarm on accounts',
      'drop function credit_alarm_on_balance()',
      'drop table credit_alarm_events',
      'drop table credit_alarms',
    ]);
  },
};
