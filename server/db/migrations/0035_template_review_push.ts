/**
 * Template review results pushed to the account's auto_template_callback_url (issue 26 item 9):
 * push_outbox takes a third kind, 3 模板审核结果 (enums/push-kind.json), sent by the same Pusher
 * (server/modules/push) with the same URL rules and retries as delivery reports and uplink.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const templateReviewPush0035: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table push_outbox drop constraint if exists push_outbox_kind_check`.execute(db);
    await sql`alter table push_outbox add constraint push_outbox_kind_check check (kind in (1, 2, 3))`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`delete from push_outbox where kind = 3`.execute(db);
    await sql`alter table push_outbox drop constraint if exists push_outbox_kind_check`.execute(db);
    await sql`alter table push_outbox add constraint push_outbox_kind_check check (kind in (1, 2))`.execute(db);
  },
};
