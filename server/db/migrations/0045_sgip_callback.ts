/**
 * What the SGIP door (issue 38, docs/api-sgip.md) needs beyond the CMPP door's:
 *
 * - the customer's own SGIP listener the platform binds back to (Login_Type 2) with reports and
 *   uplinks, set by its agent in 接口信息: `sgip_callback_host` ('' = none: no bind-back),
 *   `sgip_callback_port`, `sgip_callback_user`, `sgip_callback_password` (the login the listener
 *   checks; SGIP sends it in clear, so it is kept as it is, like a push URL's own secret);
 * - `interface_part_ids.whole`: the part ids name every submit of the message, the last one too
 *   (SGIP: each is the customer's submit sequence number): no receipt row for the message's own id;
 * - `sgip_bindback_owners`: which door process delivers an account's queue by bind-back now (one at
 *   a time over one database; a lease renewed while it works, taken over when it runs out).
 */
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const sgipCallback0045: Migration = {
  async up(db) {
    await sql`alter table accounts add column sgip_callback_host text not null default ''`.execute(db);
    await sql`alter table accounts add column sgip_callback_port integer not null default 0`.execute(db);
    await sql`alter table accounts add column sgip_callback_user text not null default ''`.execute(db);
    await sql`alter table accounts add column sgip_callback_password text not null default ''`.execute(db);
    await sql`alter table interface_part_ids add column whole boolean not null default false`.execute(db);
    await sql`create table sgip_bindback_owners (
      account_id integer primary key references accounts(id) on delete cascade,
      process text not null,
      lease_until timestamptz not null
    )`.execute(db);
  },
  async down(db) {
    await sql`drop table sgip_bindback_owners`.execute(db);
    await sql`alter table interface_part_ids drop column whole`.execute(db);
    await sql`alter table accounts drop column sgip_callback_password`.execute(db);
    await sql`alter table accounts drop column sgip_callback_user`.execute(db);
    await sql`alter table accounts drop column sgip_callback_port`.execute(db);
    await sql`alter table accounts drop column sgip_callback_host`.execute(db);
  },
};
