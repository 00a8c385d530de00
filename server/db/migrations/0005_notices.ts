/** Notices (公告): published by the operator (CLI), read by every logged-in account. */
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const notices0005: Migration = {
  async up(db) {
    await sql`create table notices (
      id integer generated always as identity primary key,
      notice_name text not null,
      notice_content text not null default '',
      is_top smallint not null default 0 check (is_top in (0, 1)),
      release_time timestamptz not null default now(),
      create_time timestamptz not null default now()
    )`.execute(db);
    await sql`create index notices_order on notices (is_top desc, release_time desc, id desc)`.execute(db);
  },
  async down(db) {
    await sql`drop table notices`.execute(db);
  },
};
