/**
 * Schema migrations, in code so that PGlite and PostgreSQL run exactly the same statements: one
 * file each under server/db/migrations/ (`NNNN_name.ts`, exporting one `Migration`), listed by the
 * generated migrations/index.ts (`npm run db:types` writes it with server/db/generated.ts;
 * tests/server/db-types.test.ts fails while either is out of date). Add a new file for every
 * change; never edit one that has shipped.
 */
import type { Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely/migration';
import { migrationFiles } from './migrations/index';

export const migrations: Record<string, Migration> = migrationFiles;

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
async function migrating(
  schema: string,
  run: () => Promise<MigrationResultSet>,
): Promise<MigrationResultSet['results']> {
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
