/**
 * `smpp_parts.whole` (issue 38): the ids the parts of this long message were answered with name
 * every submit of it (SGIP: each is the customer's submit sequence number, the last part's too), so
 * the message is accepted with `partIdsWhole` (interface_part_ids.whole, migration 0045): no
 * receipt for the message's own id. Written by the door with each part; read when the parts are
 * accepted as they are after the reassembly wait (door-core `expireParts`), which before this knew
 * only the ids and queued a receipt for the message's own id too, one the customer never held.
 */
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const smppPartsWhole0048: Migration = {
  async up(db) {
    await sql`alter table smpp_parts add column whole boolean not null default false`.execute(db);
  },
  async down(db) {
    await sql`alter table smpp_parts drop column whole`.execute(db);
  },
};
