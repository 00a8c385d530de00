/**
 * Issue 22 item 8: server/db/generated.ts is what kysely-codegen makes of the migrated schema
 * (`npm run db:types`, scripts/db-types.ts): a migration without the regenerated file fails here,
 * server/db/types.ts is these types with a few columns read narrower; the migration list
 * (server/db/migrations/index.ts) is generated from the folder the same way.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../server/db';
import { migrateToLatest } from '../../server/db/migrations';
import { DB_TYPES_FILE, dbTypesText } from '../../scripts/db-types';
import { MIGRATION_INDEX_FILE, migrationIndexText } from '../../scripts/migration-index';

describe('database types', () => {
  it('server/db/migrations/index.ts lists every migration file (run npm run db:types after adding one)', () => {
    expect(fs.readFileSync(MIGRATION_INDEX_FILE, 'utf8')).toBe(migrationIndexText());
  });

  it('server/db/generated.ts matches the migrated schema (run npm run db:types after a migration)', async () => {
    const handle = await createDb({ memory: true });
    try {
      await migrateToLatest(handle.db);
      expect(await dbTypesText(handle.db)).toBe(fs.readFileSync(DB_TYPES_FILE, 'utf8'));
    } finally {
      await handle.close();
    }
  }, 120_000);
});
