/**
 * What the CMPP door (issue 36, docs/api-cmpp.md) needs of an account beyond the SMPP door's:
 *
 * - `interface_login`: the account's interface login where its clientid cannot be one (CMPP's
 *   Source_Addr is 6 octets at most): unique, null for accounts whose clientid is short enough;
 *   given at the interface password's reset to an account whose clientid is longer (and by the
 *   demo seed to client1: `cli001`).
 * - `interface_secret`: the interface password sealed with AES-256-GCM under the server's key
 *   (server/lib/interface-secret.ts), written at every reset: CMPP authenticates with
 *   MD5(Source_Addr + 9 zero octets + password + timestamp), so the server must hold the shared
 *   secret itself, not only its argon2id hash. '' = none yet: such an account cannot connect over
 *   CMPP until its password is reset.
 */
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const interfaceLogin0044: Migration = {
  async up(db) {
    await sql`alter table accounts add column interface_login text`.execute(db);
    await sql`create unique index accounts_interface_login on accounts (interface_login)`.execute(db);
    await sql`alter table accounts add column interface_secret text not null default ''`.execute(db);
  },
  async down(db) {
    await sql`alter table accounts drop column interface_secret`.execute(db);
    await sql`drop index accounts_interface_login`.execute(db);
    await sql`alter table accounts drop column interface_login`.execute(db);
  },
};
