/**
 * Refine data provider over the console's HTTP client, driven by a resource registry: the data
 * resources the folders declare with their screens (src/resources/<x>/index.ts, collected by
 * resourceRegistry in layout/declarations.ts; ConsoleRefine builds it from the screen table).
 * It maps Refine pagination and filters onto each endpoint's own parameter names and normalises
 * the spec's three list shapes into `{ data, total }`.
 *
 * The spec's endpoints do not share one convention, so each resource says, in data:
 * - which endpoint lists it, with which HTTP method (GET query, POST form, POST JSON);
 * - how Refine's pagination maps onto the endpoint's own parameter names
 *   (`currentPage` + `pageRowCount`, or `page` + `rows`), default page size 15;
 * - (filters need no declaration: a list screen's filter schema names the parameters, with
 *   `x-param` where the API's name differs; useSchemaList sends them as they are);
 * - which endpoints read, create, update and delete one record.
 * The list-shape normalisation ({list,totalCount,...} | {data,totalRecord,...} |
 * {entityList,totalCount}) is this provider's job and needs no declaration.
 */
import type {
  BaseRecord,
  CreateParams,
  CreateResponse,
  CrudFilter,
  CrudSort,
  CustomParams,
  DataProvider,
  DeleteOneParams,
  DeleteOneResponse,
  GetListParams,
  GetListResponse,
  GetOneParams,
  GetOneResponse,
  Pagination,
  UpdateParams,
  UpdateResponse,
} from '@refinedev/core';
import { get, postForm, postJson, type ApiBody, type ApiRequestConfig } from './http';

/** How a call sends its parameters: GET query string, POST form (urlencoded) or POST JSON. */
export type CallMethod = 'get' | 'form' | 'json';

/**
 * Paging parameter convention of an endpoint:
 * - `currentPage`: `currentPage` (1-based) + `pageRowCount`
 * - `page`: `page` (1-based) + `rows`
 * - `none`: the endpoint is not paged (returns everything)
 */
export type PagingStyle = 'currentPage' | 'page' | 'none';

export const DEFAULT_PAGE_SIZE = 15;

/** A filter mapping: the endpoint's parameter name, or a function returning the parameters to send. */
export type FilterMapping = string | ((value: unknown) => Record<string, unknown>);

export interface Endpoint {
  /** path under /api; `:id` is replaced with the record id */
  url: string;
  method?: CallMethod;
  /** name of the parameter carrying the record id (when the id is not in the path) */
  idParam?: string;
  /** fixed parameters sent with every call */
  params?: Record<string, unknown>;
}

export interface ListEndpoint extends Endpoint {
  paging?: PagingStyle;
  /** page size when the screen does not choose one (default 15) */
  pageSize?: number;
  /**
   * Refine filter field -> endpoint parameter(s); unmapped fields are sent under their own name.
   * The console's lists need none (their filter schemas say the parameter names: schemaFilters).
   */
  filters?: Record<string, FilterMapping>;
  /** Refine sorters -> endpoint parameters (sorting is not sent unless the resource says how) */
  sorters?: (sorters: CrudSort[]) => Record<string, unknown>;
}

export interface ResourceDefinition {
  list?: ListEndpoint;
  one?: Endpoint;
  create?: Endpoint;
  update?: Endpoint;
  deleteOne?: Endpoint;
  /** record field holding the id (Refine expects `id`); copied to `id` when absent */
  idField?: string;
}

export type ResourceRegistry = Record<string, ResourceDefinition>;

export interface NormalisedList<T = BaseRecord> {
  data: T[];
  total: number;
}

const num = (v: unknown, fallback: number) => {
  const n = Number(v);
  return v === undefined || v === null || v === '' || Number.isNaN(n) ? fallback : n;
};

/** One container (body.data or the body itself) -> list, if it has one of the known shapes. */
function listIn(container: unknown): NormalisedList | undefined {
  if (!container || typeof container !== 'object' || Array.isArray(container)) return undefined;
  const c = container as Record<string, unknown>;
  // {list, totalCount, currentPage, pageRowCount, totalPage}
  if (Array.isArray(c.list)) return { data: c.list, total: num(c.totalCount ?? c.totalRecord, c.list.length) };
  // {entityList, totalCount}
  if (Array.isArray(c.entityList))
    return { data: c.entityList, total: num(c.totalCount ?? c.totalRecord, c.entityList.length) };
  // {data, totalRecord, page, rows} where rows is the page size ... or rows is the array
  if (Array.isArray(c.rows))
    return { data: c.rows, total: num(c.totalRecord ?? c.totalCount ?? c.total, c.rows.length) };
  if (Array.isArray(c.data))
    return { data: c.data, total: num(c.totalRecord ?? c.totalCount ?? c.total, c.data.length) };
  return undefined;
}

