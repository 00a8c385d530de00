import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILE, SCHEMA_DIR, generateSchemaTypes } from '../../scripts/schema-types';
import { FORMS_DIR, generateFormModules } from '../../scripts/form-validators';

describe('src/generated', () => {
  it('is up to date with schemas/ (run `npm run gen` after changing a schema)', async () => {
    const fresh = await generateSchemaTypes();
    const committed = fs.existsSync(GENERATED_FILE) ? fs.readFileSync(GENERATED_FILE, 'utf8') : '';
    expect(committed === fresh, 'src/generated/schemas.ts is stale: run `npm run gen`').toBe(true);
  });

  it('has every form compiled, and nothing else (run `npm run gen` after changing a schema)', () => {
    const fresh = generateFormModules();
    const forms = fs.readdirSync(path.join(SCHEMA_DIR, 'forms')).map((f) => f.replace(/\.json$/, ''));
    expect(Object.keys(fresh).sort()).toEqual(forms.flatMap((f) => [`${f}.d.ts`, `${f}.js`]).sort());
    expect(fs.readdirSync(FORMS_DIR).sort()).toEqual(Object.keys(fresh).sort());
    for (const [name, text] of Object.entries(fresh)) {
      expect(fs.readFileSync(path.join(FORMS_DIR, name), 'utf8') === text, `src/generated/forms/${name} is stale: run \`npm run gen\``).toBe(true);
    }
  });

  it('compiles a form from what schemas/ says: a changed label or message needs no code change', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schemas-'));
    try {
      fs.cpSync(SCHEMA_DIR, dir, { recursive: true });
      const file = path.join(dir, 'forms/login.json');
      const login = JSON.parse(fs.readFileSync(file, 'utf8'));
      login.properties.username.title = '登录名';
      login.properties.username.errorMessage.pattern = '这不是邮箱';
      fs.writeFileSync(file, JSON.stringify(login));
      const module = generateFormModules(dir)['login.js'];
      expect(module).toContain('这不是邮箱');
      expect(module).not.toContain('邮箱格式不正确');
      expect(module).toContain('"title": "登录名"');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
