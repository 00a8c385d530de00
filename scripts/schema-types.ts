import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compile } from 'json-schema-to-typescript';

export const SCHEMA_DIR = path.resolve(import.meta.dirname, '../schemas');
/** types and enum constants of every schema: shared by the console (via src/generated/schemas.ts) and the server */
export const GENERATED_FILE = path.resolve(import.meta.dirname, '../common/generated/schemas.ts');

/** An enum value's name: PascalCase, usable as a property name in code (`SignState.Deleted`). */
export const ENUM_VALUE_NAME = /^[A-Z][A-Za-z0-9]*$/;

export function listSchemaFiles(dir = SCHEMA_DIR): string[] {
  const out: string[] = [];
  for (const sub of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!sub.isDirectory()) continue;
    for (const f of fs.readdirSync(path.join(dir, sub.name)).sort()) {
      if (f.endsWith('.json')) out.push(`${sub.name}/${f}`);
    }
  }
  return out.sort();
}

/**
 * Nested `title`s are Chinese labels for the console, not type names: keep them as doc comments
 * so that only each file's own (English) title names a type.
 */
function stripNestedTitles(node: unknown, root = true): unknown {
  if (Array.isArray(node)) return node.map((n) => stripNestedTitles(n, false));
  if (!node || typeof node !== 'object') return node;
  // a $ref with sibling labels would make json-schema-to-typescript declare the target again
  if ('$ref' in node && typeof node.$ref === 'string') return { $ref: node.$ref };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'title' && !root && typeof v === 'string') {
      if (!('description' in node)) out.description = v;
      continue;
    }
    out[k] =
      k === 'properties' || k === 'definitions' || k === '$defs'
        ? Object.fromEntries(Object.entries(v as object).map(([pk, pv]) => [pk, stripNestedTitles(pv, false)]))
        : stripNestedTitles(v, false);
  }
  return out;
}

/**
 * `export const SignState = { Pending: 0, ... } as const` for every enum of schemas/enums, from
 * each value's `x-name`: code compares against `SignState.Deleted`, never `4`. The constant shares
 * its name with the enum's type (a value and a type may), so one import gives both. Server-only
 * enums (`"x-internal": true`: no console schema refers to them) get their constants all the same.
 */
export function generateEnumConstants(dir = SCHEMA_DIR): string {
  const out: string[] = [];
  for (const f of listSchemaFiles(dir).filter((f) => f.startsWith('enums/'))) {
    const s = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
    if (!Array.isArray(s.oneOf)) throw new Error(`${f}: an enum lists its values under oneOf`);
    const names = new Set<string>();
    const lines = (s.oneOf as { const: unknown; title?: string; 'x-name'?: unknown }[]).map((o) => {
      const name = o['x-name'];
      if (typeof name !== 'string' || !ENUM_VALUE_NAME.test(name))
        throw new Error(`${f}: value ${JSON.stringify(o.const)} needs an x-name in PascalCase`);
      if (names.has(name)) throw new Error(`${f}: x-name ${name} is used twice`);
      names.add(name);
      return `  /** ${String(o.title ?? '').replace(/\*\//g, '* /')} */\n  ${name}: ${JSON.stringify(o.const)},`;
    });
    out.push(
      `/** ${String(s.description ?? s.title).replace(/\*\//g, '* /')} */\nexport const ${s.title} = {\n${lines.join('\n')}\n} as const;`,
    );
  }
  return `\n// Enum values by name (x-name in schemas/enums)\n\n${out.join('\n\n')}\n`;
}

/** TypeScript declarations for every schema under schemas/, one type per schema title, and the enum constants. */
export async function generateSchemaTypes(dir = SCHEMA_DIR): Promise<string> {
  const files = listSchemaFiles(dir);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'schema-gen-'));
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(work, f)), { recursive: true });
    const schema = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
    fs.writeFileSync(path.join(work, f), JSON.stringify(stripNestedTitles(schema)));
  }
  const index = {
    title: 'SchemaIndex',
    description: 'Every schema of schemas/, by path. Generated: do not edit.',
    type: 'object',
    properties: Object.fromEntries(files.map((f) => [f, { $ref: f }])),
    additionalProperties: false,
  };
  const ts = await compile(index as Parameters<typeof compile>[0], 'SchemaIndex', {
    cwd: work,
    bannerComment:
      '/* eslint-disable */\n/**\n * Generated from schemas/ by `npm run gen` (json-schema-to-typescript and scripts/schema-types.ts),\n * at build, dev, test and storybook time; not committed. Do not edit: change the schema.\n */',
    additionalProperties: false,
    unreachableDefinitions: false,
    format: true,
    style: { singleQuote: true, printWidth: 120 },
  });
  fs.rmSync(work, { recursive: true, force: true });
  return ts + generateEnumConstants(dir);
}
