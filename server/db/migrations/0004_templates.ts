/**
 * SMS templates (短信模板): the smart templates of sub-accounts (owner_id = the sub-account,
 * creator_id = whoever created it, the agent or the sub-account) and the platform's general
 * templates (owner_id null, always approved).
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const templatesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const s of [
      `create table templates (
        id integer generated always as identity (start with 100001) primary key,
        owner_id integer references accounts(id) on delete cascade,
        sms_type smallint not null check (sms_type in (10, 11)),
        template_type smallint not null check (template_type in (0, 1)),
        business smallint not null default 0 check (business in (0, 1)),
        smstype smallint,
        sign text not null default '',
        content text not null,
        variable_count integer not null default 0 check (variable_count between 0 and 30),
        state smallint not null default 0 check (state in (0, 1, 3)),
        remark text not null default '',
        creator_id integer references accounts(id) on delete set null,
        order_no integer not null default 0,
        create_time timestamptz not null default now(),
        update_time timestamptz not null default now(),
        check (owner_id is not null or state = 1)
      )`,
      `create index templates_owner on templates (owner_id, create_time desc)`,
      `create index templates_general on templates (order_no) where owner_id is null`,
    ])
      await sql.raw(s).execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql.raw('drop table templates').execute(db);
  },
};
