/**
 * Online payment (docs/api-pay.md): pay orders and the notifications received for them.
 *
 * - `pay_orders`: one row per recharge order; `payment_id` is our order number (the providers'
 *   out_trade_no), `state` is enums/pay-order-state (0 待支付, 1 已提交支付, 2 支付成功, 3 支付失败,
 *   4 已取消; 5 is only read). The credit of a paid order is one ledger row whose id is kept in
 *   `ledger_id` (unique): the state change 0/1/3/4 -> 2 and the ledger row are written in one
 *   transaction under the order row's lock, so an order is credited at most once whatever number
 *   of notifications arrive, in parallel or not.
 * - `pay_notifications`: every notification received (verified or not), for the operator.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

export const pay0013: Migration = {
  async up(db) {
    await run(db, [
      `create table pay_orders (
        id integer generated always as identity primary key,
        payment_id text not null unique,
        account_id integer not null references accounts(id),
        amount numeric(14,2) not null check (amount > 0),
        payment_mode smallint not null check (payment_mode in (0, 1)),
        provider text not null,
        state smallint not null default 0 check (state in (0, 1, 2, 3, 4, 5)),
        trade_no text not null default '',
        qr_code text not null default '',
        remark text not null default '',
        ledger_id integer unique references ledger(id),
        created_at timestamptz not null,
        expires_at timestamptz not null,
        paid_at timestamptz,
        closed_at timestamptz,
        check ((state in (2, 5)) = (ledger_id is not null))
      )`,
      `create index pay_orders_account on pay_orders (account_id, created_at desc, id desc)`,
      `create index pay_orders_open on pay_orders (expires_at) where state in (0, 1)`,
      `create table pay_notifications (
        id integer generated always as identity primary key,
        provider text not null,
        payment_id text not null default '',
        verified boolean not null,
        credited boolean not null default false,
        reason text not null default '',
        payload text not null default '',
        created_at timestamptz not null
      )`,
      `create index pay_notifications_payment on pay_notifications (payment_id)`,
    ]);
  },
  async down(db) {
    await run(db, ['drop table pay_notifications', 'drop table pay_orders']);
  },
};
