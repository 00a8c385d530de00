/**
 * A compiled form (src/generated/forms) laid out without RJSF, for the pages that must stay small
 * (/login: RJSF and its utilities are ~60 KB gzip). It shows what <SchemaForm> shows for the same
 * schema and fields, in the same markup and styles (SchemaForm.css): the schema's titles as labels
 * (required ones marked), antd inputs, one message per field from the schema's own rules
 * (./check: the form's compiled validator), checked on submit and then at every change, the first
 * failing field focused, `x-trim` fields trimmed, server errors on their fields until changed.
 *
 * Only plain fields: text, password, checkbox, or a field the page renders itself (`render`, e.g.
 * the slider captcha). A form with anything more (selects, conditions, nested objects) is a
 * <SchemaForm>.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import Checkbox from 'antd/es/checkbox/Checkbox';
import type { FieldError, JsonSchema } from '../../../common/schema';
import { trimBySchema } from '../../../common/schema/trim';
import { checkPlain } from './check';
import type { CompiledForm } from './compiled';
import { useServerErrors } from './useServerErrors';
import './SchemaForm.css';

export interface PlainField {
  name: string;
  /** text (default), password, checkbox (its title is its label); or `render` */
  widget?: 'text' | 'password' | 'checkbox';
  placeholder?: string;
  autoComplete?: string;
  /** no label above the field */
  noLabel?: boolean;
  /** the field's input, drawn by the page (its id is `id`, for the label and the focus on error) */
  render?: (id: string) => ReactNode;
}

export interface PlainSchemaFormProps<T extends object> {
  schema: CompiledForm;
  fields: PlainField[];
  formData: Partial<T>;
  onChange: (data: Partial<T>) => void;
  /** called with the valid, trimmed data */
  onSubmit: (data: T) => void;
  /** field errors to show (server answers, or checks made outside the form) */
  serverErrors?: FieldError[];
  /** the buttons */
  children?: ReactNode;
}

/** The input's id, as RJSF names it ("root_username"): labels, aria and the focus on error use it. */
const idOf = (name: string) => `root_${name}`;
const describedBy = (id: string) => `${id}__error ${id}__description ${id}__help`;

export function PlainSchemaForm<T extends object>({
  schema: form,
  fields,
  formData,
  onChange,
  onSubmit,
  serverErrors,
  children,
}: PlainSchemaFormProps<T>) {
  const schema: JsonSchema = form.schema;
  const [submitted, setSubmitted] = useState(false);
  const { shown, dismissChanged } = useServerErrors(serverErrors);
  const ruleErrors = submitted ? checkPlain(form, trimBySchema(schema, formData as Record<string, unknown>)) : [];
  const messageOf = (name: string) =>
    (ruleErrors.find((e) => e.field === name) ?? shown?.find((e) => e.field === name))?.message;

  const set = (name: string, value: unknown) => {
    const next: Record<string, unknown> = { ...formData };
    if (value === undefined) delete next[name];
    else next[name] = value;
    dismissChanged(formData, next);
    onChange(next as Partial<T>);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const data = trimBySchema(schema, formData as Record<string, unknown>);
    const errors = checkPlain(form, data);
    if (errors.length === 0) return onSubmit(data as T);
    const first = fields.find((f) => errors.some((x) => x.field === f.name));
    if (first) document.getElementById(idOf(first.name))?.focus();
  };

  const required = new Set<string>(schema.required ?? []);
  return (
    <form className="schema-form" noValidate onSubmit={submit}>
      {fields.map((f) => {
        const id = idOf(f.name);
        const message = messageOf(f.name);
        const status = message ? ('error' as const) : undefined;
        const prop = schema.properties?.[f.name] ?? {};
        const value = (formData as Record<string, unknown>)[f.name];
        let input: ReactNode;
        if (f.render) input = f.render(id);
        else if (f.widget === 'checkbox')
          input = (
            <Checkbox
              id={id}
              name={id}
              checked={value === true}
              aria-describedby={describedBy(id)}
              onChange={(e) => set(f.name, e.target.checked)}
            >
              {prop.title}
            </Checkbox>
          );
        else {
          const common = {
            id,
            name: id,
            placeholder: f.placeholder,
            autoComplete: f.autoComplete,
            status,
            'aria-describedby': describedBy(id),
            value: typeof value === 'string' ? value : '',
            onChange: (e: { target: { value: string } }) =>
              set(f.name, e.target.value === '' ? undefined : e.target.value),
          };
          input =
            f.widget === 'password' ? (
              <Password {...common} />
            ) : (
              <Input {...common} required={required.has(f.name)} style={{ width: '100%' }} />
            );
        }
        const showLabel = !f.noLabel && !f.render && f.widget !== 'checkbox' && !!prop.title;
        return (
          <div
            key={f.name}
            className={['sf-item', message && 'sf-item-error', 'rjsf-field', `rjsf-field-${prop.type ?? 'string'}`]
              .filter(Boolean)
              .join(' ')}
          >
            {showLabel && (
              <label className={required.has(f.name) ? 'sf-label sf-label-required' : 'sf-label'} htmlFor={id}>
                {prop.title}
              </label>
            )}
            {input}
            {message && (
              <div className="sf-explain">
                <div id={`${id}__error`}>{message}</div>
              </div>
            )}
          </div>
        );
      })}
      {children}
    </form>
  );
}
