/**
 * The check of values against a flat form compiled at build time (src/generated/forms) without
 * RJSF, for <PlainSchemaForm> (/login): the form's own compiled validator (its root schema's,
 * looked up as RJSF looks it up) and the schema's own messages, one per field (errors.ts), named
 * as RJSF's validator names them (a missing property on its own field, its title in ajv's default
 * message). tests/unit/plainSchemaForm.test.ts holds it to checkCompiled's answers.
 */
import { hashForSchema } from '@rjsf/utils';
import type { RJSFSchema } from '@rjsf/utils';
import type { FieldError } from '../../../common/schema';
import { MESSAGES } from '../../../common/schema/messages';
import type { CompiledForm } from './compiled';
import { toField, transformErrors } from './errors';

interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
  schemaPath: string;
}

type RootValidator = ((data: unknown) => boolean) & { errors?: AjvError[] | null };

const roots = new WeakMap<CompiledForm, RootValidator>();

function rootOf(form: CompiledForm): RootValidator {
  let v = roots.get(form);
  if (!v) {
    v = form.validateFns[hashForSchema(form.schema as RJSFSchema)] as RootValidator | undefined;
    if (!v) throw new Error(`${form.key}: no compiled validator for the form's schema`);
    roots.set(form, v);
  }
  return v;
}

/** Checks data (already trimmed) against a compiled form: one message per field, schema order. */
export function checkPlain(form: CompiledForm, data: Record<string, unknown>): FieldError[] {
  const validate = rootOf(form);
  validate(data);
  const raw = validate.errors ?? [];
  validate.errors = null;
  // as RJSF's ajv8 validator names them ("/a/b" -> ".a.b"; a missing property on its own path,
  // its title in the message), then the console's one-per-field rule
  const errors = transformErrors(
    raw.map((e) => {
      let property = e.instancePath.replace(/\//g, '.');
      let message = e.message ?? '';
      const missing = typeof e.params?.missingProperty === 'string' ? e.params.missingProperty : undefined;
      if (missing) {
        const title = form.schema.properties?.[missing]?.title;
        if (title && !property) message = message.replace(`'${missing}'`, `'${title}'`);
        property = `${property}.${missing}`;
      }
      return { name: e.keyword, property, params: e.params, message, schemaPath: e.schemaPath, stack: message };
    }),
  );
  return errors.map((e) => ({ field: toField(e.property), message: e.message ?? MESSAGES.badParam }));
}
