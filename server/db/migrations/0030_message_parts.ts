/**
 * Long messages sent as several submits (smsc link option `long=udh|sar`, docs/api-dispatch.md
 * "Long messages"): each part has its own SMSC message id and receipt; the message is final when
 * every part is.
 *
 * - `sms_inflight.part`: 0 for a message sent as one submit (the hot path: nothing else is read or
 *   written for it), else the part number (1..n) of the part whose message id the row holds.
 * - `sms_message_parts`: one row per part of a multi-part message in flight, keyed by message id +
 *   part number: its message id and, once its receipt came, its state, error, stat and done time.
 *   Rows are deleted when the message is final (or purged with the stale in-flight rows).
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

export const messageParts0030: Migration = {
  async up(db) {
    await run(db, [
      `alter table sms_inflight add column part smallint not null default 0`,
      `create table sms_message_parts (
        message_id integer not null,
        part smallint not null,
        parts smallint not null,
        msg_id text not null,
        state smallint,
        error_code text not null default '',
        report text not null default '',
        done_at timestamptz,
        submitted_at timestamptz not null,
        primary key (message_id, part)
      )`,
    ]);
  },
  async down(db) {
    await run(db, ['drop table sms_message_parts', 'alter table sms_inflight drop column part']);
  },
};
