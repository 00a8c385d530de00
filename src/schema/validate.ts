/**
 * Form validation in the console with the server's rules and messages: the same schemas/forms
 * documents, the same ajv setup (common/schema), the same trimming of `x-trim` fields.
 */
import type Ajv from 'ajv';
import { createAjv, toFieldErrors, trimBySchema, type FieldError } from '../../common/schema';
import { schemaMap, schemas } from './index';

let ajv: Ajv | undefined;

export type FormCheck<T> = { ok: true; data: T; errors: [] } | { ok: false; data: T; errors: FieldError[] };

/** Validates form values against `forms/...` (empty strings of optional fields are left out). */
export function checkForm<T = Record<string, unknown>>(key: string, values: Record<string, unknown>): FormCheck<T> {
  const k = key.endsWith('.json') ? key : `${key}.json`;
  ajv ??= createAjv(schemaMap);
  const fn = ajv.getSchema(k);
  if (!fn) throw new Error(`unknown schema ${k}`);
  const present = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== null));
  const data = trimBySchema(schemas.get(k), present) as T;
  if (fn(data)) return { ok: true, data, errors: [] };
  return { ok: false, data, errors: toFieldErrors(fn.errors) };
}
