/**
 * The schema as the server's typed contract: a route names the schemas of schemas/ it takes and
 * answers, and its handler receives the generated type of that schema (common/generated/schemas:
 * `SchemaIndex`), not `unknown`.
 *
 *   const r = api(app);      // the module's routes, typed by this provider
 *   r.post('/sign/list', route({ tag, summary, access: 'session', body: request(ctx, 'filters/sign', { paging: 'currentPage' }),
 *     response: listOf(ctx, 'entities/sign') }), async (req) => ok(await signs.list(me, req.body)));   // req.body: SignFilter & CurrentPaging
 *
 * - `request(ctx, key, opts)`: a filter, form or params schema (schemas/filters, schemas/forms,
 *   schemas/params) as a route's body or querystring, with the paging parameters when the list has
 *   them. Fastify validates it before the handler (server/http/validation.ts: form values coerced to
 *   the declared types, empty values dropped, `x-trim` trimmed, the schema's own messages).
 * - `reply` schemas: `okOf(ctx, 'entities/x')`, `listOf(ctx, 'entities/x')` (the spec's
 *   `{list,totalCount,...}` page), `dataPageOf`, `entityPageOf`, `okEmpty`, `fileReply`: the
 *   `{code, msg, data}` envelope with `data` from the entity schemas. The OpenAPI document shows
 *   them; the test harness checks every answer against them (server/http/validation.ts
 *   `installResponseCheck`), so an entity schema and what a route answers can never drift apart.
 *
 * Typing works through a Fastify type provider over the schema objects themselves: each schema
 * built here carries its TypeScript type as a phantom property, which `SchemaTypeProvider` reads.
 */
import type { FastifyInstance, FastifyTypeProvider } from 'fastify';
import type { JsonSchema } from '../../common/schema';
import type { SchemaIndex } from '../../common/generated/schemas';
import type { ServerSchemas } from '../schemas';
import { SCHEMA_KEY } from '../schemas';
import { CURRENT_PAGE, PAGE_ROWS } from './params';

/** "filters/sign" for every schema of schemas/ ("filters/sign.json" in the generated index). */
export type SchemaKey = keyof SchemaIndex extends infer K ? (K extends `${infer B}.json` ? B : never) : never;
/** The generated type of a schema of schemas/. */
export type SchemaType<K extends SchemaKey> = NonNullable<SchemaIndex[`${K}.json`]>;

declare const TYPE: unique symbol;
/** A route schema that knows the TypeScript type of the values it admits. */
export type TypedSchema<T> = JsonSchema & { readonly [TYPE]?: T };

/** The type a typed schema admits. */
export type TypeOfSchema<S> = S extends { readonly [TYPE]?: infer T } ? T : unknown;

/** Fastify type provider: `req.body` / `req.query` are the types of their route schemas. */
export interface SchemaTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends { readonly [TYPE]?: infer T } ? T : unknown;
  serializer: this['schema'] extends { readonly [TYPE]?: infer T } ? T : unknown;
}

/** A module's routes with their payloads typed from their schemas. */
export const api = (app: FastifyInstance) => app.withTypeProvider<SchemaTypeProvider>();

/** `currentPage` + `pageRowCount` (answer `{list,totalCount,...}`) */
export interface CurrentPaging {
  currentPage?: number;
  pageRowCount?: number;
}
/** `page` + `rows` (answer `{data,totalRecord,...}`) */
export interface PageRows {
  page?: number;
  rows?: number;
}

type PagingName = 'currentPage' | 'page';
type WithPaging<T, P extends PagingName | undefined> = P extends 'currentPage'
  ? T & CurrentPaging
  : P extends 'page'
    ? T & PageRows
    : T;

/** Where a request schema comes from: the key of schemas/ and the paging it adds. */
export interface RequestRef {
  key: string;
  paging?: PagingName;
}
/** The annotation the validator compiler reads (server/http/validation.ts). */
export const REQUEST_REF = 'x-request';

interface HasSchemas {
  schemas: ServerSchemas;
}

const requestCache = new WeakMap<ServerSchemas, Map<string, JsonSchema>>();

/**
 * A schema of schemas/ as a route's body or querystring: inlined for the document, tagged so that
 * validation uses the registry's compiled copy (cross-file $refs, ajv-errors messages), with the
 * paging parameters when asked. One object per (key, paging): Fastify compiles it once.
 */
export function request<K extends SchemaKey, P extends PagingName | undefined = undefined>(
  ctx: HasSchemas,
  key: K,
  opts: { paging?: P } = {},
): TypedSchema<WithPaging<SchemaType<K>, P>> {
  const schemas = ctx.schemas;
  let byKey = requestCache.get(schemas);
  if (!byKey) requestCache.set(schemas, (byKey = new Map()));
  const cacheKey = `${key}|${opts.paging ?? ''}`;
  let s = byKey.get(cacheKey);
  if (!s) {
    const inlined = schemas.registry.inline(key);
    const paging = opts.paging === 'currentPage' ? CURRENT_PAGE : opts.paging === 'page' ? PAGE_ROWS : {};
    const ref: RequestRef = { key: `${key}.json`, ...(opts.paging ? { paging: opts.paging } : {}) };
    s = {
      ...inlined,
      type: 'object',
      properties: { ...(inlined.properties ?? {}), ...paging },
      ...(opts.paging ? {} : { [SCHEMA_KEY]: `${key}.json` }),
      [REQUEST_REF]: ref,
    };
    byKey.set(cacheKey, s);
  }
  return s;
}

