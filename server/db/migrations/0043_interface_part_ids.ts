/**
 * A receipt for every id a door handed out (issue 36, "The SMPP door as customers' gateways use
 * it"; docs/api-smpp.md "Long messages"). A long message arrives as parts; each part but the one
 * that completes the message is answered at once with an id of its own, and a customer's gateway
 * (Kannel asks for a report on the first part only) waits for the report of the id it holds.
 *
 * - `smpp_parts.part_id`: the id a part was answered with, as the door wrote it (text: an SMPP
 *   message id, a CMPP Msg_Id in decimal, …), made from a number of sms_messages' own id sequence,
 *   so that it is never the id of another message.
 * - `interface_part_ids`: the part ids of an accepted message, written in its accepting
 *   transaction; the receipts are queued for the message's id and for each of these.
 * - `smpp_receipts.part_id`: the id the receipt names ('': the message's own); one row per
 *   (message, id).
 */
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const interfacePartIds0043: Migration = {
  async up(db) {
    await sql`alter table smpp_parts add column part_id text`.execute(db);
    await sql`create table interface_part_ids (
      message_id integer primary key,
      part_ids text[] not null,
      created_at timestamptz not null
    )`.execute(db);
    await sql`create index interface_part_ids_created on interface_part_ids (created_at)`.execute(db);
    await sql`alter table smpp_receipts add column part_id text not null default ''`.execute(db);
    await sql`drop index smpp_receipts_message`.execute(db);
    await sql`create unique index smpp_receipts_message on smpp_receipts (message_id, part_id)`.execute(db);
  },
  async down(db) {
    await sql`delete from smpp_receipts where part_id <> ''`.execute(db);
    await sql`drop index smpp_receipts_message`.execute(db);
    await sql`create unique index smpp_receipts_message on smpp_receipts (message_id)`.execute(db);
    await sql`alter table smpp_receipts drop column part_id`.execute(db);
    await sql`drop table interface_part_ids`.execute(db);
    await sql`alter table smpp_parts drop column part_id`.execute(db);
  },
};
