/**
 * Schema migrations, in code so that PGlite and PostgreSQL run exactly the same statements.
 * Add a new entry for every change; never edit one that has shipped.
 */
import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely/migration';
import { notices0005 } from './migrations/0005_notices';
import { signsMigration } from './migrations/0003_signs';
import { certificationMigration } from './migrations/0002_certification';
import { templatesMigration } from './migrations/0004_templates';
import { subaccountsLedgerMigration } from './migrations/0006_subaccounts_ledger';
import { authHardening0007 } from './migrations/0007_auth_hardening';
import { sending0008 } from './migrations/0008_sending';
import { send0010 } from './migrations/0010_send';
import { records0011 } from './migrations/0011_records';
import { purchase0012 } from './migrations/0012_purchase';
import { pay0013 } from './migrations/0013_pay';
import { bills0014 } from './migrations/0014_bills';
import { invoices0015 } from './migrations/0015_invoices';
import { files0016 } from './migrations/0016_files';
import { varintl0017 } from './migrations/0017_varintl';
import { reports0018 } from './migrations/0018_reports';
import { dispatchQueue0019 } from './migrations/0019_dispatch_queue';
import { uploadChunksOnDisk0020 } from './migrations/0020_upload_chunks_on_disk';
import { intlPoolsFen0021 } from './migrations/0021_intl_pools_fen';
import { phoneHash0022 } from './migrations/0022_phone_hash';
import { taskChunks0023 } from './migrations/0023_task_chunks';
import { refundableByCarrier0024 } from './migrations/0024_refundable_by_carrier';
import { paySandbox0025 } from './migrations/0025_pay_sandbox';
import { interfacePassword0027 } from './migrations/0027_interface_password';
import { heldChunks0028 } from './migrations/0028_held_chunks';
import { apiSecret0029 } from './migrations/0029_api_secret';
import { messageParts0030 } from './migrations/0030_message_parts';
import { dispatchWritten0031 } from './migrations/0031_dispatch_written';
import { smppServerShared0032 } from './migrations/0032_smpp_server_shared';
import { testAccounts0034 } from './migrations/0034_test_accounts';
import { templateReviewPush0035 } from './migrations/0035_template_review_push';
import { blacklist0036 } from './migrations/0036_blacklist';
import { productPackSize0038 } from './migrations/0038_product_pack_size';
import { smppParts0040 } from './migrations/0040_smpp_parts';
import { reportDeltas0041 } from './migrations/0041_report_deltas';
import { chargeCarry0042 } from './migrations/0042_charge_carry';
import { interfacePartIds0043 } from './migrations/0043_interface_part_ids';
import { interfaceLogin0044 } from './migrations/0044_interface_login';
import { sgipCallback0045 } from './migrations/0045_sgip_callback';
import { operators0046 } from './migrations/0046_operators';
import { metricMinutes0047 } from './migrations/0047_metric_minutes';
import { smppPartsWhole0048 } from './migrations/0048_smpp_parts_whole';
import { operatorLoginAs0049 } from './migrations/0049_operator_login_as';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

export const migrations: Record<string, Migration> = {
  '0001_foundation': {
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
  },
  '0005_notices': notices0005,
  '0003_signs': signsMigration,
  '0002_certification': certificationMigration,
  '0004_templates': templatesMigration,
  '0006_subaccounts_ledger': subaccountsLedgerMigration,
  '0007_auth_hardening': authHardening0007,
  '0008_sending': sending0008,
  '0010_send': send0010,
  '0011_records': records0011,
  '0012_purchase': purchase0012,
  '0013_pay': pay0013,
  '0014_bills': bills0014,
  '0015_invoices': invoices0015,
  '0016_files': files0016,
  '0017_varintl': varintl0017,
  '0018_reports': reports0018,
  '0019_dispatch_queue': dispatchQueue0019,
  '0020_upload_chunks_on_disk': uploadChunksOnDisk0020,
  '0021_intl_pools_fen': intlPoolsFen0021,
  '0022_phone_hash': phoneHash0022,
  '0023_task_chunks': taskChunks0023,
  '0024_refundable_by_carrier': refundableByCarrier0024,
  '0025_pay_sandbox': paySandbox0025,
  '0027_interface_password': interfacePassword0027,
  '0028_held_chunks': heldChunks0028,
  '0029_api_secret': apiSecret0029,
  '0030_message_parts': messageParts0030,
  '0031_dispatch_written': dispatchWritten0031,
  '0032_smpp_server_shared': smppServerShared0032,
  '0034_test_accounts': testAccounts0034,
  '0035_template_review_push': templateReviewPush0035,
  '0036_blacklist': blacklist0036,
  '0038_product_pack_size': productPackSize0038,
  '0040_smpp_parts': smppParts0040,
  '0041_report_deltas': reportDeltas0041,
  '0042_charge_carry': chargeCarry0042,
  '0043_interface_part_ids': interfacePartIds0043,
  '0044_interface_login': interfaceLogin0044,
  '0045_sgip_callback': sgipCallback0045,
  '0046_operators': operators0046,
  '0047_metric_minutes': metricMinutes0047,
  '0048_smpp_parts_whole': smppPartsWhole0048,
  '0049_operator_login_as': operatorLoginAs0049,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Brings the schema up to date; throws with the failing migration's error. `schema` is where the
 * tables live (the search_path's first schema): the migrator's bookkeeping tables go there too,
 * so that several schemas of one database (tests) never see each other's.
 */
export async function migrateToLatest<DB>(db: Kysely<DB>, schema = 'public'): Promise<string[]> {
  // areas are developed in parallel: a migration numbered below one already applied still runs
  const migrator = new Migrator({ db, provider, migrationTableSchema: schema, allowUnorderedMigrations: true });
  const results = await migrating(schema, () => migrator.migrateToLatest());
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Runs a migrator call; throws its error, after trying again while `otherSchemaGone`. */
async function migrating(schema: string, run: () => Promise<MigrationResultSet>): Promise<MigrationResultSet['results']> {
  for (let attempt = 0; ; attempt++) {
    const { error, results } = await run();
    if (!error) return results;
    if (attempt < 5 && otherSchemaGone(error, schema, results === undefined)) {
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 80 * (attempt + 1)));
      continue;
    }
    throw error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * Kysely's migrator looks for its tables by introspecting every schema of the database (by name:
 * `has_schema_privilege`, `pg_get_serial_sequence`), before it runs any migration (its result then
 * has no `results`). A schema another session drops meanwhile (the tests' schemas, dropped as their
 * files end) fails that look-up with 3F000 naming that schema; a table or column another session's
 * migration drops meanwhile, with 42P01 / 42703 (no session changes this schema's tables but the
 * one migrating it). Nothing was migrated: the look-up is tried again.
 */
function otherSchemaGone(error: unknown, schema: string, beforeMigrations: boolean): boolean {
  const e = error as { code?: string; message?: string };
  if (typeof e?.message !== 'string') return false;
  if (e.code === '3F000') return !e.message.includes(`"${schema}"`);
  return beforeMigrations && (e.code === '42P01' || e.code === '42703');
}

/** Brings the schema up to `name` exactly (tests of a migration's data carry-over). */
export async function migrateTo<DB>(db: Kysely<DB>, name: string, schema = 'public'): Promise<void> {
  const migrator = new Migrator({ db, provider, migrationTableSchema: schema, allowUnorderedMigrations: true });
  await migrating(schema, () => migrator.migrateTo(name));
}
