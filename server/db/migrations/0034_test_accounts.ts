/**
 * Test accounts (issue 26 item 3; docs/api-subaccounts.md "Test accounts"):
 *
 * - `accounts.test_expires_at`: set on a test account (null: an ordinary account). After it the
 *   account sends nothing and is frozen; until the agent converts it (the column back to null) it
 *   cannot be recharged or buy.
 * - `test_accounts`: one row per test account ever created, with its agent and the gift pieces the
 *   platform granted: the per-agent bound and the platform's daily gift budget are counted here,
 *   and the operator reads it (`npm run cli -- test-accounts`).
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

export const testAccounts0034: Migration = {
  async up(db) {
    await run(db, [
      `alter table accounts add column test_expires_at timestamptz`,
      `create table test_accounts (
        account_id integer primary key references accounts(id) on delete cascade,
        agent_id integer not null references accounts(id) on delete cascade,
        gift_pool_id integer,
        gift_pieces integer not null default 0,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        converted_at timestamptz
      )`,
      `create index test_accounts_agent on test_accounts (agent_id, created_at)`,
      `create index test_accounts_created on test_accounts (created_at)`,
    ]);
  },
  async down(db) {
    await run(db, [`drop table test_accounts`, `alter table accounts drop column test_expires_at`]);
  },
};
