/**
 * Unsubscribe and blacklist (issue 27; docs/api-blacklist.md): `blacklist` holds an account's
 * blacklisted numbers (account_id set) and the platform's (account_id null, managed by operators
 * through the CLI), one row per owner and number (`nulls not distinct`: one platform row per
 * number). `source` is enums/blacklist-source.json (1 退订回复, 2 手动添加, 3 平台添加).
 * Marketing sends skip the numbers of the sending account's and the platform's blacklist at
 * acceptance: `sms_tasks.blacklist_num` counts them (not sent, not charged).
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const blacklist0036: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create table blacklist (
      id integer generated always as identity primary key,
      account_id integer references accounts(id) on delete cascade,
      phone text not null check (length(phone) between 1 and 32),
      source smallint not null check (source in (1, 2, 3)),
      remark text not null default '',
      created_by text not null default '',
      created_at timestamptz not null default now()
    )`.execute(db);
    // the owner's numbers (the console's list) and the acceptance's look-up by (owner, number)
    await sql`create unique index blacklist_owner_phone on blacklist (account_id, phone) nulls not distinct`.execute(
      db,
    );
    await sql`create index blacklist_owner_created on blacklist (account_id, created_at desc, id desc)`.execute(db);
    await sql`alter table sms_tasks add column blacklist_num integer not null default 0`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`alter table sms_tasks drop column blacklist_num`.execute(db);
    await sql`drop table blacklist`.execute(db);
  },
};
