/**
 * The parts of a long message submitted over SMPP (issue 24; docs/api-smpp.md "Long messages"),
 * kept in the database so that the parts of one message may arrive on different connections and
 * listener processes of the account:
 *
 * - `smpp_parts`: one row per part received (`seq` 1…`total`) and a head row (`seq` 0) written with
 *   the first part, carrying what the whole message is sent with (destination, source_addr, its
 *   extension and registered_delivery) and when the first part came. A part is added under the
 *   head row's lock; the part that completes the message deletes its rows and submits the whole.
 *   Heads older than the reassembly timeout are taken by one listener (skip locked) and their parts
 *   accepted as they are.
 *   `msg_key` is `source_addr|destination_addr|reference|total` as the customer sent them.
 */
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const smppParts0040: Migration = {
  async up(db) {
    await sql`create table smpp_parts (
      account_id integer not null references accounts(id) on delete cascade,
      msg_key text not null,
      seq smallint not null,
      total smallint not null,
      text text not null default '',
      phone text not null default '',
      source_addr text not null default '',
      extension text not null default '',
      registered_delivery smallint not null default 1,
      created_at timestamptz not null,
      primary key (account_id, msg_key, seq)
    )`.execute(db);
    await sql`create index smpp_parts_heads on smpp_parts (created_at) where seq = 0`.execute(db);
  },
  async down(db) {
    await sql`drop table smpp_parts`.execute(db);
  },
};
