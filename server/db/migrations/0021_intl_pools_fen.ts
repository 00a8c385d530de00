/**
 * International pools count money in 分 (send/billing.ts INTL_POOL_FEN): a pool of product type 2
 * bought by the yuan held its yuan in `total` / `remaining` before this version. The pools and
 * their movements are scaled by 100 so that a database of the previous version keeps the same
 * money (sum(pieces) per pool = remaining stays true). Down divides again (integer division: what
 * is not whole yuan is rounded down).
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

const INTL = 2;

async function scale(db: Kysely<unknown>, op: '* 100' | '/ 100') {
  await sql
    .raw(`update product_pools set total = total ${op}, remaining = remaining ${op} where product_type = ${INTL}`)
    .execute(db);
  await sql
    .raw(
      `update pool_movements set pieces = pieces ${op}, remaining_after = remaining_after ${op}
       where pool_id in (select id from product_pools where product_type = ${INTL})`,
    )
    .execute(db);
}

export const intlPoolsFen0021: Migration = {
  async up(db) {
    await scale(db, '* 100');
  },
  async down(db) {
    await scale(db, '/ 100');
  },
};
