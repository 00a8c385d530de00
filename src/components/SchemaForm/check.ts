/**
 * THE check of values against a form compiled at build time (src/generated/forms), without RJSF:
 * the form's own compiled validator (its root schema's, looked up as RJSF looks it up) and the
 * schema's own messages, one per field, in the order <SchemaForm> shows them (errors.ts). Light
 * enough for /login, which lays its fields out itself; <SchemaForm> and checkCompiled give the
 * same messages.
 */
import { hashForSchema } from '@rjsf/utils';
import type { FieldError } from '../../../common/schema';
import { MESSAGES } from '../../../common/schema/messages';
import type { CompiledForm } from './compiled';
import { toField, transformErrors } from './errors';

interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, any>;
  message?: string;
  schemaPath: string;
}

type RootValidator = ((data: unknown) => boolean) & { errors?: AjvError[] | null };

const roots = new WeakMap<CompiledForm, RootValidator>();

function rootOf(form: CompiledForm): RootValidator {
  let v = roots.get(form);
  if (!v) {
    v = form.validateFns[hashForSchema(form.schema as any)] as RootValidator | undefined;
    if (!v) throw new Error(`${form.key}: no compiled validator for the form's schema`);
    roots.set(form, v);
  }
  return v;
}

/** Checks data (already trimmed) against a compiled form: one message per field, schema order. */
export function checkCompiled(form: CompiledForm, data: Record<string, any>): FieldError[] {
  const validate = rootOf(form);
  validate(data);
  const raw = validate.errors ?? [];
  validate.errors = null;
  // as RJSF's ajv8 validator names them ("/a/b" -> ".a.b"), then the console's one-per-field rule
  const errors = transformErrors(
    raw.map((e) => {
      const property = e.instancePath.replace(/\//g, '.');
      return { name: e.keyword, property, params: e.params, message: e.message, schemaPath: e.schemaPath, stack: `${property} ${e.message ?? ''}`.trim() };
    }),
  );
  return errors.map((e) => ({ field: toField(e.property), message: e.message ?? MESSAGES.badParam }));
}
