/**
 * Products sold by the package (issue 27 item 6): `pack_size` is the pieces (yuan for an
 * international product) one package holds; a purchase of such a product is a whole number of
 * packages (购买数量 a multiple of pack_size), so 行业短信 10万条套餐 at its lower price cannot be
 * bought as one piece. NULL: any count (the spec's rule alone). The demo catalogue's packages
 * (named 1万条 / 10万条套餐 / 100元) get their sizes; so do the demo pools' prices, which were seeded
 * without one (剩余条数 showed 单价 0.0000; item 8).
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** the demo catalogue's package products (server/modules/purchase/seed.ts) */
export const DEMO_PACK_SIZES: Record<string, number> = {
  'HY-QW-1W': 10000,
  'HY-QW-10W': 100000,
  'YX-QW-1W': 10000,
  'YZM-QW-1W': 10000,
  'TZ-QW-1W': 10000,
  'GJ-QW-100': 100,
};
/** the price of the demo pools (server/modules/send/seed.ts, order_id DEMO<type><carrier><days>): agent1's discounted catalogue price of that type */
export const DEMO_POOL_PRICES: Record<number, string> = {
  0: '0.0428',
  1: '0.0495',
  2: '1.0000',
  3: '0.0456',
  4: '0.0437',
};

export const productPackSize0038: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table products add column pack_size integer check (pack_size is null or pack_size > 0)`.execute(db);
    for (const [code, size] of Object.entries(DEMO_PACK_SIZES)) {
      await sql`update products set pack_size = ${size} where product_code = ${code} and creator = 'admin'`.execute(db);
    }
    for (const [type, price] of Object.entries(DEMO_POOL_PRICES)) {
      await sql`update product_pools set unit_price = ${price} where product_type = ${Number(type)} and gift = 0 and unit_price = 0 and order_id like 'DEMO%'`.execute(
        db,
      );
    }
  },
  async down(db: Kysely<unknown>) {
    await sql`alter table products drop column pack_size`.execute(db);
  },
};
