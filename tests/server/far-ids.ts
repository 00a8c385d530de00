/**
 * Every test database hands out the ids of the traffic tables (messages, uplinks, queues; migration
 * 0050) past 2^32 once it is seeded, so that a 32-bit assumption anywhere (an `::int[]` cast, an
 * `int4` parameter schema, a `>>> 0`) fails a test instead of a reseller's seventh month. The demo
 * rows keep their small ids: both kinds are read side by side.
 */
import { sql, type Kysely } from 'kysely';

/** 2^32 + 10^9: above every 32-bit range, far below 2^53 */
export const FAR_ID = 2 ** 32 + 1_000_000_000;

const TABLES = ['sms_messages', 'sms_mo', 'push_outbox', 'api_pull', 'smpp_receipts', 'smpp_mo'];

export async function farIds(db: Kysely<any>): Promise<void> {
  // the sequences' own values (an sms_messages id is its month's base plus a number of the sequence, migration 0052)
  for (const t of TABLES)
    await sql`select setval(s, greatest(${FAR_ID}::bigint, coalesce(pg_sequence_last_value(s), 0)))
      from (select pg_get_serial_sequence(${t}, 'id')::regclass as s) x`.execute(db);
}
