/**
 * The foundation: accounts, their sessions and remember-me tokens, verification codes, captcha
 * challenges, the branding and the support contacts.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

export const foundation0001: Migration = {
  async up(db) {
    await run(db, [
      `create sequence agent_clientid_seq start with 10001`,
      `create table accounts (
        id integer generated always as identity primary key,
        clientid text not null unique,
        user_type text not null check (user_type in ('1', '2')),
        agent_id integer references accounts(id),
        operation_mode text not null default '1' check (operation_mode in ('0', '1')),
        name text not null default '',
        realname text not null default '',
        email text not null default '',
        mobile text not null default '',
        country_code text not null default '86',
        password_hash text not null,
        status smallint not null default 1 check (status in (0, 1, 5, 6, 7)),
        oauth_status smallint not null default 1 check (oauth_status in (1, 2, 3, 4)),
        oauth_remark text not null default '',
        oauth_date timestamptz,
        id_type smallint,
        id_nbr text not null default '',
        address text not null default '',
        province text not null default '',
        city text not null default '',
        area text not null default '',
        phone_inout_type smallint not null default 0,
        paytype smallint not null default 0,
        needreport smallint not null default 0,
        needaudit smallint not null default 0,
        needmo smallint not null default 0,
        needextend smallint not null default 0,
        deliveryurl text not null default '',
        mourl text not null default '',
        remarks text not null default '',
        invite_code text not null default '',
        auto_template_callback_url text not null default '',
        failed_logins integer not null default 0,
        locked_until timestamptz,
        create_time timestamptz not null default now(),
        update_time timestamptz not null default now()
      )`,
      // one live account per e-mail and per mobile; inactive registrations (status 0) may collide
      `create unique index accounts_email_live on accounts (lower(email)) where email <> '' and status <> 0`,
      `create unique index accounts_mobile_live on accounts (mobile) where mobile <> '' and status <> 0`,
      `create index accounts_email on accounts (lower(email))`,
      `create index accounts_mobile on accounts (mobile)`,
      `create index accounts_agent on accounts (agent_id)`,
      `create table sessions (
        id text primary key,
        account_id integer not null references accounts(id) on delete cascade,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        last_seen_at timestamptz not null,
        ip text not null default '',
        user_agent text not null default ''
      )`,
      `create index sessions_account on sessions (account_id)`,
      `create table remember_tokens (
        id text primary key,
        account_id integer not null references accounts(id) on delete cascade,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        revoked_at timestamptz
      )`,
      `create index remember_tokens_account on remember_tokens (account_id)`,
      `create table verification_codes (
        id integer generated always as identity primary key,
        purpose text not null,
        target text not null,
        code_hash text not null,
        salt text not null,
        expires_at timestamptz not null,
        used_at timestamptz,
        attempts integer not null default 0,
        ip text not null default '',
        created_at timestamptz not null
      )`,
      `create index verification_codes_target on verification_codes (target, created_at)`,
      `create index verification_codes_ip on verification_codes (ip, created_at)`,
      `create table captcha_challenges (
        id integer generated always as identity primary key,
        kind text not null,
        key_hash text not null unique,
        ref text not null default '',
        expires_at timestamptz not null,
        used_at timestamptz,
        created_at timestamptz not null
      )`,
      `create index captcha_challenges_expires on captcha_challenges (expires_at)`,
      `create table branding (
        id integer generated always as identity primary key,
        host_pattern text unique,
        copyright_text text not null,
        company_logo_url text not null default '',
        company_name text not null default '',
        icp_text text not null default '',
        demo_file_path text not null default '',
        system_info_show jsonb not null default '{}'::jsonb
      )`,
      `create table support_contacts (
        id integer generated always as identity primary key,
        branding_id integer references branding(id) on delete cascade,
        name text not null,
        qq text not null default '',
        mobile text not null default '',
        email text not null default '',
        sort integer not null default 0
      )`,
    ]);
  },
  async down(db) {
    await run(db, [
      'drop table support_contacts',
      'drop table branding',
      'drop table captcha_challenges',
      'drop table verification_codes',
      'drop table remember_tokens',
      'drop table sessions',
      'drop table accounts',
      'drop sequence agent_clientid_seq',
    ]);
  },
};
