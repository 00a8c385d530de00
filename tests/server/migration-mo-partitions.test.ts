/**
 * Migration 0055: sms_mo becomes a table partitioned by month of received_at, on a seeded database
 * holding uplinks in several months and a redelivery stored once: every row and id unchanged, a
 * partition for each month from the oldest row's to two ahead, ids going on after the highest, the
 * redelivery still recognised (sms_mo_refs) after the conversion, the moved rows not queued for the
 * API pull again; down makes one table again with its unique reference.
 */
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '../../server/db/migrations';
import { seed } from '../../server/db/seed';
import { AHEAD, monthIndex, monthStart, SMS_MO } from '../../server/modules/retention/partitions';
import { storeMo } from '../../server/modules/dispatch/mo';
import { backends, scratchDb } from './harness';

const rows = async (db: Kysely<any>) =>
  (await sql<{ r: string }>`select m::text as r from sms_mo m order by id`.execute(db)).rows.map((x) => x.r);
const kind = async (db: Kysely<any>) =>
  (await sql<{ k: string }>`select relkind::text as k from pg_class where oid = 'sms_mo'::regclass`.execute(db)).rows[0]
    .k;
const count = async (db: Kysely<any>, table: string) =>
  (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db)).rows[0].n;

describe.each(backends)('migration 0055: uplinks in monthly partitions (%s)', (backend) => {
  it('converts uplinks of several months without losing a row; ids go on; a redelivery stays once; down', async () => {
    const scratch = await scratchDb(backend);
    const h = await scratch.open();
    const s = scratch.migrationSchema;
    try {
      await migrateTo(h.db, '0054_partition_report_triggers', s);
      await seed(h.db);
      const month = monthIndex(new Date());
      const client1 = (await sql<{ id: number }>`select id from accounts where clientid = 'client1'`.execute(h.db))
        .rows[0].id;
      // uplinks 7, 5 and 1 months back (the middle of each), one of them delivered twice
      const uplink = (months: number, ref: string) =>
        sql`insert into sms_mo (account_id, phone, content, dest, smsc_ref, received_at)
          values (${client1}, '13800138000', ${`${months} 个月前`}, '106900', ${ref},
            ${new Date(monthStart(month - months).getTime() + 14 * 86_400_000).toISOString()}::timestamptz)
          on conflict (smsc_ref) do nothing`.execute(h.db);
      await uplink(7, 'r-7');
      await uplink(5, 'r-5');
      await uplink(5, 'r-5');
      await uplink(1, 'r-1');
      // the API pull queue (needmo 3) holds what was inserted so far
      await sql`update accounts set needmo = 3 where id = ${client1}`.execute(h.db);
      const queued = await count(h.db, 'api_pull');
      const before = await rows(h.db);
      expect(before.length).toBeGreaterThan(4);
      expect(before.filter((r) => r.includes('r-5'))).toHaveLength(1);
      const highest = Math.max(
        ...(await sql<{ id: string }>`select id::text as id from sms_mo`.execute(h.db)).rows.map((r) => Number(r.id)),
      );

      await migrateToLatest(h.db, s);
      expect(await kind(h.db)).toBe('p');
      expect(await rows(h.db)).toEqual(before);
      expect(await count(h.db, 'api_pull')).toBe(queued);
      const names = (await SMS_MO.partitions(h.db)).map((p) => p.name);
      const want: string[] = [];
      for (let m = month - 7; m <= month + AHEAD; m++) want.push(SMS_MO.name(m));
      expect(names).toEqual(want);
      // each row in its month's partition
      expect(await count(h.db, SMS_MO.name(month - 7))).toBe(1);
      expect(await count(h.db, SMS_MO.name(month - 5))).toBe(1);
      expect(await count(h.db, 'sms_mo_refs')).toBe(3);

      // through the dispatcher's store: the redelivery stays once, a new uplink gets the next id and is queued
      const stored = await storeMo(h.db, '106900', [
        { from: '13800138000', to: `106900${client1}`, text: '又一次', smscRef: 'r-5', receivedAt: new Date() },
        { from: '13800138000', to: `106900${client1}`, text: '新的', smscRef: 'r-new', receivedAt: new Date() },
        { from: '13800138000', to: `106900${client1}`, text: '新的', smscRef: 'r-new', receivedAt: new Date() },
      ]);
      expect(stored.map((m) => m.content)).toEqual(['新的']);
      expect(Number(stored[0].id)).toBeGreaterThan(highest);
      expect(await count(h.db, 'api_pull')).toBe(queued + 1);
      const after = await rows(h.db);
      expect(after).toHaveLength(before.length + 1);

      await migrateTo(h.db, '0054_partition_report_triggers', s);
      expect(await kind(h.db)).toBe('r');
      expect(await rows(h.db)).toEqual(after);
      const again = await sql<{ id: string }>`insert into sms_mo (account_id, phone, content, smsc_ref)
        values (${client1}, '13800138000', 'x', 'r-new') on conflict (smsc_ref) do nothing returning id::text as id`.execute(
        h.db,
      );
      expect(again.rows).toEqual([]);
      await migrateToLatest(h.db, s);
      expect(await kind(h.db)).toBe('p');
      expect(await rows(h.db)).toEqual(after);
    } finally {
      await h.close();
      await scratch.remove();
    }
  });
});
