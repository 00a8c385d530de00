import Ajv, { type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import ajvErrors from 'ajv-errors';
import addFormats from 'ajv-formats';
import type { SchemaMap } from './registry';
import { CUSTOM_FORMATS } from './formats';

export { isBusinessDateTime } from './formats';

/** Keywords our schemas carry for the console (labels, colours, trimming) and the server (`x-internal`: a server-only enum): known to ajv, never validated. */
export const ANNOTATION_KEYWORDS = [
  'x-color',
  'x-name',
  'x-trim',
  'x-widget',
  'x-order',
  'x-agent-only',
  'x-param',
  // a list's default date range, on the range's start (src/components/SchemaTable/defaultRange.ts)
  'x-default-days',
  'x-ui',
  'x-enum',
  'x-internal',
  // the server's filter-to-SQL rules (server/db/filters.ts) and route-schema tags (server/http/contract.ts)
  'x-column',
  'x-op',
  'x-scope',
  'x-order-error',
  'x-request',
  'x-schema-key',
  // the configuration reference (schemas/config/env.json, scripts/gen-config-doc.ts)
  'x-group',
  'x-accepts',
  'x-default-text',
];

export const AJV_OPTIONS: Options = { allErrors: true, $data: true, strict: false, coerceTypes: false };

/** Adds what every validator of ours needs: formats, custom messages (ajv-errors), annotation keywords. */
export function extendAjv<T extends Ajv>(ajv: T): T {
  addFormats(ajv);
  ajvErrors(ajv);
  for (const k of ANNOTATION_KEYWORDS) if (!ajv.getKeyword(k)) ajv.addKeyword(k);
  // our own formats (common/schema/formats.ts): money, business-date-time
  for (const [name, f] of Object.entries(CUSTOM_FORMATS)) if (!ajv.formats[name]) ajv.addFormat(name, f);
  return ajv;
}

export function createAjv(schemas: SchemaMap): Ajv {
  const ajv = extendAjv(new Ajv(AJV_OPTIONS));
  for (const [key, s] of Object.entries(schemas)) ajv.addSchema(s, key);
  return ajv;
}

export interface FieldError {
  /** dotted property path, "" for the whole payload */
  field: string;
  message: string;
}

/** Turns ajv (+ ajv-errors) output into one message per field, in schema order. */
export function toFieldErrors(errors: ErrorObject[] | null | undefined): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    // "must match then schema" only repeats the errors of the branch that failed
    if (e.keyword === 'if') continue;
    let field = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
    // ajv-errors wraps the original errors in params.errors; `required` names the field in params
    const params = e.params as
      { missingProperty?: string; errors?: { params?: { missingProperty?: string } }[] } | undefined;
    const missing = params?.missingProperty ?? params?.errors?.[0]?.params?.missingProperty;
    if (missing) field = field ? `${field}.${missing}` : missing;
    if (seen.has(field)) continue;
    seen.add(field);
    out.push({ field, message: e.message ?? '参数错误' });
  }
  return out;
}

export type Validator = ValidateFunction;
