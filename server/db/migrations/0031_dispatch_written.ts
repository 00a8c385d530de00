/**
 * Delivery guarantees after a crash, and carrier channels (issue 25; docs/api-dispatch.md
 * "Crash guarantees", "Channels"):
 *
 * - `dispatch_leases.written`: the ids of a claimed batch that its worker may have written to the
 *   SMSC. The worker adds a slice's ids here (and extends the lease: its heartbeat) before it hands
 *   the slice to the link; lease recovery records only these as unconfirmed and puts the others
 *   back in the queue (sms_requeue): they were never written, they are sent once after a restart.
 *   Null (a lease taken without marks: before this migration, or by a worker of the previous
 *   version during an upgrade): all its messages count as written (unconfirmed, as before).
 * - `sms_messages.channel`: the channel a message was submitted on ('' = the one default link).
 * - `sms_receipts.phone`, `.channel`: who a receipt is for (deliver_sm source_addr) and on which
 *   channel it came, so that a receipt for a message recorded as unconfirmed (no message id) can be
 *   matched by destination + channel + submit time when exactly one such message fits.
 * - `dispatch_channels`: channels managed with `npm run cli -- channel …` (beside SMPP_CHANNELS).
 * - `dispatch_channel_stats`: per channel and worker process, the counters each worker writes
 *   periodically (`channel stats` adds the processes up).
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

export const dispatchWritten0031: Migration = {
  async up(db) {
    await run(db, [
      // null: a lease of a worker that does not mark (taken before this migration, or by an older
      // version still running during an upgrade): every message of it counts as written
      `alter table dispatch_leases add column written integer[]`,
      `alter table sms_messages add column channel text not null default ''`,
      `alter table sms_receipts add column phone text not null default ''`,
      `alter table sms_receipts add column channel text not null default ''`,
      `create table dispatch_channels (
        name text primary key,
        url text not null,
        carriers integer[] not null default '{}',
        international boolean not null default false,
        sms_types integer[] not null default '{}',
        priority integer not null default 0,
        weight integer not null default 1,
        max_per_second integer not null default 0,
        enabled boolean not null default true,
        updated_at timestamptz not null default now()
      )`,
      `create table dispatch_channel_stats (
        channel text not null,
        worker text not null,
        submitted bigint not null default 0,
        accepted bigint not null default 0,
        refused bigint not null default 0,
        retried bigint not null default 0,
        unconfirmed bigint not null default 0,
        receipts bigint not null default 0,
        latency_ms_sum double precision not null default 0,
        latency_count bigint not null default 0,
        bound boolean not null default false,
        updated_at timestamptz not null default now(),
        primary key (channel, worker)
      )`,
    ]);
  },
  async down(db) {
    await run(db, [
      'drop table dispatch_channel_stats',
      'drop table dispatch_channels',
      'alter table sms_receipts drop column channel',
      'alter table sms_receipts drop column phone',
      'alter table sms_messages drop column channel',
      'alter table dispatch_leases drop column written',
    ]);
  },
};
