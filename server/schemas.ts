import fs from 'node:fs';
import path from 'node:path';
import type Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import {
  createAjv,
  SchemaRegistry,
  toFieldErrors,
  trimBySchema,
  type FieldError,
  type JsonSchema,
  type SchemaMap,
} from '../common/schema';
import { MESSAGES } from '../common/schema/messages';

export const DEFAULT_SCHEMA_DIR = path.resolve(import.meta.dirname, '../schemas');

export function loadSchemaMap(dir = DEFAULT_SCHEMA_DIR): SchemaMap {
  const map: SchemaMap = {};
  for (const sub of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!sub.isDirectory()) continue;
    for (const f of fs.readdirSync(path.join(dir, sub.name))) {
      if (f.endsWith('.json'))
        map[`${sub.name}/${f}`] = JSON.parse(fs.readFileSync(path.join(dir, sub.name, f), 'utf8'));
    }
  }
  return map;
}

export type ValidationResult<T> = { ok: true; data: T } | { ok: false; errors: FieldError[]; message: string };

/**
 * The annotation a route schema built from a registry document carries: the validator compiler
 * validates with the registry's own compiled schema (cross-file $refs, ajv-errors messages),
 * while the document (OpenAPI) shows the inlined copy.
 */
export const SCHEMA_KEY = 'x-schema-key';

const sharedByDir = new Map<string, ServerSchemas>();

const keyOf = (key: string) => (key.endsWith('.json') ? key : `${key}.json`);

/** The server's view of schemas/: the same documents, rules and messages as the console's forms. */
export class ServerSchemas {
  readonly registry: SchemaRegistry;
  private readonly ajv: Ajv;
  /** route-own schemas compiled so far, by their text: a route object made again compiles once */
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(dir = DEFAULT_SCHEMA_DIR) {
    const map = loadSchemaMap(dir);
    this.registry = new SchemaRegistry(map);
    this.ajv = createAjv(map);
  }

  /**
   * One instance per schema directory and process: its compiled validators are reused by every
   * app the process builds (one in production; the tests build hundreds, each compiling the same
   * routes for about 0.5 s of CPU otherwise). Read-only once loaded.
   */
  static shared(dir = DEFAULT_SCHEMA_DIR): ServerSchemas {
    let one = sharedByDir.get(dir);
    if (!one) sharedByDir.set(dir, (one = new ServerSchemas(dir)));
    return one;
  }

  /** The compiled validator of a registry document ("forms/login"), a type guard of `T` (its generated type). */
  validator<T = unknown>(key: string): ValidateFunction<T> {
    const fn = this.ajv.getSchema<T>(keyOf(key));
    if (!fn) throw new Error(`unknown schema ${keyOf(key)}`);
    return fn;
  }

  /** Compiles a route's own schema (params, paging) with the same ajv: same formats, keywords and messages. */
  compile(schema: JsonSchema): ValidateFunction {
    const key = schema[SCHEMA_KEY];
    if (typeof key === 'string') return this.validator(key);
    const text = JSON.stringify(schema);
    let fn = this.compiled.get(text);
    if (!fn) this.compiled.set(text, (fn = this.ajv.compile(schema)));
    return fn;
  }

  /**
   * A type guard of `T` from a schema over registry documents (`{ allOf: [{ $ref: 'params/….json' }], required: […] }`)
   * for a value the server reads that is no route's request (a provider's notification). Compiles on each call: keep it.
   */
  guard<T>(schema: JsonSchema): ValidateFunction<T> {
    return this.ajv.compile<T>(schema);
  }

  /**
   * A registry document as a route schema (`schema.body` / `schema.querystring`): inlined for the
   * document, tagged with its key so validation uses the registry's compiled copy.
   */
  routeSchema(key: string): JsonSchema {
    return { ...this.registry.inline(key), [SCHEMA_KEY]: keyOf(key) };
  }

  /** Validates a payload against a form schema ("forms/login"); trims `x-trim` fields first. */
  validate<T = Record<string, unknown>>(key: string, payload: unknown): ValidationResult<T> {
    const k = keyOf(key);
    const fn = this.validator(k);
    const data = trimBySchema(this.registry.get(k), (payload ?? {}) as Record<string, unknown>);
    if (fn(data)) return { ok: true, data: data as T };
    const errors = toFieldErrors(fn.errors);
    return { ok: false, errors, message: errors[0]?.message ?? MESSAGES.badParam };
  }
}
