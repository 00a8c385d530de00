/**
 * Sub-account management and the money ledger: balances, prices and discounts as NUMERIC
 * (exact decimals), the ledger (one row per balance change, signed), recharge/rollback
 * idempotency records and one-time "log in as a sub-account" tokens.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

export const subaccountsLedgerMigration: Migration = {
  async up(db) {
    await run(db, [
      `alter table accounts
         add column balance numeric(14,2) not null default 0 check (balance >= 0),
         add column price_type smallint not null default 0 check (price_type in (0, 1)),
         add column unified_price numeric(10,4) not null default 0.0450 check (unified_price >= 0),
         add column mobile_price numeric(10,4) not null default 0.0450 check (mobile_price >= 0),
         add column unicom_price numeric(10,4) not null default 0.0450 check (unicom_price >= 0),
         add column telecom_price numeric(10,4) not null default 0.0450 check (telecom_price >= 0),
         add column gj_sms_discount numeric(5,2) not null default 100 check (gj_sms_discount > 0 and gj_sms_discount <= 100),
         add column smstype smallint not null default 0,
         add column agent_owned smallint not null default 1,
         add column client_type smallint not null default 2,
         add column img_url text not null default '',
         add column ip text not null default '',
         add column nodenum text not null default '',
         add column access_speed integer not null default 100,
         add column smsfrom smallint not null default 6,
         add column balance_alarm numeric(14,2) not null default 0 check (balance_alarm >= 0),
         add column alarm_mobile text not null default '',
         add column expire_date date,
         add column search_text text generated always as (lower(clientid || ' ' || name || ' ' || mobile || ' ' || email)) stored`,
      `create index accounts_agent_create on accounts (agent_id, create_time desc, id desc)`,
      `create table ledger (
        id integer generated always as identity primary key,
        account_id integer not null references accounts(id),
        amount numeric(14,2) not null,
        balance_after numeric(14,2) not null check (balance_after >= 0),
        kind smallint not null,
        counterpart_id integer references accounts(id),
        operator_id integer references accounts(id),
        remark text not null default '',
        request_id text,
        created_at timestamptz not null default now()
      )`,
      `create index ledger_account on ledger (account_id, id)`,
      `create table ledger_requests (
        agent_id integer not null references accounts(id),
        request_id text not null,
        op text not null,
        account_id integer not null,
        amount numeric(14,2) not null,
        result jsonb not null,
        created_at timestamptz not null default now(),
        primary key (agent_id, request_id)
      )`,
      `create table login_as_tokens (
        id text primary key,
        account_id integer not null references accounts(id) on delete cascade,
        agent_id integer not null references accounts(id) on delete cascade,
        expires_at timestamptz not null,
        used_at timestamptz,
        created_at timestamptz not null default now()
      )`,
    ]);
  },
  async down(db) {
    await run(db, [
      'drop table login_as_tokens',
      'drop table ledger_requests',
      'drop table ledger',
      'drop index accounts_agent_create',
      `alter table accounts drop column balance, drop column price_type, drop column unified_price, drop column mobile_price,
         drop column unicom_price, drop column telecom_price, drop column gj_sms_discount, drop column smstype, drop column agent_owned,
         drop column client_type, drop column img_url, drop column ip, drop column nodenum, drop column access_speed, drop column smsfrom,
         drop column balance_alarm, drop column alarm_mobile, drop column expire_date, drop column search_text`,
    ]);
  },
};
