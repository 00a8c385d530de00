/**
 * The customers' SMPP server, its later parts (issue 24; docs/api-smpp.md):
 *
 * - `sms_tasks.registered_delivery`: the receipt a submit_sm / data_sm asked for (its
 *   registered_delivery's low two bits): 0 none, 1 every final state (the default, also of console
 *   and HTTP API sends), 2 failures only. Read when a needreport 2 receipt is queued.
 * - `smpp_mo`: uplinks waiting for the account's SMPP receiver session (as smpp_receipts: one row
 *   per uplink, written in the transaction that stores it, leased by the process that has a
 *   receiver bound, deleted when the customer answers its deliver_sm with 0; dropped after 72 h).
 * - `smpp_sessions`: the bound sessions of every listener process, with a heartbeat: the `nodenum`
 *   limit counts the live rows of an account over all processes (a process that dies leaves rows
 *   that stop counting once their heartbeat is old).
 * The `accessSpeed` token bucket is api_throttle (0029), shared with the HTTP API.
 */
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const smppServerShared0032: Migration = {
  async up(db) {
    await sql`alter table sms_tasks add column registered_delivery smallint not null default 1`.execute(db);
    await sql`create table smpp_mo (
      id integer generated always as identity primary key,
      account_id integer not null references accounts(id) on delete cascade,
      mo_id integer not null,
      phone text not null,
      dest text not null default '',
      content text not null default '',
      received_at timestamptz not null,
      created_at timestamptz not null,
      lease_until timestamptz,
      attempts integer not null default 0
    )`.execute(db);
    await sql`create unique index smpp_mo_mo on smpp_mo (mo_id)`.execute(db);
    await sql`create index smpp_mo_queue on smpp_mo (account_id, id)`.execute(db);
    await sql`create index smpp_mo_created on smpp_mo (created_at)`.execute(db);
    await sql`create table smpp_sessions (
      id text primary key,
      account_id integer not null references accounts(id) on delete cascade,
      process text not null,
      peer text not null default '',
      bound_at timestamptz not null,
      heartbeat_at timestamptz not null
    )`.execute(db);
    await sql`create index smpp_sessions_account on smpp_sessions (account_id, heartbeat_at)`.execute(db);
    await sql`create index smpp_sessions_process on smpp_sessions (process)`.execute(db);
  },
  async down(db) {
    await sql`drop table smpp_sessions`.execute(db);
    await sql`drop table smpp_mo`.execute(db);
    await sql`alter table sms_tasks drop column registered_delivery`.execute(db);
  },
};
