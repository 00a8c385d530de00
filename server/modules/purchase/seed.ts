/**
 * Demo data of the purchase area: the product catalogue (once), agent1's discounts (行业 95 %,
 * 营销 90 %) and a rebate income of 50.00 as a rebate_ledger row (once).
 */
import type { Db } from '../../db';
import { DEMO_PACK_SIZES } from '../../db/migrations/0038_product_pack_size';

export const DEMO_PRODUCTS = [
  {
    product_code: 'HY-QW-1W',
    product_name: '行业短信 1万条',
    product_type: 0,
    operator_code: 0,
    unit_price: '0.0450',
    valid_days: 365,
    sort: 10,
  },
  {
    product_code: 'HY-QW-10W',
    product_name: '行业短信 10万条套餐',
    product_type: 0,
    operator_code: 0,
    unit_price: '0.0420',
    valid_days: 365,
    sort: 11,
  },
  {
    product_code: 'HY-YD-5W',
    product_name: '行业短信 移动专享',
    product_type: 0,
    operator_code: 1,
    unit_price: '0.0400',
    valid_days: 180,
    sort: 12,
  },
  {
    product_code: 'YX-QW-1W',
    product_name: '营销短信 1万条',
    product_type: 1,
    operator_code: 0,
    unit_price: '0.0550',
    valid_days: 365,
    sort: 20,
  },
  {
    product_code: 'YX-LT-5W',
    product_name: '营销短信 联通专享',
    product_type: 1,
    operator_code: 2,
    unit_price: '0.0500',
    valid_days: 180,
    sort: 21,
  },
  {
    product_code: 'GJ-QW-100',
    product_name: '国际短信余额 100元',
    product_type: 2,
    operator_code: 0,
    unit_price: '1.0000',
    valid_days: 730,
    sort: 30,
  },
  {
    product_code: 'YZM-QW-1W',
    product_name: '验证码短信 1万条',
    product_type: 3,
    operator_code: 0,
    unit_price: '0.0480',
    valid_days: 365,
    sort: 40,
  },
  {
    product_code: 'YZM-DX-2W',
    product_name: '验证码短信 电信专享',
    product_type: 3,
    operator_code: 3,
    unit_price: '0.0430',
    valid_days: 180,
    sort: 41,
  },
  {
    product_code: 'TZ-QW-1W',
    product_name: '通知短信 1万条',
    product_type: 4,
    operator_code: 0,
    unit_price: '0.0460',
    valid_days: 365,
    sort: 50,
  },
  {
    product_code: 'TZ-QW-30D',
    product_name: '通知短信 月度包',
    product_type: 4,
    operator_code: 0,
    unit_price: '0.0440',
    valid_days: 30,
    sort: 51,
  },
];

export async function seedPurchase(db: Db): Promise<void> {
  const any = await db.selectFrom('products').select('id').limit(1).executeTakeFirst();
  if (!any)
    await db
      .insertInto('products')
      .values(
        DEMO_PRODUCTS.map((p) => ({
          ...p,
          pack_size: DEMO_PACK_SIZES[p.product_code] ?? null,
          area_name: '全国',
          creator: 'admin',
        })),
      )
      .execute();
  const agent1 = await db.selectFrom('accounts').select(['id']).where('clientid', '=', 'agent1').executeTakeFirst();
  if (!agent1) return;
  const rebate = await db
    .selectFrom('rebate_ledger')
    .select('id')
    .where('account_id', '=', agent1.id)
    .limit(1)
    .executeTakeFirst();
  if (rebate) return;
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('accounts')
      .set({ hy_sms_discount: '95', yx_sms_discount: '90', rebate_useable: '50.00' })
      .where('id', '=', agent1.id)
      .execute();
    await trx
      .insertInto('rebate_ledger')
      .values({ account_id: agent1.id, amount: '50.00', balance_after: '50.00', kind: 0, remark: '2026年第三季度返点' })
      .execute();
  });
}
