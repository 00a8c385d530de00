/**
 * Per-payer rounding carry of interface sends (issue 35 item 8; docs/api-send.md "Billing"): a
 * task is charged whole cents, so one message a task (an SMPP submit, an HTTP API call with one
 * number) paid the cent-ceiling of every message: three submits at 0.045 paid 0.15 for 0.135.
 *
 * - `accounts.charge_carry`: what the payer has paid over the exact cost of its carry-charged
 *   tasks (net of their returns), less than a cent but for a capped return (below): the next
 *   such charge takes it first. Read and written on the payer's row the ledger locks.
 * - `sms_tasks.carry_settled`: NULL for a task charged the console's way (the cent-ceiling of its
 *   cost, returns by `owedAmount`); for a task charged through the carry, the exact refundable
 *   cost already returned through it (its returns are exact, paid out in whole cents).
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const chargeCarry0042: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table accounts add column charge_carry numeric(12,4) not null default 0 check (charge_carry >= 0)`.execute(
      db,
    );
    await sql`alter table sms_tasks add column carry_settled numeric(16,4)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`alter table sms_tasks drop column carry_settled`.execute(db);
    await sql`alter table accounts drop column charge_carry`.execute(db);
  },
};
