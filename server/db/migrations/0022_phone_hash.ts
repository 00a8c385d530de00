/**
 * The record filter by number (`m.phone = $1`, docs/api-records.md) and the uplink's look-up of
 * the account that last sent to a number (dispatch/mo.ts) are equality look-ups: the btree
 * `sms_messages_phone` (phone, created_at desc, id desc) of 0011 becomes a hash index on phone.
 * Numbers arrive in random order, so every insert of the btree landed on a different leaf (page
 * splits, a full-page image per leaf after each checkpoint): it was the dearest of the table's
 * indexes to keep, ~8 µs a message of an accepted task; the hash index costs about half, and a
 * number's few rows are sorted by time after the look-up.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

export const phoneHash0022: Migration = {
  async up(db) {
    await run(db, [
      'drop index sms_messages_phone',
      'create index sms_messages_phone on sms_messages using hash (phone)',
    ]);
  },
  async down(db) {
    await run(db, [
      'drop index sms_messages_phone',
      'create index sms_messages_phone on sms_messages (phone, created_at desc, id desc)',
    ]);
  },
};
