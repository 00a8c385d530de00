/**
 * THE way a form renders from schemas/: RJSF (antd theme) with the shared validator. Labels are
 * the schema's Chinese titles, each field shows the schema's own message for the rule it breaks
 * (inline, one per field), `x-trim` fields are trimmed before validating and submitting, and
 * errors the server answered (`data.errors`) show on their fields.
 */
import { useEffect, useImperativeHandle, useMemo, useRef, useState, type ReactNode, type Ref } from 'react';
import { AntdForm as Form } from './theme';
import type { IChangeEvent } from '@rjsf/core';
import type { RegistryWidgetsType, UiSchema } from '@rjsf/utils';
import type { FieldError, JsonSchema } from '../../../common/schema';
import { trimBySchema } from '../../../common/schema';
import { resolveSchema, toErrorSchema, transformErrors, validator } from './validation';
import { lazyWidget } from './lazyWidget';
import { SliderWidget } from './widgets/SliderWidget';
import './SchemaForm.css';

/** Widgets any uiSchema may name, besides RJSF's own (text, password, checkbox, radio, select ...). */
export const schemaWidgets: RegistryWidgetsType = {
  countryCode: lazyWidget(() => import('./widgets/CountryCodeWidget').then((m) => ({ default: m.CountryCodeWidget }))),
  codeButton: lazyWidget(() => import('./widgets/CodeButtonWidget').then((m) => ({ default: m.CodeButtonWidget }))),
  slider: SliderWidget,
};

export interface SchemaFormHandle {
  /** validates as a submit would (showing the errors); true when valid */
  validate(): boolean;
}

export interface SchemaFormProps<T extends Record<string, any> = Record<string, any>> {
  /**
   * registry key ("forms/login") or a schema object. Avoid a root-level allOf in a displayed
   * schema: RJSF merges it into the rendered fields, and a `const: {$data}` confirmation field
   * then drops what is typed (check such rules with validateBySchema instead).
   */
  schema: string | JsonSchema;
  /** the fields to show, in order; the schema's other properties stay hidden (omitted: all, schema order) */
  fields?: string[];
  uiSchema?: UiSchema;
  formData?: Partial<T>;
  onChange?: (data: Partial<T>) => void;
  /** called with the valid, trimmed data */
  onSubmit?: (data: T) => void;
  /** field errors to show (server answers, or checks made outside the form) */
  serverErrors?: FieldError[];
  widgets?: RegistryWidgetsType;
  disabled?: boolean;
  /** the buttons; without children the form has no submit button of its own */
  children?: ReactNode;
  id?: string;
  ref?: Ref<SchemaFormHandle>;
}

/** uiSchema that shows `fields` in that order and hides every other property. */
function fieldsUi(schema: JsonSchema, fields?: string[]): UiSchema {
  if (!fields) return {};
  const ui: UiSchema = { 'ui:order': [...fields, '*'] };
  for (const k of Object.keys(schema.properties ?? {})) if (!fields.includes(k)) ui[k] = { 'ui:widget': 'hidden' };
  return ui;
}

/** Field errors minus those whose field the user has changed since. */
function useServerErrors(serverErrors: FieldError[] | undefined) {
  const [dismissed, setDismissed] = useState<Set<string>>(new Set());
  useEffect(() => setDismissed(new Set()), [serverErrors]);
  const shown = useMemo(() => serverErrors?.filter((e) => !dismissed.has(e.field)), [serverErrors, dismissed]);
  const dismissChanged = (prev: Record<string, any> | undefined, next: Record<string, any>) => {
    const changed = (serverErrors ?? []).filter((e) => !dismissed.has(e.field) && prev?.[e.field] !== next[e.field]);
    if (changed.length) setDismissed((d) => new Set([...d, ...changed.map((e) => e.field)]));
  };
  return { extraErrors: toErrorSchema(shown), dismissChanged };
}

export function SchemaForm<T extends Record<string, any> = Record<string, any>>({
  schema: schemaOrKey,
  fields,
  uiSchema,
  formData,
  onChange,
  onSubmit,
  serverErrors,
  widgets,
  disabled,
  children,
  id,
  ref,
}: SchemaFormProps<T>) {
  const schema = useMemo(() => {
    // descriptions (and the root's title) are notes for developers and product staff, not screen text
    const { title: _t, description: _d, properties, ...rest } = resolveSchema(schemaOrKey);
    const shown = Object.fromEntries(Object.entries<any>(properties ?? {}).map(([k, { description: _pd, ...p }]) => [k, p]));
    return { ...rest, properties: shown };
  }, [schemaOrKey]);
  const ui = useMemo(() => ({ ...fieldsUi(schema, fields), ...uiSchema }), [schema, fields, uiSchema]);
  const allWidgets = useMemo(() => ({ ...schemaWidgets, ...widgets }), [widgets]);
  const [submitted, setSubmitted] = useState(false);
  const [data, setData] = useState<Partial<T>>(formData ?? {});
  const current = formData ?? data;
  const { extraErrors, dismissChanged } = useServerErrors(serverErrors);
  const formRef = useRef<any>(null);

  useImperativeHandle(ref, () => ({
    validate: () => {
      setSubmitted(true);
      return formRef.current?.validateForm() ?? false;
    },
  }));

  const change = (e: IChangeEvent<T>) => {
    dismissChanged(current, e.formData ?? {});
    setData(e.formData ?? {});
    onChange?.(e.formData ?? {});
  };

  return (
    <Form
      ref={formRef}
      id={id}
      className="schema-form"
      schema={schema}
      uiSchema={ui}
      formData={current}
      validator={validator}
      widgets={allWidgets}
      transformErrors={transformErrors}
      showErrorList={false}
      liveValidate={submitted ? 'onChange' : undefined}
      noHtml5Validate
      focusOnFirstError
      extraErrors={extraErrors}
      disabled={disabled}
      experimental_defaultFormStateBehavior={{ constAsDefaults: 'never' }}
      onChange={change}
      onError={() => setSubmitted(true)}
      onSubmit={(e) => {
        setSubmitted(true);
        onSubmit?.(trimBySchema(schema, e.formData ?? {}) as T);
      }}
    >
      {children ?? <></>}
    </Form>
  );
}
