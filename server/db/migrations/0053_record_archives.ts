/**
 * Archives of send-record months (issue 40, docs/api-records.md "Archive"): before a month's
 * partition is dropped past RECORDS_KEEP_MONTHS, its rows are written to a compressed CSV file
 * (server/modules/retention/archive.ts); this table lists those files for the operators
 * (`npm run cli -- archives`) and for the restore (`npm run cli -- archive-restore`).
 */
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const recordArchives0053: Migration = {
  async up(db) {
    await sql`create table record_archives (
      partition text primary key,
      file text not null,
      rows bigint not null,
      bytes bigint not null,
      sha256 text not null,
      columns text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  },
  async down(db) {
    await sql`drop table record_archives`.execute(db);
  },
};
