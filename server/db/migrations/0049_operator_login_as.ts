/**
 * An operator's log-in-as (issue 39, docs/api-operator.md "Customers"): an operator never acts as
 * an agent but through the accounts' existing log-in-as, audited. `login_as_tokens` (0006) held
 * the agent that issued each one-time token for one of its sub-accounts; now a token is issued
 * either by an agent (`agent_id`, for its own sub-account: as before) or by an operator
 * (`operator_id`, for any active account, written with its audit row `account.login-as` in the
 * same transaction). Exactly one of the two is set. A token of an operator removed since is
 * deleted with it; redeeming checks that its operator is still active.
 */
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const operatorLoginAs0049: Migration = {
  async up(db) {
    await sql`alter table login_as_tokens alter column agent_id drop not null`.execute(db);
    await sql`alter table login_as_tokens add column operator_id integer references operators(id) on delete cascade`.execute(
      db,
    );
    await sql`alter table login_as_tokens add constraint login_as_tokens_issuer check ((agent_id is null) <> (operator_id is null))`.execute(
      db,
    );
  },
  async down(db) {
    await sql`delete from login_as_tokens where operator_id is not null`.execute(db);
    await sql`alter table login_as_tokens drop constraint login_as_tokens_issuer`.execute(db);
    await sql`alter table login_as_tokens drop column operator_id`.execute(db);
    await sql`alter table login_as_tokens alter column agent_id set not null`.execute(db);
  },
};
