/**
 * Migration 0050: the traffic tables' ids become bigint on a database holding every demo state
 * (migrated to 0049 and seeded), without losing or changing a row; new ids continue the sequences
 * and may pass 2^32; down brings the integer columns back while the ids fit.
 */
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateTo } from '../../server/db/migrations';
import { seed } from '../../server/db/seed';
import { backends, scratchDb } from './harness';

const TABLES = ['sms_messages', 'sms_mo', 'push_outbox', 'api_pull', 'smpp_receipts', 'smpp_mo'];

/** every row of the tables, as text, in id order: what must not change */
async function snapshot(db: Kysely<any>): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of [...TABLES, 'dispatch_queue', 'sms_inflight', 'sms_requeue', 'sms_message_parts'])
    out[t] = (await sql<{ r: string }>`select t::text as r from ${sql.table(t)} t order by 1`.execute(db)).rows.map(
      (x) => x.r,
    );
  return out;
}

async function columnType(db: Kysely<any>, schema: string, table: string, column: string) {
  const r = await sql<{ t: string }>`select data_type as t from information_schema.columns
    where table_schema = ${schema} and table_name = ${table} and column_name = ${column}`.execute(db);
  return r.rows[0]?.t;
}

describe.each(backends)('migration 0050: 64-bit traffic ids (%s)', (backend) => {
  it('converts a seeded database without losing a row; new ids pass 2^32; down while they fit', async () => {
    const scratch = await scratchDb(backend);
    const h = await scratch.open();
    const s = scratch.migrationSchema;
    try {
      await migrateTo(h.db, '0049_operator_login_as', s);
      await seed(h.db);
      const before = await snapshot(h.db);
      expect(before.sms_messages.length).toBeGreaterThan(20);
      expect(before.sms_mo.length).toBeGreaterThan(0);
      expect(await columnType(h.db, s, 'sms_messages', 'id')).toBe('integer');

      await migrateTo(h.db, '0050_traffic_ids_bigint', s);
      expect(await snapshot(h.db)).toEqual(before);
      for (const [t, c] of [
        ['sms_messages', 'id'],
        ['sms_inflight', 'message_id'],
        ['dispatch_queue', 'next_id'],
        ['smpp_receipts', 'message_id'],
        ['api_pull', 'ref_id'],
      ])
        expect(await columnType(h.db, s, t, c)).toBe('bigint');

      // the sequence goes on after the last id, then past 2^32
      const task = (await sql<{ id: number }>`select task_id as id from sms_messages limit 1`.execute(h.db)).rows[0].id;
      const add = async () =>
        (
          await sql<{ id: number }>`insert into sms_messages (task_id, account_id, phone)
            select ${task}, account_id, '13800138000' from sms_tasks where id = ${task} returning id`.execute(h.db)
        ).rows[0].id;
      const maxBefore = Math.max(
        ...(await sql<{ id: number }>`select id from sms_messages`.execute(h.db)).rows.map((r) => r.id),
      );
      expect(await add()).toBe(maxBefore + 1);
      await sql`select setval(pg_get_serial_sequence('sms_messages', 'id'), ${2 ** 32 + 7})`.execute(h.db);
      const far = await add();
      expect(far).toBe(2 ** 32 + 8);
      expect(typeof far).toBe('number');

      await sql`delete from sms_messages where id = ${far}`.execute(h.db);
      await sql`select setval(pg_get_serial_sequence('sms_messages', 'id'), ${maxBefore + 1})`.execute(h.db);
      await migrateTo(h.db, '0049_operator_login_as', s);
      expect(await columnType(h.db, s, 'sms_messages', 'id')).toBe('integer');
      expect((await snapshot(h.db)).sms_mo).toEqual(before.sms_mo);
    } finally {
      await h.close();
      await scratch.remove();
    }
  });
});
