/**
 * The platform's own staff (issue 39, docs/api-operator.md):
 *
 * - `operators`: a third kind of login beside agents and sub-accounts, never an account (no
 *   balance, no sends: no account route can ever resolve one). `name` is its login on /login (a
 *   name no account uses: operator-add and registration keep the two apart), `role` enums/operator-role.json
 *   (1 审核员, 2 运营, 3 管理员), `status` 1 active / 2 disabled, an optional TOTP second factor
 *   (`totp_secret` base32, sealed like nothing else: it is a shared secret the operator's
 *   authenticator holds too; `totp_enabled` once the secret is set).
 * - `operator_sessions`: the operators' sessions, by the SHA-256 of the same `sid` cookie the
 *   accounts' sessions use (one browser holds one kind at a time), sliding idle expiry.
 * - `sensitive_words`: the words operators add in the console (内容), beside the list file.
 * - `audit_log`: every operator action, written in the action's own transaction: who, when, what
 *   (`action`, e.g. 'sign.approve'), on which row (`target`, `target_id`, the account it concerns)
 *   and the row's values before and after (JSON), with the operator's remark.
 */
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const operators0046: Migration = {
  async up(db) {
    await sql`create table operators (
      id integer generated always as identity primary key,
      name text not null unique,
      password_hash text not null,
      role smallint not null check (role in (1, 2, 3)),
      status smallint not null default 1 check (status in (1, 2)),
      totp_secret text not null default '',
      totp_enabled boolean not null default false,
      totp_last_step integer not null default 0,
      created_by integer references operators(id) on delete set null,
      created_at timestamptz not null,
      last_login_at timestamptz
    )`.execute(db);
    await sql`create table operator_sessions (
      id text primary key,
      operator_id integer not null references operators(id) on delete cascade,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      last_seen_at timestamptz not null,
      ip text not null default '',
      user_agent text not null default ''
    )`.execute(db);
    await sql`create index operator_sessions_operator on operator_sessions (operator_id)`.execute(db);
    await sql`create table audit_log (
      id integer generated always as identity primary key,
      at timestamptz not null,
      operator_id integer references operators(id) on delete set null,
      operator_name text not null,
      action text not null,
      target text not null,
      target_id text not null default '',
      account_id integer references accounts(id) on delete set null,
      before jsonb,
      after jsonb,
      remark text not null default ''
    )`.execute(db);
    await sql`create index audit_log_at on audit_log (at desc, id desc)`.execute(db);
    await sql`create index audit_log_operator on audit_log (operator_id, at desc)`.execute(db);
    await sql`create index audit_log_action on audit_log (action, at desc)`.execute(db);
    await sql`create index audit_log_account on audit_log (account_id, at desc)`.execute(db);
    // the sensitive words operators add in the console, beside SENSITIVE_WORDS_FILE's (every process
    // reloads both within seconds: content/sensitive-words.ts)
    await sql`create table sensitive_words (
      id integer generated always as identity primary key,
      word text not null unique,
      created_by text not null default '',
      created_at timestamptz not null
    )`.execute(db);
    // the 审核 lists: what waits, oldest first (bench/review-lists.ts: 100,000 waiting of each kind)
    await sql`create index certifications_review on certifications (submitted_at, id) where state = 2`.execute(db);
    await sql`create index signs_review on signs (create_time, id) where state = 0`.execute(db);
    await sql`create index templates_review on templates (create_time, id) where state = 0 and owner_id is not null`.execute(
      db,
    );
    await sql`create index invoices_review on invoices (create_time, id) where status in (0, 3)`.execute(db);
    // who took a review (shown in the 审核 lists): the operator's name, '' for the CLI / AUTO_REVIEW
    for (const t of ['certifications', 'signs', 'templates', 'invoices']) {
      await sql`alter table ${sql.table(t)} add column reviewed_by text not null default ''`.execute(db);
    }
  },
  async down(db) {
    for (const t of ['certifications', 'signs', 'templates', 'invoices']) {
      await sql`alter table ${sql.table(t)} drop column reviewed_by`.execute(db);
    }
    await sql`drop index certifications_review`.execute(db);
    await sql`drop index signs_review`.execute(db);
    await sql`drop index templates_review`.execute(db);
    await sql`drop index invoices_review`.execute(db);
    await sql`drop table sensitive_words`.execute(db);
    await sql`drop table audit_log`.execute(db);
    await sql`drop table operator_sessions`.execute(db);
    await sql`drop table operators`.execute(db);
  },
};
