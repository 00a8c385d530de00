/**
 * Form checks with the shared schemas (schemas/forms/*): the same ajv setup, rules and Chinese
 * messages as the server's validation, for the account pages that still lay out antd forms by hand
 * (the schema forms and SchemaFormDialog validate by themselves).
 */
import type { FormInstance } from 'antd';
import type { FieldError } from '../../../common/schema';
import { checkForm } from '@/schema/validate';

/** Errors of `values` against `forms/<name>.json`, one per field, in schema order (trimmed first). */
export function validateForm(name: string, values: Record<string, unknown>): { data: Record<string, unknown>; errors: FieldError[] } {
  const { data, errors } = checkForm(`forms/${name}`, values);
  return { data, errors };
}

/** Shows errors under their fields (those the form has); returns the first message or undefined. */
export function showErrors(form: FormInstance, errors: FieldError[], fields: string[]): string | undefined {
  const known = errors.filter((e) => fields.includes(e.field));
  form.setFields(fields.map((name) => ({ name, errors: known.filter((e) => e.field === name).map((e) => e.message) })));
  return errors[0]?.message;
}

/** The first error of the listed fields only (e.g. before sending an SMS code). */
export function firstErrorOf(errors: FieldError[], fields: string[]): FieldError | undefined {
  return errors.find((e) => fields.includes(e.field));
}
