/**
 * Payload validation with the shared schemas (schemas/forms/*, schemas/filters/*, the small
 * parameter schemas of server/http/params.ts): the same rules and Chinese messages as the
 * console's forms. Every route declares its `schema.body` / `schema.querystring`; Fastify
 * validates it before the handler through `installSchemaValidation` (the shared ajv setup of
 * common/schema, ajv-errors messages). Form posts and query strings carry only strings, so
 * values are first coerced to the type the schema declares (numbers, booleans, JSON arrays),
 * `x-trim` fields are trimmed, then ajv runs. A failure answers
 * `{ code: 400, msg: <first schema message>, data: { errors: [{ field, message }] } }`.
 */
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { toFieldErrors, trimBySchema, type JsonSchema } from '../../common/schema';
import { ApiError } from './errors';
import { BAD_PARAM } from './params';
import { SCHEMA_KEY, type ServerSchemas } from '../schemas';

type Data = Record<string, unknown>;
type Coercer = (data: Data) => Data;

function typeOf(p: any): string | undefined {
  if (!p || typeof p !== 'object') return undefined;
  if (typeof p.type === 'string') return p.type;
  if (Array.isArray(p.type)) return p.type.includes('string') ? 'string' : p.type[0];
  const consts = (p.oneOf ?? p.anyOf ?? []).map((o: any) => o?.const).filter((c: unknown) => c !== undefined);
  if (consts.length && consts.every((c: unknown) => typeof c === 'number')) return 'number';
  return undefined;
}

function coerceValue(type: string | undefined, v: unknown): unknown {
  if (typeof v !== 'string') return v;
  switch (type) {
    case 'integer':
    case 'number': {
      const t = v.trim();
      return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : v;
    }
    case 'boolean':
      if (['1', 'true', 'on', 'yes'].includes(v)) return true;
      if (['0', 'false', 'off', 'no', ''].includes(v)) return false;
      return v;
    case 'array':
    case 'object':
      try {
        return JSON.parse(v);
      } catch {
        return v;
      }
    default:
      return v;
  }
}

/** Coerces the top-level string values of a payload to the types an (inlined) object schema declares. */
function coercerOf(schema: JsonSchema): Coercer {
  const props: Record<string, any> = schema.properties ?? {};
  const types = Object.fromEntries(Object.entries(props).map(([k, p]) => [k, typeOf(p)]));
  return (data) => {
    const out: Data = {};
    for (const [k, v] of Object.entries(data)) out[k] = coerceValue(types[k], v);
    return out;
  };
}

const asObject = (v: unknown): Data => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Data) : {});

export type PayloadCheck = (payload: unknown) => { ok: true; data: Data } | { ok: false; error: ApiError };

const checks = new WeakMap<ServerSchemas, WeakMap<JsonSchema, PayloadCheck>>();

/** Coerce, trim and validate against one schema (a route schema or `schemas.routeSchema(key)`). */
export function payloadCheck(schemas: ServerSchemas, schema: JsonSchema): PayloadCheck {
  let bySchema = checks.get(schemas);
  if (!bySchema) checks.set(schemas, (bySchema = new WeakMap()));
  let check = bySchema.get(schema);
  if (check) return check;
  const key = schema[SCHEMA_KEY] as string | undefined;
  const shape = key ? schemas.registry.inline(key) : schema;
  const coerce = coercerOf(shape);
  const fn = schemas.compile(schema);
  check = (payload) => {
    const data = trimBySchema(shape, coerce(asObject(payload)));
    if (fn(data)) return { ok: true, data };
    // a check the schema gives no message of its own (ajv's English text) answers 参数错误
    const errors = toFieldErrors((fn.errors ?? []).map((e) => (e.keyword === 'errorMessage' ? e : { ...e, message: BAD_PARAM })));
    return { ok: false, error: new ApiError(400, errors[0]?.message ?? BAD_PARAM, { errors }) };
  };
  bySchema.set(schema, check);
  return check;
}

/**
 * Fastify's validator compiler for every route: the shared ajv, coercion of form values, the
 * schema's own messages. Call before any route is registered.
 */
export function installSchemaValidation(app: FastifyInstance, schemas: ServerSchemas) {
  const compiler: FastifySchemaCompiler<JsonSchema> = ({ schema }) => {
    const check = payloadCheck(schemas, schema);
    return (payload: unknown) => {
      const r = check(payload);
      return r.ok ? { value: r.data } : { error: r.error };
    };
  };
  app.setValidatorCompiler(compiler);
}

/**
 * Validates `body` against `forms/...` inside a service (a payload the service assembles itself,
 * e.g. one spreadsheet row); throws code 400 with the first message and `data.errors`.
 */
export function validateForm<T>(schemas: ServerSchemas, key: string, body: unknown): T {
  const r = payloadCheck(schemas, formSchema(schemas, key))(body);
  if (!r.ok) throw r.error;
  return r.data as T;
}

const formSchemas = new WeakMap<ServerSchemas, Map<string, JsonSchema>>();
/** `schemas.routeSchema(key)`, once per key (route schemas are compared by identity). */
export function formSchema(schemas: ServerSchemas, key: string): JsonSchema {
  let byKey = formSchemas.get(schemas);
  if (!byKey) formSchemas.set(schemas, (byKey = new Map()));
  let s = byKey.get(key);
  if (!s) byKey.set(key, (s = schemas.routeSchema(key)));
  return s;
}
