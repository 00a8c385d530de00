/**
 * 64-bit ids for everything that grows with traffic (issue 40, docs/api-records.md "Ids").
 *
 * `sms_messages.id` was an `integer` identity: 2,147,483,647 ids, which a reseller sending
 * 10 million messages a day uses up in about 7 months (the doors take part ids from the same
 * sequence, so sooner). The same holds for the queues and logs that take one row per message or
 * uplink. Their identities and every column that holds one of their ids become `bigint`; the
 * drivers read a bigint as a JavaScript number while it is a safe integer (2^53: some 2.5 million
 * years at that rate), see server/db/index.ts.
 *
 * Changing a column's type rewrites its table once (a few seconds per million rows); it is done
 * in the migration's transaction, so an interrupted migration changes nothing.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** [table, column] whose type becomes `type` (identities keep their sequence, widened with them). */
const COLUMNS: [string, string, 'bigint' | 'bigint[]'][] = [
  ['sms_messages', 'id', 'bigint'],
  ['sms_mo', 'id', 'bigint'],
  ['push_outbox', 'id', 'bigint'],
  ['api_pull', 'id', 'bigint'],
  ['api_pull', 'ref_id', 'bigint'],
  ['smpp_receipts', 'id', 'bigint'],
  ['smpp_receipts', 'message_id', 'bigint'],
  ['smpp_mo', 'id', 'bigint'],
  ['smpp_mo', 'mo_id', 'bigint'],
  ['dispatch_queue', 'next_id', 'bigint'],
  ['dispatch_leases', 'message_ids', 'bigint[]'],
  ['dispatch_leases', 'written', 'bigint[]'],
  ['sms_requeue', 'message_id', 'bigint'],
  ['sms_inflight', 'message_id', 'bigint'],
  ['sms_message_parts', 'message_id', 'bigint'],
  ['interface_part_ids', 'message_id', 'bigint'],
];

const IDENTITIES = COLUMNS.filter(([, c, t]) => c === 'id' && t === 'bigint').map(([t]) => t);

/** an identity's sequence keeps its own type: set to `type` with the column's */
async function sequenceAs(db: Kysely<unknown>, table: string, type: 'bigint' | 'integer') {
  const r = await sql<{ seq: string }>`select pg_get_serial_sequence(${table}, 'id') as seq`.execute(db);
  const max = type === 'bigint' ? '9223372036854775807' : '2147483647';
  await sql`alter sequence ${sql.raw(r.rows[0].seq)} as ${sql.raw(type)} maxvalue ${sql.raw(max)}`.execute(db);
}

export const trafficIdsBigint0050: Migration = {
  async up(db) {
    for (const [table, column, type] of COLUMNS)
      await sql`alter table ${sql.ref(table)} alter column ${sql.ref(column)} type ${sql.raw(type)}`.execute(db);
    for (const table of IDENTITIES) await sequenceAs(db, table, 'bigint');
  },
  async down(db) {
    for (const table of IDENTITIES) await sequenceAs(db, table, 'integer');
    for (const [table, column, type] of [...COLUMNS].reverse())
      await sql`alter table ${sql.ref(table)} alter column ${sql.ref(column)} type ${sql.raw(type === 'bigint' ? 'integer' : 'integer[]')}`.execute(
        db,
      );
  },
};
