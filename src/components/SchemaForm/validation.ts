/**
 * Validation of schemas given at run time (a registry key or a schema object), with ajv 8 and the
 * options and extensions the server uses too (AJV_OPTIONS: $data, allErrors; extendAjv: formats,
 * ajv-errors, annotation keywords), so a rule and its Chinese message live only in schemas/.
 * Forms compiled at build time (compiled.ts) do not need this module; <SchemaForm> loads it only
 * for the others.
 */
import { customizeValidator } from '@rjsf/validator-ajv8';
import type { ValidatorType } from '@rjsf/utils';
import { AJV_OPTIONS, extendAjv, type FieldError, type JsonSchema } from '../../../common/schema';
import { schemas } from '../../schema';
import { withTrimming } from './compiled';
import { toField, transformErrors } from './errors';

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

/** Validates data against a run-time schema outside a form. */
export function validateBySchema(schema: string | JsonSchema, data: Record<string, any>): FieldError[] {
  const s = resolveSchema(schema);
  const { errors } = validator.validateFormData(data, s, undefined, transformErrors);
  return errors.map((e) => ({ field: toField(e.property), message: e.message ?? '参数错误' }));
}
