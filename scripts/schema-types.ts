import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compile } from 'json-schema-to-typescript';

export const SCHEMA_DIR = path.resolve(import.meta.dirname, '../schemas');
export const GENERATED_FILE = path.resolve(import.meta.dirname, '../src/generated/schemas.ts');

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
function stripNestedTitles(node: any, root = true): any {
  if (Array.isArray(node)) return node.map((n) => stripNestedTitles(n, false));
  if (!node || typeof node !== 'object') return node;
  // a $ref with sibling labels would make json-schema-to-typescript declare the target again
  if (typeof node.$ref === 'string') return { $ref: node.$ref };
  const out: any = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'title' && !root && typeof v === 'string') {
      if (!('description' in node)) out.description = v;
      continue;
    }
    out[k] = k === 'properties' || k === 'definitions' || k === '$defs'
      ? Object.fromEntries(Object.entries(v as object).map(([pk, pv]) => [pk, stripNestedTitles(pv, false)]))
      : stripNestedTitles(v, false);
  }
  return out;
}

/** TypeScript declarations for every schema under schemas/, one type per schema title. */
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
  const ts = await compile(index as any, 'SchemaIndex', {
    cwd: work,
    bannerComment:
      '/* eslint-disable */\n/**\n * Generated from schemas/ by `npm run gen` (json-schema-to-typescript). Do not edit by hand:\n * change the schema and regenerate. A test fails when this file is stale.\n */',
    additionalProperties: false,
    unreachableDefinitions: false,
    format: true,
    style: { singleQuote: true, printWidth: 120 },
  });
  fs.rmSync(work, { recursive: true, force: true });
  return ts;
}
