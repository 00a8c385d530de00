/**
 * A large task's messages beyond the first 10,000 are accepted as chunks and written to
 * sms_messages by the dispatch workers just after (docs/api-send.md "Large tasks").
 *
 * Writing a message row costs PostgreSQL ~25-30 µs with the record filters' indexes (state,
 * province, number, the account's time order, the task's state) and the report trigger: 1,000,000
 * rows were ~30 s inside the accepting transaction, and even a table without an index takes ~5 s.
 * A task's numbers are now stored in that transaction as chunks of up to 10,000 (one row each: the
 * numbers with their carrier, region, pieces, price and own text, compressed), so the acceptance
 * is one write of a few MB; a worker then turns one chunk at a time into message rows, in its own
 * transaction that deletes the chunk (never twice, never lost: a crash rolls both back).
 *
 * `sms_task_chunks`: (task_id, seq) primary key: a task's chunks are expanded in seq order, one at
 * a time (the claim takes only the lowest seq of a task, SKIP LOCKED), so its message ids grow in
 * the order of its numbers and the dispatch cursor (dispatch_queue.next_id) never passes an id that
 * is still being written. `payload` is gzip of the chunk's JSON (send/chunks.ts), stored as is
 * (EXTERNAL: PostgreSQL does not compress it again). A chunk whose expansion failed waits
 * (`next_at`, null until then; doubling from 1 s to an hour; `attempts`, `error` for the operator) and holds back
 * only its own task's later chunks.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

export const taskChunks0023: Migration = {
  async up(db) {
    await run(db, [
      `create table sms_task_chunks (
        task_id integer not null,
        seq integer not null,
        rows integer not null,
        payload bytea not null,
        created_at timestamptz not null default now(),
        next_at timestamptz,
        attempts integer not null default 0,
        error text not null default '',
        primary key (task_id, seq)
      )`,
      `alter table sms_task_chunks alter column payload set storage external`,
    ]);
  },
  async down(db) {
    await run(db, ['drop table sms_task_chunks']);
  },
};