/**
 * The spec's list answers, found at body.data or at the body's top level:
 * `{list,totalCount,currentPage,pageRowCount,totalPage}`, `{data,totalRecord,page,rows}`
 * (rows may be the array), `{entityList,totalCount}`; a bare array counts as one unpaged list.
 */
export function normaliseList<T = BaseRecord>(body: ApiBody | unknown): NormalisedList<T> {
  if (Array.isArray(body)) return { data: body as T[], total: body.length };
  if (!body || typeof body !== 'object') return { data: [], total: 0 };
  const b = body as Record<string, unknown>;
  if (Array.isArray(b.data) && !('totalRecord' in b) && !('totalCount' in b))
    return { data: b.data as T[], total: b.data.length };
  return (listIn(b.data) ?? listIn(b) ?? { data: [], total: 0 }) as NormalisedList<T>;
}

/** the paging keys of the spec's list answers (normaliseList reads them) */
const PAGING_KEYS = new Set([
  'totalCount',
  'totalRecord',
  'total',
  'currentPage',
  'pageRowCount',
  'totalPage',
  'page',
  'rows',
]);

/**
 * What a list answer's `data` holds beside its rows and paging: the figures over the whole filter
 * (a report's `totals`, the sensitive words' `fileCount`), kept on Refine's answer
 * (`tableQuery.data`) under their own names.
 */
export function figuresBesideRows(body: ApiBody | unknown): Record<string, unknown> {
  const d = body && typeof body === 'object' && !Array.isArray(body) ? (body as { data?: unknown }).data : undefined;
  if (!d || typeof d !== 'object' || Array.isArray(d)) return {};
  return Object.fromEntries(
    Object.entries(d).filter(([k, v]) => !PAGING_KEYS.has(k) && !Array.isArray(v) && v !== undefined && v !== null),
  );
}

