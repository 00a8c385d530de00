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
import type { ValidateFunction } from 'ajv';
import fastJson from 'fast-json-stringify';
import { createAjv, toFieldErrors, trimBySchema, type JsonSchema } from '../../common/schema';
import { CUSTOM_FORMATS } from '../../common/schema/formats';
import { ApiError } from './errors';
import { BAD_PARAM } from './params';
import { REQUEST_REF, type RequestRef } from './contract';
import { SCHEMA_KEY, type ServerSchemas } from '../schemas';

type Data = Record<string, unknown>;
type Coercer = (data: Data) => Data;

function typeOf(p: JsonSchema | undefined): string | undefined {
  if (!p || typeof p !== 'object') return undefined;
  if (typeof p.type === 'string') return p.type;
  if (Array.isArray(p.type)) return p.type.includes('string') ? 'string' : p.type[0];
  const consts = (p.oneOf ?? p.anyOf ?? []).map((o) => o?.const).filter((c: unknown) => c !== undefined);
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

/**
 * Coerces the top-level string values of a payload to the types an (inlined) object schema declares,
 * and drops empty values before validation: `''` and `null` of a property that is not a plain
 * string (a number, an enum, a date, a list: empty means "not given"), and of every property of a
 * list filter or parameter schema (`dropAllEmpty`: an empty filter means "any"). A form's own text
 * fields keep `''` (an edit may clear a text).
 */
function coercerOf(schema: JsonSchema, dropAllEmpty: boolean): Coercer {
  const props: Record<string, JsonSchema> = schema.properties ?? {};
  const types = Object.fromEntries(Object.entries(props).map(([k, p]) => [k, typeOf(p)]));
  const plainText = Object.fromEntries(
    Object.entries(props).map(([k, p]) => [k, typeOf(p) === 'string' && !p?.format]),
  );
  // `x-param`: the API's name of a property (the console's schemaFilters sends it under that name):
  // read it back into the property, so handlers, services and SQL see the schema's own names
  const renamed = new Map<string, string>();
  const ranges: [string, string, string][] = [];
  for (const [k, p] of Object.entries(props)) {
    const param = p?.['x-param'];
    if (typeof param === 'string' && param !== k) renamed.set(param, k);
    if (Array.isArray(param) && param.length === 2) ranges.push([k, String(param[0]), String(param[1])]);
  }
  return (raw) => {
    let data = raw;
    if (renamed.size || ranges.length) {
      data = {};
      for (const [k, v] of Object.entries(raw)) {
        if (renamed.has(k)) data[renamed.get(k)!] = v;
        else if (!(k in props) || !(typeof props[k]?.['x-param'] === 'string' || Array.isArray(props[k]?.['x-param'])))
          data[k] = v;
      }
      for (const [k, from, to] of ranges) {
        const pair = [raw[from] ?? '', raw[to] ?? ''];
        if (pair.some((x) => x !== '' && x !== null)) data[k] = pair;
      }
    }
    const out: Data = {};
    for (const [k, v] of Object.entries(data)) {
      const blank = v === null || (typeof v === 'string' && (v === '' || (props[k]?.['x-trim'] && v.trim() === '')));
      if (blank && (dropAllEmpty || !plainText[k])) continue;
      out[k] = coerceValue(types[k], v);
    }
    return out;
  };
}

/** A top-level property's own `errorMessage` string (`/state` → the state property's). */
function propertyMessage(shape: JsonSchema, instancePath: string): string | undefined {
  const m = /^\/([^/]+)/.exec(instancePath);
  const msg = m ? shape.properties?.[m[1]]?.errorMessage : undefined;
  return typeof msg === 'string' ? msg : undefined;
}

const HTTP_OK = 200;

const PAGING_NAMES = new Set(['currentPage', 'pageRowCount', 'page', 'rows']);

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
  const ref = schema[REQUEST_REF] as RequestRef | undefined;
  // a request(ctx, key, {paging}) schema is already the inlined filter plus the paging parameters
  const shape = ref ? schema : key ? schemas.registry.inline(key) : schema;
  const isForm = (ref?.key ?? key ?? '').startsWith('forms/');
  const coerce = coercerOf(shape, !isForm);
  const fn = ref?.paging
    ? // the registry's compiled filter (its cross-file $refs and messages) and the paging numbers
      schemas.compile({
        allOf: [
          { $ref: ref.key },
          {
            type: 'object',
            properties: Object.fromEntries(Object.entries(shape.properties ?? {}).filter(([k]) => PAGING_NAMES.has(k))),
          },
        ],
      })
    : schemas.compile(schema);
  check = (payload) => {
    const data = trimBySchema(shape, coerce(asObject(payload)));
    if (fn(data)) return { ok: true, data };
    // a check the schema gives no message of its own (ajv's English text) answers 参数错误 — in a
    // filter or parameter schema the property's own errorMessage when it has a plain one (a $ref'd
    // enum's sibling message, which ajv does not apply itself)
    const errors = toFieldErrors(
      (fn.errors ?? []).map((e) =>
        e.keyword === 'errorMessage'
          ? e
          : { ...e, message: (isForm ? undefined : propertyMessage(shape, e.instancePath)) ?? BAD_PARAM },
      ),
    );
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

/**
 * Answers are serialised through their route's 200 response schema (fast-json-stringify, the
 * serializer Fastify itself would use): a successful answer (`code` 0) of a route that declares one
 * is written by code compiled from that schema, which is faster than JSON.stringify on the lists
 * (bench/list-load.ts). Every other answer (an error's `{code, msg, data}`, a route without a
 * schema, a file) is written with JSON.stringify.
 *
 * A compiled serializer writes what the schema says, not what the handler gave: it drops a field
 * the schema forgot and writes a money string a schema calls a number as a number. So with
 * `exact` (config.checkResponses, on in every test) each fast answer is compared with
 * JSON.stringify's: a difference is an error naming the route and up to five paths that differ,
 * so a test catches any answer the schema would change. Without it (production) a serializer that
 * throws (a required field missing) falls back to JSON.stringify: the caller gets the handler's
 * answer either way.
 */
export function installSerializer(app: FastifyInstance, opts: { exact?: boolean } = {}) {
  app.setSerializerCompiler(({ schema, httpStatus, url, method }) => {
    const declared = schema as JsonSchema | undefined;
    // a file answer (fileReply) declares its types under `content`: written as JSON when it is one
    if (String(httpStatus) !== String(HTTP_OK) || !declared || declared.content || declared.type !== 'object')
      return (data: unknown) => JSON.stringify(data);
    const fast = fastSerializer(declared);
    const route = `${String(method)} ${url}`;
    return (data: unknown) => {
      if (!data || typeof data !== 'object' || (data as Data).code !== 0) return JSON.stringify(data);
      if (!opts.exact) {
        try {
          return fast(data);
        } catch {
          return JSON.stringify(data);
        }
      }
      const out = fast(data);
      const want = JSON.stringify(data);
      if (out !== want) {
        const where = differences(JSON.parse(want), JSON.parse(out), '');
        if (where.length) {
          throw new Error(`answer of ${route}: its response schema changes it when serialised at ${where.join(', ')}`);
        }
      }
      return out;
    };
  });
}

type FastSerializer = ReturnType<typeof fastJson>;
/** compiled serializers by their schema's text, for every app of the process (as ServerSchemas.shared) */
const serializers = new Map<string, FastSerializer>();
function fastSerializer(declared: JsonSchema): FastSerializer {
  const text = JSON.stringify(declared);
  let fast = serializers.get(text);
  // its ajv (for anyOf branches) knows our formats, as the validators' does: no "unknown format" warning
  if (!fast)
    serializers.set(
      text,
      (fast = fastJson(freeFormObjects(declared) as Parameters<typeof fastJson>[0], {
        ajv: { formats: CUSTOM_FORMATS },
      })),
    );
  return fast;
}

/**
 * The schema with every object that names none of its properties (`{type: 'object'}`: any
 * object, in JSON Schema) marked `additionalProperties: true`: fast-json-stringify would write it
 * as `{}`. Objects that name their properties keep fast-json-stringify's rule (only those).
 */
function freeFormObjects(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(freeFormObjects);
  if (!s || typeof s !== 'object') return s;
  const out: Data = {};
  for (const [k, v] of Object.entries(s)) out[k] = k === 'enum' || k === 'const' ? v : freeFormObjects(v);
  const isObject = out.type === 'object' || (Array.isArray(out.type) && out.type.includes('object'));
  if (isObject && !out.properties && out.additionalProperties === undefined && !out.patternProperties)
    out.additionalProperties = true;
  return out;
}

/** The JSON paths where two parsed values differ (at most `max`; an array's items one by one). */
function differences(a: unknown, b: unknown, at: string, out: string[] = [], max = 5): string[] {
  if (out.length >= max || a === b) return out;
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  )
    out.push(at || '/');
  else
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)]))
      differences((a as Data)[k], (b as Data)[k], `${at}/${k}`, out, max);
  return out;
}

