/**
 * Certification (资质认证) submissions: one row per submission, the newest is the account's
 * current one. The account row keeps the summary the rest of the system reads (oauth_status,
 * oauth_remark, oauth_date, id_type, id_nbr).
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const certificationMigration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const s of [
      `create table certifications (
        id integer generated always as identity primary key,
        account_id integer not null references accounts(id) on delete cascade,
        cert_type smallint not null check (cert_type in (1, 2)),
        id_type smallint not null check (id_type in (1, 3, 4, 5, 6, 7, 8)),
        company text not null,
        id_nbr text not null,
        img_url text not null,
        state smallint not null default 2 check (state in (2, 3, 4)),
        remark text not null default '',
        submitted_at timestamptz not null,
        reviewed_at timestamptz
      )`,
      `create index certifications_account on certifications (account_id, id desc)`,
      `create index certifications_pending on certifications (state) where state = 2`,
    ]) {
      await sql.raw(s).execute(db);
    }
  },
  async down(db: Kysely<unknown>) {
    await sql.raw('drop table certifications').execute(db);
  },
};