/** Refine pagination -> the endpoint's page parameters. */
export function pagingParams(endpoint: ListEndpoint, pagination?: Pagination): Record<string, number> {
  const style = endpoint.paging ?? 'currentPage';
  if (style === 'none' || pagination?.mode === 'off' || pagination?.mode === 'client') return {};
  const page = pagination?.currentPage ?? 1;
  const size = pagination?.pageSize ?? endpoint.pageSize ?? DEFAULT_PAGE_SIZE;
  return style === 'page' ? { page, rows: size } : { currentPage: page, pageRowCount: size };
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** Refine filters -> the endpoint's filter parameters (empty values are left out). */
export function filterParams(endpoint: ListEndpoint, filters: CrudFilter[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const visit = (f: CrudFilter) => {
    if (f.operator === 'or' || f.operator === 'and') {
      f.value.forEach(visit);
      return;
    }
    if (!('field' in f) || isEmpty(f.value)) return;
    const mapping = endpoint.filters?.[f.field];
    if (typeof mapping === 'function') Object.assign(out, mapping(f.value));
    else out[mapping ?? f.field] = f.value;
  };
  filters.forEach(visit);
  return out;
}

/** Sends one call the way the endpoint wants it; resolves with the whole body. */
export function call<T = unknown>(
  method: CallMethod,
  url: string,
  params?: object,
  config?: ApiRequestConfig,
): Promise<ApiBody<T>> {
  if (method === 'form') return postForm<T>(url, params, config);
  if (method === 'json') return postJson<T>(url, params, config);
  return get<T>(url, params, config);
}

function definition(registry: ResourceRegistry, resource: string): ResourceDefinition {
  const def = registry[resource];
  if (!def) throw new Error(`未登记的资源：${resource}`);
  return def;
}

function endpointOf<K extends keyof ResourceDefinition>(
  def: ResourceDefinition,
  resource: string,
  kind: K,
): NonNullable<ResourceDefinition[K]> {
  const ep = def[kind];
  if (!ep) throw new Error(`资源 ${resource} 没有 ${String(kind)} 接口`);
  return ep;
}

function withId(ep: Endpoint, id: unknown, params?: object) {
  const hasPathId = ep.url.includes(':id');
  const url = hasPathId ? ep.url.replace(':id', encodeURIComponent(String(id))) : ep.url;
  const extra = !hasPathId && ep.idParam ? { [ep.idParam]: id } : {};
  return { url, params: { ...ep.params, ...extra, ...params } };
}

function withRecordId<T extends BaseRecord>(def: ResourceDefinition, record: T): T {
  if (!def.idField || !record || typeof record !== 'object' || record.id !== undefined) return record;
  return { ...record, id: record[def.idField] };
}

/** A data provider over the given registry (ConsoleRefine: the screen table's, resourceRegistry; tests pass their own). */
export function createDataProvider(registry: ResourceRegistry): DataProvider {
  return {
    getApiUrl: () => '/api',

    async getList<TData extends BaseRecord = BaseRecord>({
      resource,
      pagination,
      filters,
      sorters,
      meta,
    }: GetListParams): Promise<GetListResponse<TData>> {
      const def = definition(registry, resource);
      const ep = endpointOf(def, resource, 'list');
      const params = {
        ...ep.params,
        ...filterParams(ep, filters),
        ...(sorters?.length && ep.sorters ? ep.sorters(sorters) : {}),
        ...pagingParams(ep, pagination),
        ...meta?.params,
      };
      const body = await call(ep.method ?? 'get', ep.url, params);
      const { data, total } = normaliseList(body);
      // the figures the server answers beside the rows (the reports' `totals`, the sensitive words' `fileCount`)
      return { ...figuresBesideRows(body), data: data.map((r) => withRecordId(def, r) as TData), total };
    },

    async getOne<TData extends BaseRecord = BaseRecord>({
      resource,
      id,
      meta,
    }: GetOneParams): Promise<GetOneResponse<TData>> {
      const def = definition(registry, resource);
      const ep = endpointOf(def, resource, 'one');
      const { url, params } = withId(ep, id, meta?.params);
      const body = await call<TData>(ep.method ?? 'get', url, params);
      return { data: withRecordId(def, body.data as TData) };
    },

    async create<TData extends BaseRecord = BaseRecord, TVariables = object>({
      resource,
      variables,
      meta,
    }: CreateParams<TVariables>): Promise<CreateResponse<TData>> {
      const def = definition(registry, resource);
      const ep = endpointOf(def, resource, 'create');
      const body = await call(ep.method ?? 'form', ep.url, { ...ep.params, ...(variables as object), ...meta?.params });
      return { data: withRecordId(def, (body.data ?? variables) as TData) };
    },

    async update<TData extends BaseRecord = BaseRecord, TVariables = object>({
      resource,
      id,
      variables,
      meta,
    }: UpdateParams<TVariables>): Promise<UpdateResponse<TData>> {
      const def = definition(registry, resource);
      const ep = endpointOf(def, resource, 'update');
      const { url, params } = withId(ep, id, { ...(variables as object), ...meta?.params });
      const body = await call(ep.method ?? 'form', url, params);
      return { data: withRecordId(def, (body.data ?? { id, ...(variables as object) }) as TData) };
    },

    async deleteOne<TData extends BaseRecord = BaseRecord, TVariables = object>({
      resource,
      id,
      variables,
      meta,
    }: DeleteOneParams<TVariables>): Promise<DeleteOneResponse<TData>> {
      const def = definition(registry, resource);
      const ep = endpointOf(def, resource, 'deleteOne');
      const { url, params } = withId(ep, id, { ...(variables as object), ...meta?.params });
      const body = await call(ep.method ?? 'form', url, params);
      return { data: (body.data ?? { id }) as TData };
    },

    /**
     * Any other call. `method: 'get'` sends `query` as the query string; `post` sends `payload`
     * as a form unless `meta.json` is set. Resolves with `{ data: body.data, body }`.
     */
    async custom<TData extends BaseRecord = BaseRecord, TQuery = unknown, TPayload = unknown>({
      url,
      method,
      query,
      payload,
      headers,
      meta,
    }: CustomParams<TQuery, TPayload>) {
      const config: ApiRequestConfig = { headers, silent: meta?.silent };
      let body: ApiBody;
      if (method === 'get') body = await get(url, query as object, config);
      else
        body = await call(meta?.json ? 'json' : 'form', url, { ...(query as object), ...(payload as object) }, config);
      return { data: body.data as TData, body };
    },
  };
}
