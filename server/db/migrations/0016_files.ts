/**
 * The file service of large uploads (server/modules/files, docs/api-files.md): one row per
 * (owner, MD5, size) upload and one row per chunk stored. A chunk row is written only after its
 * file has been renamed into place, so a row always means a complete chunk; the merged file gets
 * its `stored_name` (the `importFilePath` token) only after it was verified against the MD5 and
 * renamed into place, so nothing half-written is ever used.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

export const files0016: Migration = {
  async up(db) {
    await run(db, [
      `create table file_uploads (
        id serial primary key,
        account_id integer not null references accounts(id),
        file_md5 text not null,
        file_size integer not null,
        file_name text not null,
        chunk_size integer not null,
        chunk_count integer not null,
        state smallint not null default 0,
        stored_name text,
        merge_started_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`,
      `create unique index file_uploads_owner_md5 on file_uploads (account_id, file_md5, file_size)`,
      `create unique index file_uploads_stored on file_uploads (stored_name)`,
      `create table file_upload_chunks (
        upload_id integer not null references file_uploads(id) on delete cascade,
        idx integer not null,
        size integer not null,
        primary key (upload_id, idx)
      )`,
    ]);
  },
  async down(db) {
    await run(db, ['drop table file_upload_chunks', 'drop table file_uploads']);
  },
};
