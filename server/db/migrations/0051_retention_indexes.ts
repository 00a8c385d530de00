/**
 * Retention (issue 40, docs/api-records.md "Retention"): the uplinks and the push outbox's sent
 * rows leave the database past their keeping time (server/modules/retention). These indexes let
 * the purge take the oldest rows in small batches instead of scanning the tables.
 */
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const retentionIndexes0051: Migration = {
  async up(db) {
    await sql`create index sms_mo_received on sms_mo (received_at, id)`.execute(db);
    await sql`create index push_outbox_done on push_outbox (done_at, id) where done_at is not null`.execute(db);
  },
  async down(db) {
    await sql`drop index push_outbox_done`.execute(db);
    await sql`drop index sms_mo_received`.execute(db);
  },
};