/** Just the paging parameters (a list without filters). */
export function pagingOnly<P extends PagingName>(paging: P): TypedSchema<WithPaging<object, P>> {
  return { type: 'object', properties: paging === 'currentPage' ? CURRENT_PAGE : PAGE_ROWS };
}

// ---- answers -------------------------------------------------------------------------------

const envelope = (data?: JsonSchema, title?: string): JsonSchema => ({
  type: 'object',
  ...(title ? { title } : {}),
  required: ['code', 'msg'],
  properties: {
    code: { type: 'integer', description: '0 成功，其余为错误码' },
    msg: { type: 'string', description: '提示信息（中文）' },
    ...(data ? { data } : {}),
  },
});

const entityCache = new WeakMap<ServerSchemas, Map<string, JsonSchema>>();
/** An entity schema inlined (the answer's rows). */
function entity(ctx: HasSchemas, key: SchemaKey): JsonSchema {
  let byKey = entityCache.get(ctx.schemas);
  if (!byKey) entityCache.set(ctx.schemas, (byKey = new Map()));
  let s = byKey.get(key);
  if (!s) byKey.set(key, (s = ctx.schemas.registry.inline(key)));
  return s;
}

const PAGE_NUMBERS = {
  totalCount: { type: 'integer', description: '总条数' },
  currentPage: { type: 'integer', description: '当前页' },
  pageRowCount: { type: 'integer', description: '每页条数' },
  totalPage: { type: 'integer', description: '总页数' },
};

/** `{code, msg}` */
export const okEmpty: TypedSchema<unknown> = envelope();

/** `{code, msg, data}` with `data` an entity (or any schema given inline). */
export function okOf(ctx: HasSchemas, data: SchemaKey | JsonSchema): TypedSchema<unknown> {
  return envelope(typeof data === 'string' ? entity(ctx, data) : data);
}

/** A schema of schemas/ by its key, with its own title or description (a `$ref` with siblings, as in the files). */
export interface SchemaRef {
  $ref: SchemaKey;
  title?: string;
  description?: string;
}

/**
 * The figures a page answers beside its rows: each a schema given inline, by its key under
 * schemas/, or by `{ $ref: key, title }`.
 */
export type PageExtras = Record<string, JsonSchema | SchemaKey | SchemaRef>;

const isSchemaRef = (v: JsonSchema | SchemaRef): v is SchemaRef =>
  typeof v.$ref === 'string' && !v.$ref.startsWith('#');

const extraOf = (ctx: HasSchemas, v: JsonSchema | SchemaKey | SchemaRef): JsonSchema => {
  if (typeof v === 'string') return entity(ctx, v);
  if (!isSchemaRef(v)) return v;
  const { $ref: key, ...rest } = v;
  return { ...entity(ctx, key), ...rest };
};

const extrasOf = (ctx: HasSchemas, extra: PageExtras): Record<string, JsonSchema> =>
  Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, extraOf(ctx, v)]));

/**
 * `{code, msg, data: {list, totalCount, currentPage, pageRowCount, totalPage}}` of entity rows, and
 * the `extra` figures beside them.
 */
export function listOf(ctx: HasSchemas, row: SchemaKey, extra: PageExtras = {}): TypedSchema<unknown> {
  return envelope({
    type: 'object',
    required: ['list', 'totalCount'],
    properties: { list: { type: 'array', items: entity(ctx, row) }, ...PAGE_NUMBERS, ...extrasOf(ctx, extra) },
  });
}

/** `{code, msg, data: {data, totalRecord, page, rows, totalPage}}` of entity rows. */
export function dataPageOf(ctx: HasSchemas, row: SchemaKey, extra: PageExtras = {}): TypedSchema<unknown> {
  return envelope({
    type: 'object',
    required: ['data', 'totalRecord'],
    properties: {
      data: { type: 'array', items: entity(ctx, row) },
      totalRecord: { type: 'integer' },
      page: { type: 'integer' },
      rows: { type: 'integer' },
      ...PAGE_NUMBERS,
      ...extrasOf(ctx, extra),
    },
  });
}

/** `{code, msg, data: {entityList, totalCount, ...}}` of entity rows. */
export function entityPageOf(ctx: HasSchemas, row: SchemaKey, extra: PageExtras = {}): TypedSchema<unknown> {
  return envelope({
    type: 'object',
    required: ['entityList', 'totalCount'],
    properties: { entityList: { type: 'array', items: entity(ctx, row) }, ...PAGE_NUMBERS, ...extrasOf(ctx, extra) },
  });
}

/** `{code, msg, data: [rows]}` */
export function arrayOf(ctx: HasSchemas, row: SchemaKey | JsonSchema): TypedSchema<unknown> {
  return envelope({ type: 'array', items: typeof row === 'string' ? entity(ctx, row) : row });
}

/**
 * A file answer (an export, a template, a document): the body is the file, or `{code, msg}` when
 * it is refused (e.g. 当前条件没有数据，无法导出).
 */
export function fileReply(mime: string, description = '文件'): JsonSchema {
  return {
    description,
    content: { [mime]: { schema: { type: 'string', format: 'binary' } }, 'application/json': { schema: envelope() } },
  };
}
