/**
 * Sending: product pools (pieces bought per account, product type, carrier and expiry) with
 * their movements, SMS tasks, one row per message, delivery receipts waiting to be applied,
 * uplink (MO) messages and the push outbox (delivery reports / uplink to the customer's URL).
 *
 * Queues are rows: dispatch workers claim sms_messages with FOR UPDATE SKIP LOCKED, receipt
 * appliers claim sms_receipts the same way, pushers claim push_outbox rows. Several processes can
 * share one PostgreSQL. Rules: docs/api-send.md.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

export const sending0008: Migration = {
  async up(db) {
    await run(db, [
      // ---- product pools (operation_mode 1): pieces per account / product type / carrier / expiry
      `create table product_pools (
        id integer generated always as identity primary key,
        account_id integer not null references accounts(id),
        product_type smallint not null,
        operator_code smallint not null default 0 check (operator_code in (0, 1, 2, 3, 4)),
        area_name text not null default '全国',
        product_name text not null default '',
        unit_price numeric(10,4) not null default 0 check (unit_price >= 0),
        total integer not null check (total >= 0),
        remaining integer not null check (remaining >= 0),
        due_time timestamptz not null,
        gift smallint not null default 0,
        order_id text not null default '',
        created_at timestamptz not null default now()
      )`,
      `create index product_pools_account on product_pools (account_id, product_type, due_time)`,
      // every change of a pool's remaining pieces: sum(pieces) per pool = remaining
      `create table pool_movements (
        id integer generated always as identity primary key,
        pool_id integer not null references product_pools(id),
        task_id integer,
        pieces integer not null,
        remaining_after integer not null check (remaining_after >= 0),
        kind smallint not null,
        remark text not null default '',
        created_at timestamptz not null default now()
      )`,
      `create index pool_movements_pool on pool_movements (pool_id, id)`,
      `create index pool_movements_task on pool_movements (task_id) where task_id is not null`,

      // ---- tasks: one per submission (immediate or timed)
      `create table sms_tasks (
        id integer generated always as identity primary key,
        uid text not null unique,
        account_id integer not null references accounts(id),
        agent_id integer references accounts(id),
        creator_id integer not null references accounts(id),
        creator_name text not null default '',
        payer_id integer not null references accounts(id),
        charge_mode smallint not null check (charge_mode in (0, 1)),
        content text not null,
        sign text not null default '',
        smstype smallint not null,
        template_id integer,
        template_type smallint not null default 0,
        file_type smallint not null default 0,
        file_name text not null default '',
        import_file_path text not null default '',
        submit_total integer not null default 0,
        err_num integer not null default 0,
        repeat_num integer not null default 0,
        pieces_per_msg smallint not null default 1,
        charge_num_total integer not null default 0,
        amount numeric(14,2) not null default 0,
        cost numeric(16,4) not null default 0,
        refundable_cost numeric(16,4) not null default 0,
        refunded_amount numeric(14,2) not null default 0,
        refundable_pieces integer not null default 0,
        refunded_pieces integer not null default 0,
        status smallint not null default 0,
        send_type smallint not null default 0,
        send_time timestamptz not null,
        submitted_num integer not null default 0,
        success_num integer not null default 0,
        fail_num integer not null default 0,
        unknown_num integer not null default 0,
        intercept_num integer not null default 0,
        audit_num integer not null default 0,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        finished_at timestamptz
      )`,
      `create index sms_tasks_account on sms_tasks (account_id, created_at desc, id desc)`,
      `create index sms_tasks_agent on sms_tasks (agent_id, created_at desc, id desc)`,
      `create index sms_tasks_open on sms_tasks (status, send_time) where status in (0, 1, 2)`,

      // ---- messages: one row per (task, number); the dispatch queue and the send record
      `create table sms_messages (
        id integer generated always as identity primary key,
        task_id integer not null references sms_tasks(id),
        account_id integer not null,
        phone text not null,
        carrier smallint not null default 0,
        province_id integer not null default 0,
        city_id integer not null default 0,
        pieces smallint not null default 1,
        price numeric(10,4) not null default 0,
        state smallint not null default 0,
        error_code text not null default '',
        report text not null default '',
        msg_id text,
        attempts smallint not null default 0,
        next_at timestamptz,
        lease_owner text,
        lease_until timestamptz,
        created_at timestamptz not null default now(),
        submitted_at timestamptz,
        done_at timestamptz
      )`,
      `create index sms_messages_queue on sms_messages (next_at, id) where state = 0 and next_at is not null and lease_until is null`,
      `create index sms_messages_leased on sms_messages (lease_until) where lease_until is not null`,
      `create unique index sms_messages_msg_id on sms_messages (msg_id) where msg_id is not null`,
      `create index sms_messages_task on sms_messages (task_id, state)`,
      `create index sms_messages_account on sms_messages (account_id, created_at desc, id desc)`,

      // ---- delivery receipts received from the SMSC, applied to sms_messages in batches
      `create table sms_receipts (
        msg_id text primary key,
        state smallint not null,
        error_code text not null default '',
        report text not null default '',
        done_at timestamptz not null,
        received_at timestamptz not null default now()
      )`,

      // ---- uplink (MO)
      `create table sms_mo (
        id integer generated always as identity primary key,
        account_id integer not null references accounts(id),
        phone text not null,
        content text not null,
        dest text not null default '',
        smsc_ref text unique,
        received_at timestamptz not null default now()
      )`,
      `create index sms_mo_account on sms_mo (account_id, received_at desc, id desc)`,

      // ---- push outbox: delivery reports (kind 1) and uplink (kind 2) to the customer's URL
      `create table push_outbox (
        id integer generated always as identity primary key,
        account_id integer not null references accounts(id),
        kind smallint not null check (kind in (1, 2)),
        url text not null,
        payload jsonb not null,
        attempts smallint not null default 0,
        next_at timestamptz not null default now(),
        done_at timestamptz,
        last_error text not null default '',
        created_at timestamptz not null default now()
      )`,
      `create index push_outbox_due on push_outbox (next_at) where done_at is null`,

      // ---- exports prepared for download (/send/exportrecords -> /send/downloadExportSendRecords)
      `create table export_files (
        id text primary key,
        account_id integer not null references accounts(id),
        file_name text not null,
        path text not null,
        rows integer not null default 0,
        created_at timestamptz not null default now()
      )`,
    ]);
  },
  async down(db) {
    await run(db, [
      'drop table export_files',
      'drop table push_outbox',
      'drop table sms_mo',
      'drop table sms_receipts',
      'drop table sms_messages',
      'drop table sms_tasks',
      'drop table pool_movements',
      'drop table product_pools',
    ]);
  },
};
