/**
 * Migration 0021: international pools (product type 2) of a database of the previous version held
 * yuan; they hold 分 now. The pools and their movements are scaled, domestic pools are not, and
 * sum(movements) per pool = remaining stays true both ways.
 */
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateTo } from '../../server/db/migrations';
import { backends, scratchDb } from './harness';

async function pools(db: Kysely<any>) {
  const r = await sql<{ product_type: number; total: number; remaining: number; moved: string; last_after: number }>`
    select p.product_type, p.total, p.remaining, sum(m.pieces)::text as moved,
      (array_agg(m.remaining_after order by m.id desc))[1] as last_after
    from product_pools p join pool_movements m on m.pool_id = p.id group by p.id order by p.id`.execute(db);
  return r.rows.map((x) => [x.product_type, x.total, x.remaining, Number(x.moved), x.last_after]);
}

describe.each(backends)('migration 0021: international pools in 分 (%s)', (backend) => {
  it('scales the international pools and their movements by 100, and back', async () => {
    const scratch = await scratchDb(backend);
    const h = await scratch.open();
    const s = scratch.migrationSchema;
    try {
      await migrateTo(h.db, '0020_upload_chunks_on_disk', s);
      const db = h.db;
      const a = (
        await sql<{
          id: number;
        }>`insert into accounts (clientid, user_type, password_hash, name) values ('mig21', '2', 'x', '迁移') returning id`.execute(
          db,
        )
      ).rows[0].id;
      const pool = async (type: number, bought: number, used: number) => {
        const p = (
          await sql<{ id: number }>`insert into product_pools (account_id, product_type, total, remaining, due_time)
            values (${a}, ${type}, ${bought}, ${bought - used}, now() + interval '30 days') returning id`.execute(db)
        ).rows[0].id;
        await sql`insert into pool_movements (pool_id, pieces, remaining_after, kind) values (${p}, ${bought}, ${bought}, 1)`.execute(
          db,
        );
        await sql`insert into pool_movements (pool_id, pieces, remaining_after, kind) values (${p}, ${-used}, ${bought - used}, 2)`.execute(
          db,
        );
      };
      await pool(1, 1000, 30); // 行业 pieces
      await pool(2, 50, 7); // 国际 yuan
      expect(await pools(db)).toEqual([
        [1, 1000, 970, 970, 970],
        [2, 50, 43, 43, 43],
      ]);
      await migrateTo(db, '0021_intl_pools_fen', s);
      expect(await pools(db)).toEqual([
        [1, 1000, 970, 970, 970],
        [2, 5000, 4300, 4300, 4300],
      ]);
      await migrateTo(db, '0020_upload_chunks_on_disk', s);
      expect(await pools(db)).toEqual([
        [1, 1000, 970, 970, 970],
        [2, 50, 43, 43, 43],
      ]);
    } finally {
      await h.close();
      await scratch.remove();
    }
  });
});
