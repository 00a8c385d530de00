/**
 * The interface password (issue 24): what a customer's system binds with over SMPP (system_id =
 * clientid, password = this), separate from the console password. 8 characters (the most an SMPP
 * 3.4 bind carries), generated at account opening, shown masked in 接口信息, reset by the account
 * itself or its agent (POST /client/account/resetInterfacePassword, docs/api-smpp.md); stored as
 * argon2id(sha256hex(password)) like the console password. '' = none yet (accounts opened before
 * this migration): every bind is refused until a reset gives one.
 *
 * `smpp_receipts`: the receipts of needreport 2 (pass-through) accounts waiting for the account's
 * SMPP receiver session (docs/api-smpp.md "Receipts"): one row per message reaching a final state,
 * written in the transaction that records that state (at most one per message: the unique
 * message_id), leased by the process that has a receiver bound, deleted when the customer answers
 * its deliver_sm with status 0 (so never sent again once answered); unanswered ones come back when
 * their lease ends. Rows never delivered are dropped after 72 h.
 */
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const interfacePassword0027: Migration = {
  async up(db) {
    await sql`alter table accounts add column interface_password_hash text not null default ''`.execute(db);
    await sql`create table smpp_receipts (
      id integer generated always as identity primary key,
      account_id integer not null references accounts(id) on delete cascade,
      message_id integer not null,
      phone text not null,
      stat text not null,
      err text not null default '000',
      text text not null default '',
      submit_at timestamptz not null,
      done_at timestamptz not null,
      created_at timestamptz not null,
      lease_until timestamptz,
      attempts integer not null default 0
    )`.execute(db);
    await sql`create unique index smpp_receipts_message on smpp_receipts (message_id)`.execute(db);
    await sql`create index smpp_receipts_queue on smpp_receipts (account_id, id)`.execute(db);
    await sql`create index smpp_receipts_created on smpp_receipts (created_at)`.execute(db);
  },
  async down(db) {
    await sql`drop table smpp_receipts`.execute(db);
    await sql`alter table accounts drop column interface_password_hash`.execute(db);
  },
};
