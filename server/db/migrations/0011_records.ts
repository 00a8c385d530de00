/**
 * Send-record queries at 10,000,000 rows (docs/api-records.md, bench/send-records.ts):
 *
 * - `sms_messages_account` (account_id, created_at desc, id desc) of 0008 is replaced by the same
 *   key with the record filters' columns INCLUDEd: a page and its (capped) count filtered by state,
 *   carrier, province or city read the index only, never the heap rows they discard. Same key, so
 *   every query the old index served is served alike; one index, not two, for the pipeline to keep.
 * - `sms_messages_state` (account_id, state, created_at desc, id desc) INCLUDE (carrier, province_id,
 *   city_id, task_id): a state filter (the page's most used) reads only the rows in those states,
 *   one ordered range per (account, state), whatever the share of the state.
 * - `sms_messages_province` (account_id, province_id, created_at desc, id desc) INCLUDE (state,
 *   carrier, city_id, task_id): a province or city filter (a city id carries its province:
 *   id / 10000) reads that province's rows only.
 * - `sms_messages_phone` (phone, created_at desc, id desc): the record filter by number.
 *
 * Cost: three more indexes than 0008 on the message table (every state change of a message already
 * rewrites its index entries: state and lease columns are indexed, so no update is HOT).
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

export const records0011: Migration = {
  async up(db) {
    await run(db, [
      `create index sms_messages_record on sms_messages (account_id, created_at desc, id desc) include (state, carrier, province_id, city_id, task_id)`,
      `drop index sms_messages_account`,
      `create index sms_messages_state on sms_messages (account_id, state, created_at desc, id desc) include (carrier, province_id, city_id, task_id)`,
      `create index sms_messages_province on sms_messages (account_id, province_id, created_at desc, id desc) include (state, carrier, city_id, task_id)`,
      `create index sms_messages_phone on sms_messages (phone, created_at desc, id desc)`,
    ]);
  },
  async down(db) {
    await run(db, [
      'drop index sms_messages_phone',
      'drop index sms_messages_province',
      'drop index sms_messages_state',
      'create index sms_messages_account on sms_messages (account_id, created_at desc, id desc)',
      'drop index sms_messages_record',
    ]);
  },
};
