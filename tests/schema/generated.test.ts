/**
 * The generated files (src/generated, common/generated) are not committed: they are made from
 * schemas/ before every build, dev server, storybook and test run (scripts/generate.ts). These
 * tests check the generator, never that some committed copy matches: a schema-only edit cannot
 * fail a test.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEMA_DIR, generateSchemaTypes, listSchemaFiles } from '../../scripts/schema-types';
import { generateFormModules } from '../../scripts/form-validators';
import { generatedFiles } from '../../scripts/generate';
import { SignState, UserType } from '../../common/generated/schemas';

const readJson = (dir: string, f: string) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));

/** a copy of schemas/ to edit */
function withSchemaCopy<T>(fn: (dir: string) => Promise<T> | T): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schemas-'));
  fs.cpSync(SCHEMA_DIR, dir, { recursive: true });
  return Promise.resolve(fn(dir)).finally(() => fs.rmSync(dir, { recursive: true, force: true }));
}

/** the declarations without their doc comments (which carry the Chinese labels) */
const code = (ts: string) => ts.replace(/\/\*\*[\s\S]*?\*\//g, '').replace(/\n\s*\n/g, '\n');

describe('generated from schemas/', () => {
  it('is deterministic: two runs give the same files', async () => {
    const a = await generatedFiles();
    const b = await generatedFiles();
    expect(Object.keys(a).length).toBeGreaterThan(2);
    expect(b).toEqual(a);
  });

  it('declares a type for every schema (its title) and a constant for every enum, by x-name', async () => {
    const ts = await generateSchemaTypes();
    for (const f of listSchemaFiles()) {
      const s = readJson(SCHEMA_DIR, f);
      expect(ts, `${f}: type ${s.title}`).toMatch(new RegExp(`export (type|interface) ${s.title}\\b`));
      if (!f.startsWith('enums/')) continue;
      const block = ts.match(new RegExp(`export const ${s.title} = \\{([\\s\\S]*?)\\} as const;`))?.[1];
      expect(block, `${f}: constant ${s.title}`).toBeDefined();
      for (const o of s.oneOf)
        expect(block, `${f} ${o.const}`).toContain(`${o['x-name']}: ${JSON.stringify(o.const)},`);
    }
  });

  it('the constants are importable values (server and console share them)', () => {
    expect(SignState.Deleted).toBe(4);
    expect(SignState.Pending).toBe(0);
    expect(UserType.Agent).toBe('1');
  });

  it('compiles every form, and nothing else', () => {
    const fresh = generateFormModules();
    const forms = fs.readdirSync(path.join(SCHEMA_DIR, 'forms')).map((f) => f.replace(/\.json$/, ''));
    expect(Object.keys(fresh).sort()).toEqual(forms.flatMap((f) => [`${f}.d.ts`, `${f}.js`]).sort());
  });

  it('a label edit changes no type or constant name', () =>
    withSchemaCopy(async (dir) => {
      const before = await generateSchemaTypes(dir);
      const sign = readJson(dir, 'entities/sign.json');
      sign.properties.state.title = '审核状态';
      fs.writeFileSync(path.join(dir, 'entities/sign.json'), JSON.stringify(sign));
      const states = readJson(dir, 'enums/sign-state.json');
      states.oneOf[3].title = '已作废';
      states.description = '签名的审核状态';
      fs.writeFileSync(path.join(dir, 'enums/sign-state.json'), JSON.stringify(states));
      const after = await generateSchemaTypes(dir);
      expect(after).toContain('已作废');
      expect(code(after)).toBe(code(before));
    }));

  it('compiles a form from what schemas/ says: a changed label or message needs no code change', () =>
    withSchemaCopy((dir) => {
      const file = path.join(dir, 'forms/login.json');
      const login = JSON.parse(fs.readFileSync(file, 'utf8'));
      login.properties.username.title = '登录名';
      login.properties.username.errorMessage.pattern = '这不是邮箱';
      fs.writeFileSync(file, JSON.stringify(login));
      const module = generateFormModules(dir)['login.js'];
      expect(module).toContain('这不是邮箱');
      expect(module).not.toContain('邮箱格式不正确');
      expect(module).toContain('"title": "登录名"');
    }));

  it('refuses an enum value without a name', () =>
    withSchemaCopy(async (dir) => {
      const states = readJson(dir, 'enums/sign-state.json');
      delete states.oneOf[1]['x-name'];
      fs.writeFileSync(path.join(dir, 'enums/sign-state.json'), JSON.stringify(states));
      await expect(generateSchemaTypes(dir)).rejects.toThrow(/sign-state.json: value 1 needs an x-name/);
    }));
});
