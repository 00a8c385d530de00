/**
 * The file service keeps no row per chunk (server/modules/files, docs/api-files.md): a chunk file
 * renamed into the upload's folder `DATA_DIR/uploads/<account>/c<md5>-<size>/` is the record that
 * it is complete, so storing a chunk costs no statement. Uploads unfinished at the upgrade start
 * their chunks again (their old `c<upload id>/` folders are removed by the stale-upload purge).
 * The purge looks for unfinished uploads by age: a partial index on updated_at.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

export const uploadChunksOnDisk0020: Migration = {
  async up(db) {
    await run(db, [
      `drop table file_upload_chunks`,
      `create index file_uploads_unfinished on file_uploads (updated_at) where state <> 2`,
    ]);
  },
  async down(db) {
    await run(db, [
      `drop index file_uploads_unfinished`,
      `create table file_upload_chunks (
        upload_id integer not null references file_uploads(id) on delete cascade,
        idx integer not null,
        size integer not null,
        primary key (upload_id, idx)
      )`,
    ]);
  },
};
