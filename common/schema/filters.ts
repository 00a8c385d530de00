/**
 * A list's filter values -> the list call's parameters, as its filter schema (schemas/filters/*.json)
 * says. The one place where filter values are converted, for every list and its export:
 *
 * - a property's parameter is its own name, or `x-param` when the API names it differently;
 * - `format: date` sends YYYY-MM-DD, `format: date-time` (or `business-date-time`, the server's name
 *   for that text) YYYY-MM-DD HH:mm:ss (from a date picker's
 *   Dayjs as it shows it, a Date — an instant — in Asia/Shanghai, the API's zone, whatever the
 *   browser's, or a string, which is sent as it is);
 * - a date range (`type: array`, `items.format: date|date-time`) sends its two ends under the two
 *   names of `x-param` (`["start_time", "end_time"]`);
 * - `x-trim` strings are trimmed;
 * - a list of values for a `type: string` property (a multi-select, `x-widget: enum-multi`) is sent
 *   as one comma list (`stateList=3,6`);
 * - empty values (undefined, null, '', blank after trimming, []) are left out.
 */
import type { JsonSchema } from './registry';
import { formatBusiness } from '../time';

export type FilterParams = Record<string, unknown>;

const PATTERNS: Record<string, string> = {
  date: 'YYYY-MM-DD',
  'date-time': 'YYYY-MM-DD HH:mm:ss',
  'business-date-time': 'YYYY-MM-DD HH:mm:ss',
};

/** Formats a Dayjs-like (`.format(pattern)`), a Date or a string as the schema's date format asks. */
export function formatDateValue(value: unknown, format: string): unknown {
  const pattern = PATTERNS[format];
  if (!pattern || value === undefined || value === null || value === '') return value;
  if (typeof (value as { format?: unknown }).format === 'function')
    return (value as { format(p: string): string }).format(pattern);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? value : formatBusiness(value, format !== 'date');
  return value;
}

export const isEmptyValue = (v: unknown) =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

export const isRange = (p: JsonSchema) => p?.type === 'array' && !!PATTERNS[p.items?.format ?? ''];

/** Parameter names a property is sent under (two for a date range). */
export function paramsOf(name: string, p: JsonSchema): string[] {
  const renamed = p?.['x-param'];
  if (isRange(p)) {
    if (!Array.isArray(renamed) || renamed.length !== 2)
      throw new Error(`filter ${name}: a date range needs x-param: [from, to]`);
    return renamed;
  }
  return [typeof renamed === 'string' ? renamed : name];
}

/** Every parameter the filter schema can send (to clear the ones a new search leaves empty). */
export function filterParamNames(schema: JsonSchema): string[] {
  return Object.entries<JsonSchema>(schema.properties ?? {}).flatMap(([name, p]) => paramsOf(name, p));
}

/** The filter schema's values as the list call's parameters (empty ones left out). */
export function schemaFilters(schema: JsonSchema, values: Record<string, unknown> | undefined | null): FilterParams {
  const out: FilterParams = {};
  const props = schema.properties ?? {};
  for (const [name, raw] of Object.entries(values ?? {})) {
    const p: JsonSchema | undefined = props[name];
    if (!p) continue;
    const names = paramsOf(name, p);
    if (isRange(p)) {
      const [from, to] = Array.isArray(raw) ? raw : [];
      const format = p.items?.format ?? '';
      const ends = [formatDateValue(from, format), formatDateValue(to, format)];
      ends.forEach((v, i) => {
        if (!isEmptyValue(v)) out[names[i]] = v;
      });
      continue;
    }
    let v = p.format ? formatDateValue(raw, p.format) : raw;
    if (Array.isArray(v) && p.type === 'string') v = v.filter((x) => !isEmptyValue(x)).join(',');
    if (p['x-trim'] && typeof v === 'string') v = v.trim();
    if (!isEmptyValue(v)) out[names[0]] = v;
  }
  return out;
}