const responseChecks = new WeakMap<ServerSchemas, (schema: JsonSchema) => ValidateFunction>();
/** The answers' validators of a schema set, compiled once per response schema text. */
function responseCheckOf(schemas: ServerSchemas): (schema: JsonSchema) => ValidateFunction {
  let check = responseChecks.get(schemas);
  if (!check) {
    // its own ajv: a response schema's $id must not meet the request validators' copies
    const ajv = createAjv(schemas.registry.schemas);
    const byObject = new WeakMap<object, ValidateFunction>();
    const byText = new Map<string, ValidateFunction>();
    check = (schema) => {
      let fn = byObject.get(schema);
      if (fn) return fn;
      const text = JSON.stringify(schema);
      fn = byText.get(text);
      if (!fn) byText.set(text, (fn = ajv.compile(schema)));
      byObject.set(schema, fn);
      return fn;
    };
    responseChecks.set(schemas, check);
  }
  return check;
}

/**
 * The contract check of the tests (config.checkResponses): every successful answer (`code` 0) of a
 * route that declares a response schema is validated against it; a mismatch is a 500 naming the
 * route and the first differences, so an entity schema and the answers can never drift apart.
 */
export function installResponseCheck(app: FastifyInstance, schemas: ServerSchemas) {
  const check = responseCheckOf(schemas);
  app.addHook('preSerialization', async (req, reply, payload) => {
    if (reply.statusCode !== HTTP_OK || !payload || typeof payload !== 'object' || (payload as Data).code !== 0)
      return payload;
    const declared = (req.routeOptions.schema?.response as Record<string, JsonSchema> | undefined)?.[200];
    if (!declared) return payload;
    const content = declared.content as Record<string, { schema?: JsonSchema } | undefined> | undefined;
    const schema: JsonSchema | undefined = content ? content['application/json']?.schema : declared;
    if (!schema) return payload;
    const fn = check(schema);
    if (!fn(payload)) {
      const detail = (fn.errors ?? [])
        .slice(0, 5)
        .map((e) => `${e.instancePath || '/'} ${e.message}`)
        .join('; ');
      throw new Error(`answer of ${req.method} ${req.routeOptions.url} does not match its response schema: ${detail}`);
    }
    return payload;
  });
}
