/**
 * Invoices (issue 12, docs/api-invoice.md):
 *
 * - `invoices`: one row per application, every field of the spec's invoice form and list item;
 *   the amount NUMERIC(14,2) > 0; status 0-5 (enums/invoice-status.json); `update_time` is the
 *   optimistic-lock value a cancel must present (written from the app clock, millisecond precision).
 * - `invoice_configs`: the account's saved invoice information per invoice type (the defaults that
 *   /invoice/getOrdinaryInvoiceConfig and /invoice/getAddedTaxInvoiceConfig hand back), replaced by
 *   each successful application of that type.
 * - `invoice_ledger_paid_in`: the invoiceable amount sums the ledger's pay-in rows of one account
 *   (kinds 0 recharge, 11 online recharge, 12/13 a sub-account's recharges and rollbacks) from this
 *   index alone.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

const INFO_COLUMNS = `
  invoice_body smallint not null check (invoice_body in (1, 2)),
  invoice_head text not null,
  credit_code text not null default '',
  email text not null default '',
  to_phone text not null default '',
  company_reg_addr text not null default '',
  bank text not null default '',
  bank_account text not null default '',
  telphone text not null default '',
  to_name text not null default '',
  to_addr text not null default '',
  to_addr_detail text not null default ''`;

export const invoices0015: Migration = {
  async up(db) {
    await run(db, [
      `create table invoices (
        id integer generated always as identity primary key,
        invoice_no text not null unique,
        account_id integer not null references accounts(id),
        applicant_id integer not null references accounts(id),
        invoice_type smallint not null check (invoice_type in (1, 2)),
        invoice_amount numeric(14,2) not null check (invoice_amount > 0),
        invoice_project text not null,
        ${INFO_COLUMNS},
        remark text not null default '',
        status smallint not null default 0 check (status between 0 and 5),
        audit_fail_cause text not null default '',
        express_company text not null default '',
        express_order text not null default '',
        create_time timestamptz not null,
        update_time timestamptz not null
      )`,
      `create index invoices_account on invoices (account_id, create_time desc, id desc)`,
      `create index invoices_status on invoices (status, id)`,
      `create table invoice_configs (
        account_id integer not null references accounts(id),
        invoice_type smallint not null check (invoice_type in (1, 2)),
        ${INFO_COLUMNS},
        update_time timestamptz not null,
        primary key (account_id, invoice_type)
      )`,
      `create index invoice_ledger_paid_in on ledger (account_id) include (amount, kind) where kind in (0, 11, 12, 13)`,
    ]);
  },
  async down(db) {
    await run(db, ['drop index invoice_ledger_paid_in', 'drop table invoice_configs', 'drop table invoices']);
  },
};
