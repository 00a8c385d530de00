import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILE, generateSchemaTypes } from '../../scripts/schema-types';

describe('src/generated', () => {
  it('is up to date with schemas/ (run `npm run gen` after changing a schema)', async () => {
    const fresh = await generateSchemaTypes();
    const committed = fs.existsSync(GENERATED_FILE) ? fs.readFileSync(GENERATED_FILE, 'utf8') : '';
    expect(committed === fresh, 'src/generated/schemas.ts is stale: run `npm run gen`').toBe(true);
  });
});
