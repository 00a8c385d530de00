/** From validation errors to what a form shows: one message per field, and server answers on their fields. */
import type { ErrorSchema, RJSFValidationError } from '@rjsf/utils';
import type { FieldError } from '../../../common/schema';

/** "" | "/a/b" | ".a.b" -> "a.b" */
export const toField = (path: string | undefined) => (path ?? '').replace(/^[./]/, '').replace(/\//g, '.');

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

/** [{field, message}] (as the server answers in data.errors) -> RJSF error schema. */
export function toErrorSchema(errors: FieldError[] | undefined): ErrorSchema | undefined {
  if (!errors?.length) return undefined;
  type Node = { __errors?: string[] } & { [part: string]: Node | string[] | undefined };
  const out: Node = {};
  for (const { field, message } of errors) {
    let node = out;
    for (const part of field.split('.').filter(Boolean)) node = (node[part] ??= {}) as Node;
    (node.__errors ??= []).push(message);
  }
  return out as ErrorSchema;
}
