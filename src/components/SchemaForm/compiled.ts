/**
 * Forms compiled at build time (src/generated/forms, see scripts/form-validators.ts): the schema as
 * the form shows it and its ajv validators as code. A page imports its form's module and hands it
 * to <SchemaForm>; validation then needs neither ajv nor the schema registry.
 */
import { createPrecompiledValidator } from '@rjsf/validator-ajv8';
import { hashForSchema } from '@rjsf/utils';
import type { ValidatorFunctions } from '@rjsf/validator-ajv8';
import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import type { FieldError, JsonSchema } from '../../../common/schema';
import { trimBySchema } from '../../../common/schema/trim';
import { toField, transformErrors } from './errors';
import { MESSAGES } from '../../../common/schema/messages';

export interface CompiledForm {
  /** registry key, "forms/login.json" */
  key: string;
  /** the schema as shown (inlined, without descriptions): the one its validators were compiled from */
  schema: JsonSchema;
  validateFns: ValidatorFunctions;
}

export function isCompiledForm(s: unknown): s is CompiledForm {
  return !!s && typeof s === 'object' && 'validateFns' in s && 'schema' in s;
}

/**
 * An RJSF validator with one addition: values of `x-trim` properties are trimmed before they are
 * validated (so "  " is an empty user name, as the server will see it).
 */
const trimValues = (schema: RJSFSchema, data: unknown): unknown =>
  data && typeof data === 'object' ? trimBySchema(schema as JsonSchema, data) : data;

export function withTrimming(base: ValidatorType): ValidatorType {
  return Object.assign(Object.create(base) as ValidatorType, {
    validateFormData(
      ...[formData, schema, customValidate, transform, uiSchema]: Parameters<ValidatorType['validateFormData']>
    ) {
      return base.validateFormData(trimValues(schema, formData), schema, customValidate, transform, uiSchema);
    },
    isValid(...[schema, formData, rootSchema]: Parameters<ValidatorType['isValid']>) {
      return base.isValid(schema, trimValues(schema, formData), rootSchema);
    },
  });
}

/**
 * A compiled form that shows more fields than it checks: `shown` properties (a field another call
 * sends and checks, e.g. /forget's image captcha, checked with the code request) are added to the
 * displayed schema, and the values are checked by the form's own compiled validators, which leave
 * unknown properties alone. Still no ajv at run time (a run-time schema would need `eval`).
 */
export function withShownFields(form: CompiledForm, shown: Record<string, JsonSchema>): CompiledForm {
  if (form.schema.additionalProperties === false)
    throw new Error(`${form.key}: withShownFields needs a form that allows other properties`);
  const root = form.validateFns[hashForSchema(form.schema as RJSFSchema)];
  if (!root) throw new Error(`${form.key}: no compiled validator for the form's schema`);
  const schema: JsonSchema = { ...form.schema, properties: { ...form.schema.properties, ...shown } };
  return { key: form.key, schema, validateFns: { ...form.validateFns, [hashForSchema(schema as RJSFSchema)]: root } };
}

const validators = new WeakMap<CompiledForm, ValidatorType>();

/** The form's RJSF validator (one per form). */
export function compiledValidator(form: CompiledForm): ValidatorType {
  let v = validators.get(form);
  if (!v)
    validators.set(form, (v = withTrimming(createPrecompiledValidator(form.validateFns, form.schema as RJSFSchema))));
  return v;
}

export type FormCheck<T> = { ok: true; data: T; errors: [] } | { ok: false; data: T; errors: FieldError[] };

/**
 * THE console's check of values against a compiled form outside <SchemaForm> (before a code is
 * sent, a hand-laid form): values that are null or undefined are left out and `x-trim` fields
 * trimmed, as the server does; `data` is what to send, `errors` one message per field in schema
 * order, the schema's own. No ajv at run time (no `eval`: the CSP's script-src is 'self' only).
 */
export function checkForm<T = Record<string, unknown>>(
  form: CompiledForm,
  values: Record<string, unknown>,
): FormCheck<T> {
  const present = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== null));
  const data = trimBySchema(form.schema, present) as T;
  const errors = checkCompiled(form, data as Record<string, unknown>);
  return errors.length ? { ok: false, data, errors } : { ok: true, data, errors: [] };
}

/** Checks data against a compiled form outside the form (e.g. the mobile number before a code is sent). */
export function checkCompiled(form: CompiledForm, data: Record<string, unknown>): FieldError[] {
  const { errors } = compiledValidator(form).validateFormData(
    data,
    form.schema as RJSFSchema,
    undefined,
    transformErrors,
  );
  return errors.map((e) => ({ field: toField(e.property), message: e.message ?? MESSAGES.badParam }));
}
