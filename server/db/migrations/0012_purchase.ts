/**
 * Purchase of SMS packages (operation_mode 1): the product catalogue, per-account discounts and
 * the rebate balance with its own ledger, purchase orders (one per submit) and their lines (one
 * per product, the SMS bill's rows). Rules: docs/api-purchase.md.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

export const purchase0012: Migration = {
  async up(db) {
    await run(db, [
      // discounts in percent (100 = none), like gj_sms_discount of 0006; the usable rebate in yuan
      `alter table accounts
         add column hy_sms_discount numeric(5,2) not null default 100 check (hy_sms_discount > 0 and hy_sms_discount <= 100),
         add column yx_sms_discount numeric(5,2) not null default 100 check (yx_sms_discount > 0 and yx_sms_discount <= 100),
         add column rebate_useable numeric(14,2) not null default 0 check (rebate_useable >= 0)`,
      `create table products (
        id integer generated always as identity primary key,
        product_code text not null unique,
        product_name text not null,
        product_type smallint not null check (product_type in (0, 1, 2, 3, 4)),
        operator_code smallint not null default 0 check (operator_code in (0, 1, 2, 3)),
        area_name text not null default '全国',
        unit_price numeric(10,4) not null check (unit_price > 0),
        valid_days integer not null check (valid_days > 0),
        creator text not null default '',
        state smallint not null default 1 check (state in (0, 1)),
        sort integer not null default 0,
        created_at timestamptz not null default now()
      )`,
      `create index products_on_sale on products (state, product_type, operator_code, sort, id)`,
      // one row per change of rebate_useable: sum(amount) of an account = its rebate_useable
      `create table rebate_ledger (
        id integer generated always as identity primary key,
        account_id integer not null references accounts(id),
        amount numeric(14,2) not null,
        balance_after numeric(14,2) not null check (balance_after >= 0),
        kind smallint not null check (kind in (0, 1)),
        order_id text not null default '',
        remark text not null default '',
        created_at timestamptz not null default now()
      )`,
      `create index rebate_ledger_account on rebate_ledger (account_id, id desc)`,
      // one per submit: total of the lines, rebate used, amount paid from the balance
      `create table purchase_orders (
        order_id text primary key,
        account_id integer not null references accounts(id),
        request_id text,
        total numeric(14,2) not null,
        rebate numeric(14,2) not null default 0,
        paid numeric(14,2) not null,
        ledger_id integer references ledger(id),
        rebate_ledger_id integer references rebate_ledger(id),
        result jsonb not null,
        created_at timestamptz not null default now()
      )`,
      `create unique index purchase_orders_request on purchase_orders (account_id, request_id) where request_id is not null`,
      // the SMS bill: one row per product line (order_type 0 purchase)
      `create table sms_orders (
        id integer generated always as identity primary key,
        order_id text not null,
        account_id integer not null references accounts(id),
        order_type smallint not null default 0,
        product_id integer references products(id),
        product_code text not null default '',
        product_name text not null default '',
        product_type smallint not null,
        operator_code smallint not null default 0,
        area_name text not null default '全国',
        unit_price numeric(10,4) not null,
        discount numeric(5,2) not null default 100,
        num integer not null check (num > 0),
        order_amount numeric(14,2) not null,
        pool_id integer references product_pools(id),
        due_time timestamptz,
        created_at timestamptz not null default now()
      )`,
      `create index sms_orders_account on sms_orders (account_id, created_at desc, id desc)`,
      `create index sms_orders_order on sms_orders (order_id)`,
    ]);
  },
  async down(db) {
    await run(db, [
      'drop table sms_orders',
      'drop table purchase_orders',
      'drop table rebate_ledger',
      'drop table products',
      'alter table accounts drop column hy_sms_discount, drop column yx_sms_discount, drop column rebate_useable',
    ]);
  },
};
