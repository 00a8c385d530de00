/**
 * Migration 0052: sms_messages becomes a table partitioned by month of id, on a database holding
 * every demo state (migrated to 0051 and seeded): every row, id and report figure unchanged, the
 * old table attached as the legacy partition with its indexes (attached, not built twice), this
 * month and the next two ahead, new ids in this month's range; down makes it one table again.
 */
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '../../server/db/migrations';
import { seed } from '../../server/db/seed';
import { MONTH_SPAN, monthIndex, partitionName } from '../../server/modules/retention/partitions';
import { backends, scratchDb } from './harness';

const rows = async (db: Kysely<any>) =>
  (await sql<{ r: string }>`select m::text as r from sms_messages m order by id`.execute(db)).rows.map((x) => x.r);
const figures = async (db: Kysely<any>) =>
  (
    await sql<{
      r: string;
    }>`select concat_ws(',', sum(send_num), sum(success_num), sum(fail_num), sum(wait_num)) as r from report_rows`.execute(
      db,
    )
  ).rows[0].r;
const kind = async (db: Kysely<any>) =>
  (await sql<{ k: string }>`select relkind::text as k from pg_class where oid = 'sms_messages'::regclass`.execute(db))
    .rows[0].k;

describe.each(backends)('migration 0052: send records in monthly partitions (%s)', (backend) => {
  it('converts a seeded database without changing a row; down makes one table again', async () => {
    const scratch = await scratchDb(backend);
    const h = await scratch.open();
    const s = scratch.migrationSchema;
    try {
      await migrateTo(h.db, '0051_retention_indexes', s);
      await seed(h.db);
      const before = await rows(h.db);
      const report = await figures(h.db);
      expect(before.length).toBeGreaterThan(20);

      await migrateTo(h.db, '0052_sms_messages_partitions', s);
      expect(await kind(h.db)).toBe('p');
      expect(await rows(h.db)).toEqual(before);
      expect(await figures(h.db)).toBe(report);
      const month = monthIndex(new Date());
      const parts = (
        await sql<{ name: string; n: number }>`
          select c.relname as name, (select count(*)::int from pg_index x where x.indrelid = c.oid) as n
          from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'sms_messages'::regclass order by 1`.execute(
          h.db,
        )
      ).rows;
      expect(parts.map((p) => p.name)).toEqual([
        partitionName(month),
        partitionName(month + 1),
        partitionName(month + 2),
        'sms_messages_legacy',
      ]);
      // the legacy partition keeps its 6 indexes, each attached to the table's (none built twice)
      expect(parts.every((p) => p.n === 6)).toBe(true);
      expect(
        (await sql<{ n: number }>`select count(*)::int as n from sms_messages_legacy`.execute(h.db)).rows[0].n,
      ).toBe(before.length);

      // a new message: this month's range; the statement triggers still keep the report figures
      const fresh = (
        await sql<{ id: number }>`insert into sms_messages (task_id, account_id, phone)
          select id, account_id, '13800138000' from sms_tasks order by id limit 1 returning id`.execute(h.db)
      ).rows[0].id;
      expect(Math.floor(fresh / MONTH_SPAN)).toBe(month);
      expect(await figures(h.db)).not.toBe(report);
      const after = await rows(h.db);

      await migrateTo(h.db, '0051_retention_indexes', s);
      expect(await kind(h.db)).toBe('r');
      expect(await rows(h.db)).toEqual(after);
      await migrateToLatest(h.db, s);
      expect(await kind(h.db)).toBe('p');
      expect(await rows(h.db)).toEqual(after);
    } finally {
      await h.close();
      await scratch.remove();
    }
  });
});
