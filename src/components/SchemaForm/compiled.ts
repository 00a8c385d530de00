/**
 * Forms compiled at build time (src/generated/forms, see scripts/form-validators.ts): the schema as
 * the form shows it and its ajv validators as code. A page imports its form's module and hands it
 * to <SchemaForm>; validation then needs neither ajv nor the schema registry.
 */
import { createPrecompiledValidator } from '@rjsf/validator-ajv8';
import type { ValidatorFunctions } from '@rjsf/validator-ajv8';
import type { ValidatorType } from '@rjsf/utils';
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
export function withTrimming(base: ValidatorType): ValidatorType {
  return Object.assign(Object.create(base) as ValidatorType, {
    validateFormData(formData: any, schema: any, customValidate?: any, transform?: any, uiSchema?: any) {
      return base.validateFormData(trimBySchema(schema, formData), schema, customValidate, transform, uiSchema);
    },
    isValid(schema: any, formData: any, rootSchema: any) {
      return base.isValid(schema, trimBySchema(schema, formData), rootSchema);
    },
  });
}

const validators = new WeakMap<CompiledForm, ValidatorType>();

/** The form's RJSF validator (one per form). */
export function compiledValidator(form: CompiledForm): ValidatorType {
  let v = validators.get(form);
  if (!v) validators.set(form, (v = withTrimming(createPrecompiledValidator(form.validateFns, form.schema as any))));
  return v;
}

/** Checks data against a compiled form outside the form (e.g. the mobile number before a code is sent). */
export function checkCompiled(form: CompiledForm, data: Record<string, any>): FieldError[] {
  const { errors } = compiledValidator(form).validateFormData(data, form.schema, undefined, transformErrors);
  return errors.map((e) => ({ field: toField(e.property), message: e.message ?? MESSAGES.badParam }));
}
