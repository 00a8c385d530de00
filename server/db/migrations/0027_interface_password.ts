/**
 * The interface password (issue 24): what a customer's system binds with over SMPP (system_id =
 * clientid, password = this), separate from the console password. 8 characters (the most an SMPP
 * 3.4 bind carries), generated at account opening, shown masked in 接口信息, reset by the account
 * itself or its agent (POST /client/account/resetInterfacePassword, docs/api-smpp.md); stored as
 * argon2id(sha256hex(password)) like the console password. '' = none yet (accounts opened before
 * this migration): every bind is refused until a reset gives one.
 */
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const interfacePassword0027: Migration = {
  async up(db) {
    await sql`alter table accounts add column interface_password_hash text not null default ''`.execute(db);
  },
};
