/**
 * The one validator every schema form uses: ajv 8 with the options and extensions the server
 * uses too (AJV_OPTIONS: $data, allErrors; extendAjv: formats, ajv-errors, annotation keywords),
 * so a rule and its Chinese message live only in schemas/.
 */
import { customizeValidator } from '@rjsf/validator-ajv8';
import type { ErrorSchema, RJSFValidationError, ValidatorType } from '@rjsf/utils';
import { AJV_OPTIONS, extendAjv, trimBySchema, type FieldError, type JsonSchema } from '../../../common/schema';
import { schemas } from '../../schema';

const ajvValidator = customizeValidator({
  ajvOptionsOverrides: AJV_OPTIONS,
  // extendAjv adds ajv-formats itself (adding it twice throws)
  ajvFormatOptions: false,
  extenderFn: extendAjv,
});

/**
 * The RJSF validator, with one addition: values of `x-trim` properties are trimmed before they
 * are validated (so "  " is an empty user name, as the server will see it).
 */
export const validator: ValidatorType = Object.assign(Object.create(ajvValidator) as ValidatorType, {
  validateFormData(formData: any, schema: any, customValidate?: any, transform?: any, uiSchema?: any) {
    return ajvValidator.validateFormData(trimBySchema(schema, formData), schema, customValidate, transform, uiSchema);
  },
  isValid(schema: any, formData: any, rootSchema: any) {
    return ajvValidator.isValid(schema, trimBySchema(schema, formData), rootSchema);
  },
});

/** A schema by registry key ("forms/login"), with cross-file $refs inlined, or the given object as is. */
export function resolveSchema(schema: string | JsonSchema): JsonSchema {
  return typeof schema === 'string' ? schemas.inline(schema) : schema;
}

/** "" | "/a/b" | ".a.b" -> "a.b" */
const toField = (path: string | undefined) => (path ?? '').replace(/^[./]/, '').replace(/\//g, '.');

/**
 * Puts every ajv (+ ajv-errors) message on the field it is about, one message per field:
 * - a `required` message rewritten by ajv-errors sits on the parent object; the property it is
 *   about is in params.errors[0].params.missingProperty (as in common/schema toFieldErrors);
 * - "must match then schema" only repeats the errors of the branch and is dropped;
 * - the first message of a field wins (the schema lists its rules in order of importance).
 */
export function transformErrors(errors: RJSFValidationError[]): RJSFValidationError[] {
  const seen = new Set<string>();
  const out: RJSFValidationError[] = [];
  for (const e of errors) {
    if (e.name === 'if') continue;
    let field = toField(e.property);
    const missing = e.name === 'errorMessage' ? e.params?.errors?.[0]?.params?.missingProperty : undefined;
    if (missing) field = field ? `${field}.${missing}` : missing;
    if (seen.has(field)) continue;
    seen.add(field);
    out.push({ ...e, property: field ? `.${field}` : '', stack: e.message ?? e.stack });
  }
  return out;
}

/** Validates data against a schema outside a form (e.g. the mobile number before sending a code). */
export function validateBySchema(schema: string | JsonSchema, data: Record<string, any>): FieldError[] {
  const s = resolveSchema(schema);
  const { errors } = validator.validateFormData(data, s, undefined, transformErrors);
  return errors.map((e) => ({ field: toField(e.property), message: e.message ?? '参数错误' }));
}

/** [{field, message}] (as the server answers in data.errors) -> RJSF error schema. */
export function toErrorSchema(errors: FieldError[] | undefined): ErrorSchema | undefined {
  if (!errors?.length) return undefined;
  const out: any = {};
  for (const { field, message } of errors) {
    let node = out;
    for (const part of field.split('.').filter(Boolean)) node = node[part] ??= {};
    (node.__errors ??= []).push(message);
  }
  return out;
}
