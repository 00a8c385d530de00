import fs from 'node:fs';
import path from 'node:path';
import type Ajv from 'ajv';
import { createAjv, SchemaRegistry, toFieldErrors, trimBySchema, type FieldError, type SchemaMap } from '../common/schema';

export const DEFAULT_SCHEMA_DIR = path.resolve(import.meta.dirname, '../schemas');

export function loadSchemaMap(dir = DEFAULT_SCHEMA_DIR): SchemaMap {
  const map: SchemaMap = {};
  for (const sub of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!sub.isDirectory()) continue;
    for (const f of fs.readdirSync(path.join(dir, sub.name))) {
      if (f.endsWith('.json')) map[`${sub.name}/${f}`] = JSON.parse(fs.readFileSync(path.join(dir, sub.name, f), 'utf8'));
    }
  }
  return map;
}

export type ValidationResult<T> = { ok: true; data: T } | { ok: false; errors: FieldError[]; message: string };

/** The server's view of schemas/: the same documents, rules and messages as the console's forms. */
export class ServerSchemas {
  readonly registry: SchemaRegistry;
  private readonly ajv: Ajv;

  constructor(dir = DEFAULT_SCHEMA_DIR) {
    const map = loadSchemaMap(dir);
    this.registry = new SchemaRegistry(map);
    this.ajv = createAjv(map);
  }

  /** Validates a payload against a form schema ("forms/login"); trims `x-trim` fields first. */
  validate<T = Record<string, unknown>>(key: string, payload: unknown): ValidationResult<T> {
    const k = key.endsWith('.json') ? key : `${key}.json`;
    const fn = this.ajv.getSchema(k);
    if (!fn) throw new Error(`unknown schema ${k}`);
    const data = trimBySchema(this.registry.get(k), (payload ?? {}) as Record<string, any>);
    if (fn(data)) return { ok: true, data: data as T };
    const errors = toFieldErrors(fn.errors);
    return { ok: false, errors, message: errors[0]?.message ?? '参数错误' };
  }
}
