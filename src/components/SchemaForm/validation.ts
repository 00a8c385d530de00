/**
 * Validation of schemas given at run time (a registry key or a schema object), with ajv 8 and the
 * options and extensions the server uses too (AJV_OPTIONS: $data, allErrors; extendAjv: formats,
 * ajv-errors, annotation keywords), so a rule and its Chinese message live only in schemas/.
 * Forms compiled at build time (compiled.ts) do not need this module; <SchemaForm> loads it only
 * for the others.
 */
import { customizeValidator } from '@rjsf/validator-ajv8';
import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import { AJV_OPTIONS, extendAjv, trimBySchema, type JsonSchema } from '../../../common/schema';
import { schemas } from '../../schema';
import { checkForm, isCompiledForm, withTrimming, type CompiledForm, type FormCheck } from './compiled';
import { toField, transformErrors } from './errors';
import { MESSAGES } from '../../../common/schema/messages';

/** The RJSF validator for run-time schemas (trims `x-trim` values first). */
export const validator: ValidatorType = withTrimming(
  customizeValidator({
    ajvOptionsOverrides: AJV_OPTIONS,
    // extendAjv adds ajv-formats itself (adding it twice throws)
    ajvFormatOptions: false,
    extenderFn: extendAjv,
  }),
);

/** A schema by registry key ("forms/login"), with cross-file $refs inlined, or the given object as is. */
export function resolveSchema(schema: string | JsonSchema): JsonSchema {
  return typeof schema === 'string' ? schemas.inline(schema) : schema;
}

export type { FormCheck };

/**
 * THE console's check of values against a form outside <SchemaForm> (before a code is sent, a
 * hand-laid form, a unit test): a compiled form (no ajv at run time), a registry key
 * ("forms/sign-add") or a schema object. Values that are null or undefined are left out and
 * `x-trim` fields trimmed, as the server does; `data` is what to send, `errors` one message per
 * field in schema order, the schema's own (common/schema: the server's rules and messages).
 * It compiles run-time schemas with ajv (`new Function`), which the page's CSP forbids: the
 * console's pages use compiled forms and `checkForm` (./compiled); this path serves tests only.
 */
export function validateForm<T = Record<string, unknown>>(
  schema: CompiledForm | string | JsonSchema,
  values: Record<string, unknown>,
): FormCheck<T> {
  if (isCompiledForm(schema)) return checkForm<T>(schema, values);
  const s = resolveSchema(schema);
  const present = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== null));
  const data = trimBySchema(s, present) as T;
  const errors = validator
    .validateFormData(data, s as RJSFSchema, undefined, transformErrors)
    .errors.map((e) => ({ field: toField(e.property), message: e.message ?? MESSAGES.badParam }));
  return errors.length ? { ok: false, data, errors } : { ok: true, data, errors: [] };
}
