/**
 * Signs (短信签名报备) and the failed rows of each account's last batch import.
 *
 * - signs.account_id: the account the sign belongs to (a sub-account, or an agent's own account);
 *   clientid is kept beside it for the list and the export.
 * - state: 0 待审核, 1 审核通过, 2 审核不通过 (cause holds the reason), 4 已删除.
 * - one live (not deleted) sign per account and text (signs_live_unique).
 * - the list is filtered by owner + date range (signs_account_time) and by state.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

export const signsMigration: Migration = {
  async up(db) {
    await run(db, [
      `create table signs (
        id integer generated always as identity primary key,
        account_id integer not null references accounts(id) on delete cascade,
        clientid text not null,
        sign text not null,
        remarks text not null default '',
        state smallint not null default 0 check (state in (0, 1, 2, 4)),
        cause text not null default '',
        creator_id integer references accounts(id) on delete set null,
        creator_name text not null default '',
        create_time timestamptz not null default now(),
        update_time timestamptz not null default now()
      )`,
      `create index signs_account_time on signs (account_id, create_time desc, id desc)`,
      `create index signs_state_account_time on signs (state, account_id, create_time desc)`,
      `create unique index signs_live_unique on signs (account_id, sign) where state <> 4`,
      `create table sign_import_results (
        account_id integer primary key references accounts(id) on delete cascade,
        agent_template boolean not null default false,
        failed_rows jsonb not null default '[]',
        created_at timestamptz not null default now()
      )`,
    ]);
  },
  async down(db) {
    await run(db, ['drop table sign_import_results', 'drop table signs']);
  },
};
