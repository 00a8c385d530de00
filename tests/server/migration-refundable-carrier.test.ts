/**
 * Migration 0024: existing tasks get `refundable_pieces_by_carrier` counted from their messages
 * in a refundable state (billing/billing.ts REFUNDABLE_STATES), element carrier + 1; other states and
 * other tasks count nothing; down drops the column.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateTo } from '../../server/db/migrations';
import { backends, scratchDb } from './harness';

describe.each(backends)('migration 0024: refundable pieces per carrier (%s)', (backend) => {
  it('counts the refundable messages of existing tasks per carrier', async () => {
    const scratch = await scratchDb(backend);
    const h = await scratch.open();
    const s = scratch.migrationSchema;
    try {
      await migrateTo(h.db, '0023_task_chunks', s);
      const db = h.db;
      const a = (
        await sql<{
          id: number;
        }>`insert into accounts (clientid, user_type, password_hash, name) values ('mig24', '2', 'x', '迁移') returning id`.execute(
          db,
        )
      ).rows[0].id;
      const task = async () =>
        (
          await sql<{
            id: number;
          }>`insert into sms_tasks (uid, account_id, creator_id, payer_id, charge_mode, smstype, content, send_time)
            values (${`m24${randomBytes(4).toString('hex')}`}, ${a}, ${a}, ${a}, 1, 0, '【云讯通】测试', now()) returning id`.execute(
            db,
          )
        ).rows[0].id;
      const t1 = await task();
      const t2 = await task();
      // (carrier, pieces, state)
      const msgs: [number, number, number, number][] = [
        [t1, 1, 2, 6],
        [t1, 1, 1, 4],
        [t1, 2, 3, 8],
        [t1, 3, 1, 3],
        [t1, 4, 2, 14],
        [t1, 0, 1, 11],
        [t1, 2, 5, 1],
        [t2, 3, 1, 0],
      ];
      for (const [t, carrier, pieces, state] of msgs)
        await sql`insert into sms_messages (task_id, account_id, phone, carrier, pieces, state) values (${t}, ${a}, '13800138000', ${carrier}, ${pieces}, ${state})`.execute(
          db,
        );
      await migrateTo(db, '0024_refundable_by_carrier', s);
      const r = await sql<{
        id: number;
        c: number[];
      }>`select id, refundable_pieces_by_carrier as c from sms_tasks order by id`.execute(db);
      expect(r.rows.map((x) => [x.id, x.c])).toEqual([
        [t1, [1, 3, 3, 0, 2]],
        [t2, [0, 0, 0, 0, 0]],
      ]);
      await migrateTo(db, '0023_task_chunks', s);
      const cols = await sql<{
        n: number;
      }>`select count(*)::int as n from information_schema.columns where table_schema = ${s} and table_name = 'sms_tasks' and column_name = 'refundable_pieces_by_carrier'`.execute(
        db,
      );
      expect(cols.rows[0].n).toBe(0);
    } finally {
      await h.close();
      await scratch.remove();
    }
  });
});
