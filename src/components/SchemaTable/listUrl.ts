/**
 * A list's state in the address bar, so a reload (or a shared link) shows the same list: the
 * filters as the request parameters the filter schema sends (schemaFilters: `beginDate=2026-11-01`,
 * `stateList=3,6`), the page (`current`) and the page size (`pageSize`) when not the first / the
 * default. Only the list's own keys are written; other query parameters of the page stay.
 *
 * Reading turns the parameters back into the filter bar's values by the same schema: dates into
 * the pickers' Dayjs (Asia/Shanghai business days), enum values into the enum's own values
 * (numbers stay numbers), integers into numbers, `true` / `false` into booleans, a multi-select's
 * comma list into its values.
 */
import type { Dayjs } from 'dayjs';
import { businessDay, businessTime } from '@/lib/businessTime';
import { schemas } from '@/schema';
import type { SchemaRegistry, JsonSchema } from '../../../common/schema/registry';
import { filterParamNames, isRange, paramsOf, type FilterParams } from '../../../common/schema/filters';

export const PAGE_KEY = 'current';
export const SIZE_KEY = 'pageSize';

export interface ListUrlState {
  /** the filter bar's values (undefined when the address names no filter) */
  values?: Record<string, unknown>;
  current?: number;
  pageSize?: number;
}

const positive = (v: string | null) => {
  const n = Number(v);
  return v !== null && Number.isInteger(n) && n > 0 ? n : undefined;
};

function dateValue(text: string, format: string | undefined): Dayjs | undefined {
  const d = format === 'date' ? businessDay(text) : businessTime(text);
  return d.isValid() ? d : undefined;
}

/** One parameter's text -> the control's value, by the property's schema. */
function valueOf(registry: SchemaRegistry, filterKey: string, name: string, p: JsonSchema, text: string): unknown {
  const info = registry.field(filterKey, name);
  const enumName: string | undefined = info?.enumName ?? (typeof p['x-enum'] === 'string' ? p['x-enum'] : undefined);
  const enumValue = (t: string) =>
    enumName ? (registry.enumOptions(enumName).find((o) => String(o.value) === t)?.value ?? undefined) : t;
  if (p['x-widget'] === 'enum-multi')
    return text
      .split(',')
      .map(enumValue)
      .filter((v) => v !== undefined);
  if (info?.enumName) return enumValue(text);
  if (p.format) return dateValue(text, p.format === 'date' ? 'date' : 'date-time');
  if (p.type === 'boolean') return text === 'true' ? true : text === 'false' ? false : undefined;
  if (p.type === 'integer' || p.type === 'number') {
    const n = Number(text);
    return Number.isFinite(n) ? n : undefined;
  }
  return text;
}

/** The list's state in `search` (undefined parts when absent). */
export function readListUrl(
  filterKey: string | undefined,
  search: URLSearchParams,
  registry: SchemaRegistry = schemas,
): ListUrlState {
  const state: ListUrlState = { current: positive(search.get(PAGE_KEY)), pageSize: positive(search.get(SIZE_KEY)) };
  if (!filterKey) return state;
  const schema = registry.get(filterKey);
  if (!filterParamNames(schema).some((n) => search.has(n))) return state;
  const values: Record<string, unknown> = {};
  for (const [name, p] of Object.entries<JsonSchema>(schema.properties ?? {})) {
    const names = paramsOf(name, p);
    if (isRange(p)) {
      const ends = names.map((n) => search.get(n));
      if (ends.some((e) => e)) values[name] = ends.map((e) => (e ? dateValue(e, p.items?.format ?? 'date') : null));
      continue;
    }
    const text = search.get(names[0]);
    if (text === null || text === '') continue;
    const v = valueOf(registry, filterKey, name, p, text);
    if (v !== undefined && !(Array.isArray(v) && v.length === 0)) values[name] = v;
  }
  return { ...state, values };
}

/**
 * `search` with the list's keys replaced: every parameter of the filter schema (the empty ones
 * removed), the page unless 1, the page size unless the default. Other keys are kept.
 */
export function writeListUrl(
  search: URLSearchParams,
  filterKey: string | undefined,
  {
    params,
    current,
    pageSize,
    defaultPageSize,
  }: { params: FilterParams; current: number; pageSize: number; defaultPageSize: number },
  registry: SchemaRegistry = schemas,
): URLSearchParams {
  const next = new URLSearchParams(search);
  const owned = [...(filterKey ? filterParamNames(registry.get(filterKey)) : []), PAGE_KEY, SIZE_KEY];
  owned.forEach((k) => next.delete(k));
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') next.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  if (current > 1) next.set(PAGE_KEY, String(current));
  if (pageSize !== defaultPageSize) next.set(SIZE_KEY, String(pageSize));
  return next;
}
