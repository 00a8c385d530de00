/**
 * Login hardening: remember-me tokens rotate (each use replaces the token; a family ties the
 * rotations of one login together so that a replayed old token revokes them all), and failed
 * logins are counted per (login name, client address) instead of per account: a stranger can
 * lock only himself out, and unknown names lock like real ones (no enumeration).
 */
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const authHardening0007: Migration = {
  async up(db) {
    await sql`alter table remember_tokens add column family text not null default ''`.execute(db);
    await sql`alter table remember_tokens add column used_at timestamptz`.execute(db);
    await sql`create index remember_tokens_family on remember_tokens (family)`.execute(db);
    await sql`create table login_failures (
      name_hash text not null,
      ip text not null,
      failures integer not null default 0,
      locked_until timestamptz,
      last_failed_at timestamptz not null,
      primary key (name_hash, ip)
    )`.execute(db);
  },
  async down(db) {
    await sql`drop table login_failures`.execute(db);
    await sql`drop index remember_tokens_family`.execute(db);
    await sql`alter table remember_tokens drop column used_at`.execute(db);
    await sql`alter table remember_tokens drop column family`.execute(db);
  },
};
