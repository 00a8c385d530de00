/**
 * THE way a form renders from schemas/: RJSF (antd theme) with the schemas' own rules. Labels are
 * the schema's Chinese titles, each field shows the schema's own message for the rule it breaks
 * (inline, one per field), `x-trim` fields are trimmed before validating and submitting, and
 * errors the server answered (`data.errors`) show on their fields.
 */
import { useEffect, useImperativeHandle, useMemo, useRef, useState, type ReactNode, type Ref } from 'react';
import { Skeleton } from 'antd';
import { AntdForm as Form } from './theme';
import type { default as RjsfForm, IChangeEvent } from '@rjsf/core';
import type { CustomValidator, FieldValidation, RegistryWidgetsType, RJSFSchema, UiSchema } from '@rjsf/utils';
import type { FieldError, JsonSchema } from '../../../common/schema';
import { displaySchema } from '../../../common/schema/display';
import { trimBySchema } from '../../../common/schema/trim';
import { compiledValidator, isCompiledForm, type CompiledForm } from './compiled';
import { toErrorSchema, toField, transformErrors } from './errors';
import { lazyWidget } from './lazyWidget';
import { useServerErrors } from './useServerErrors';
import { SliderWidget } from './widgets/SliderWidget';
import { MESSAGES } from '../../../common/schema/messages';
import './SchemaForm.css';
import { requiredMessageOf } from '../../../common/schema/registry';

/** Widgets any uiSchema may name, besides RJSF's own (text, password, checkbox, radio, select ...). */
export const schemaWidgets: RegistryWidgetsType = {
  countryCode: lazyWidget(() => import('./widgets/CountryCodeWidget').then((m) => ({ default: m.CountryCodeWidget }))),
  codeButton: lazyWidget(() => import('./widgets/CodeButtonWidget').then((m) => ({ default: m.CodeButtonWidget }))),
  slider: SliderWidget,
  imageUpload: lazyWidget(() => import('./widgets/ImageUploadWidget').then((m) => ({ default: m.ImageUploadWidget }))),
};

type Runtime = typeof import('./validation');
let runtime: Runtime | undefined;
let runtimeLoad: Promise<Runtime> | undefined;

/** ajv and the schema registry, loaded the first time a form with a run-time schema shows */
function useRuntimeValidation(needed: boolean): Runtime | undefined {
  const [, loaded] = useState(0);
  useEffect(() => {
    if (!needed || runtime) return;
    let live = true;
    void (runtimeLoad ??= import('./validation').then((m) => (runtime = m))).then(() => live && loaded((n) => n + 1));
    return () => {
      live = false;
    };
  }, [needed]);
  return needed ? runtime : undefined;
}

export interface SchemaFormHandle {
  /** validates as a submit would (showing the errors); true when valid */
  validate(): boolean;
}

export interface SchemaFormProps<T extends object = Record<string, unknown>> {
  /**
   * the form compiled at build time (`import loginForm from '@/generated/forms/login'`: no ajv in
   * the page), or a registry key ("forms/login") or a schema object, validated with ajv loaded on
   * first use (the form shows once it has arrived). Avoid a root-level allOf in a displayed
   * schema: RJSF merges it into the rendered fields, and a `const: {$data}` confirmation field
   * then drops what is typed (check such rules with validateForm, ./validation, instead).
   */
  schema: CompiledForm | string | JsonSchema;
  /** the fields to show, in order; the schema's other properties stay hidden (omitted: all, schema order) */
  fields?: string[];
  /**
   * fields required here although the schema leaves them optional (a rule of the context, e.g. an
   * agent must pick the sub-account); an empty one shows the schema's `errorMessage.required` text
   */
  required?: string[];
  /** RJSF's uiSchema (usually the schema's own `x-ui`: src/schema `schemaUi`); `ui:showIf`, `ui:titleIf` and `ui:when` apply by the current values (conditionalUi) */
  uiSchema?: UiSchema;
  formData?: Partial<T>;
  onChange?: (data: Partial<T>) => void;
  /** a top-level field lost the focus (e.g. to check a value with the server: show its answer with serverErrors) */
  onBlur?: (field: string, value: unknown) => void;
  /** called with the valid, trimmed data */
  onSubmit?: (data: T) => void;
  /** called when a submit finds errors (they show on their fields), e.g. to toast the first one */
  onError?: (errors: FieldError[]) => void;
  /** field errors to show (server answers, or checks made outside the form) */
  serverErrors?: FieldError[];
  widgets?: RegistryWidgetsType;
  disabled?: boolean;
  /** the buttons; without children the form has no submit button of its own */
  children?: ReactNode;
  id?: string;
  ref?: Ref<SchemaFormHandle>;
}

/** `uiSchema` showing `fields` in that order; every other property stays hidden, whatever uiSchema says of it. */
function fieldsUi(schema: JsonSchema, fields: string[] | undefined, uiSchema: UiSchema | undefined): UiSchema {
  const ui: UiSchema = { ...uiSchema };
  // a typed property whose anyOf / oneOf are alternative rules (e.g. "empty or an e-mail address"),
  // not choices: one input, as its type says, rather than RJSF's "option 1 / option 2" selector
  for (const [k, p] of Object.entries(schema.properties ?? {})) {
    const branches = p?.anyOf ?? p?.oneOf;
    const field = ({ string: 'StringField', integer: 'NumberField', number: 'NumberField' } as Record<string, string>)[
      p?.type as string
    ];
    if (field && branches && !branches.every((b) => b && 'const' in b))
      ui[k] = { 'ui:field': field, 'ui:fieldReplacesAnyOrOneOf': true, ...ui[k] };
  }
  if (!fields) return ui;
  ui['ui:order'] = [...fields, '*'];
  for (const k of Object.keys(schema.properties ?? {}))
    if (!fields.includes(k)) ui[k] = { ...ui[k], 'ui:widget': 'hidden' };
  return ui;
}

type When = Record<string, unknown>;
const meets = (data: object | undefined, when: When) =>
  Object.entries(when).every(([k, v]) => String((data as Record<string, unknown> | undefined)?.[k]) === String(v));

/**
 * The parts of a schema's `x-ui` that depend on the values (static rules, see SchemaDescriptions):
 * - `ui:showIf` (e.g. `"mourl": { "ui:showIf": { "needmo": 1 } }`): the field shows only while the
 *   other values are as given; otherwise it is hidden;
 * - `ui:titleIf` (`[{ "when": { "cert_type": 1 }, "title": "姓名" }]`): the label while the values match;
 * - `ui:when` (`[{ "when": { "cert_type": 2 }, "ui:help": "...", "ui:enumValues": [6, 7, 3] }]`):
 *   uiSchema entries that apply while the values match (`ui:enumValues`: the enum values a select
 *   or radio offers).
 */
function conditionalUi(ui: UiSchema, data: object | undefined): UiSchema {
  let out = ui;
  for (const [field, u] of Object.entries(ui)) {
    const rules = u as Record<string, unknown> | undefined;
    if (!rules || typeof rules !== 'object' || !(rules['ui:showIf'] || rules['ui:titleIf'] || rules['ui:when']))
      continue;
    let next: Record<string, unknown> = { ...rules };
    const title = (rules['ui:titleIf'] as { when: When; title: string }[] | undefined)?.find((t) =>
      meets(data, t.when),
    );
    if (title) next['ui:title'] = title.title;
    for (const { when, ...more } of (rules['ui:when'] as ({ when: When } & Record<string, unknown>)[] | undefined) ??
      [])
      if (meets(data, when)) next = { ...next, ...more };
    if (rules['ui:showIf'] && !meets(data, rules['ui:showIf'] as When)) next['ui:widget'] = 'hidden';
    if (out === ui) out = { ...ui };
    out[field] = next;
  }
  return out;
}

export function SchemaForm<T extends object = Record<string, unknown>>({
  schema: schemaOrKey,
  fields,
  required,
  uiSchema,
  formData,
  onChange,
  onSubmit,
  onBlur,
  onError,
  serverErrors,
  widgets,
  disabled,
  children,
  id,
  ref,
}: SchemaFormProps<T>) {
  const compiled = isCompiledForm(schemaOrKey) ? schemaOrKey : undefined;
  const rt = useRuntimeValidation(!compiled);
  const schema = useMemo(
    () =>
      compiled ? compiled.schema : rt ? displaySchema(rt.resolveSchema(schemaOrKey as string | JsonSchema)) : undefined,
    [compiled, rt, schemaOrKey],
  );
  const validator = compiled ? compiledValidator(compiled) : rt?.validator;
  const ui = useMemo(() => {
    const out: UiSchema = schema ? fieldsUi(schema, fields, uiSchema) : { ...uiSchema };
    for (const f of required ?? []) out[f] = { ...out[f], 'ui:required': true };
    return out;
  }, [schema, fields, uiSchema, required]);
  const customValidate = useMemo(() => {
    if (!required?.length || !schema) return undefined;
    const check: CustomValidator<object> = (data, errors) => {
      for (const f of required) {
        const v = (data as Record<string, unknown> | undefined)?.[f];
        const fieldErrors = (errors as Record<string, FieldValidation | undefined>)[f];
        if (v === undefined || v === null || (typeof v === 'string' && v.trim() === ''))
          fieldErrors?.addError(requiredMessageOf(schema, f) ?? MESSAGES.badParam);
      }
      return errors;
    };
    return check;
  }, [required, schema]);
  const allWidgets = useMemo(() => ({ ...schemaWidgets, ...widgets }), [widgets]);
  const [submitted, setSubmitted] = useState(false);
  const [data, setData] = useState<Partial<T>>(formData ?? {});
  const current = formData ?? data;
  const { shown: shownServerErrors, dismissChanged } = useServerErrors(serverErrors);
  const extraErrors = useMemo(() => toErrorSchema(shownServerErrors), [shownServerErrors]);
  const shownUi = useMemo(() => conditionalUi(ui, current), [ui, current]);
  const formRef = useRef<RjsfForm<object>>(null);

  useImperativeHandle(ref, () => ({
    validate: () => {
      setSubmitted(true);
      return formRef.current?.validateForm() ?? false;
    },
  }));

  // the form holds the values the schema describes: T, as the caller declared them
  const change = (e: IChangeEvent<object>) => {
    const next = (e.formData ?? {}) as Partial<T>;
    dismissChanged(current, next);
    setData(next);
    onChange?.(next);
  };

  if (!schema || !validator)
    return <Skeleton active title={false} paragraph={{ rows: Math.max(fields?.length ?? 4, 2) }} aria-busy="true" />;
  return (
    <Form
      ref={formRef}
      id={id}
      className="schema-form"
      schema={schema as RJSFSchema}
      uiSchema={shownUi}
      formData={current}
      validator={validator}
      widgets={allWidgets}
      transformErrors={transformErrors}
      customValidate={customValidate}
      showErrorList={false}
      liveValidate={submitted ? 'onChange' : undefined}
      noHtml5Validate
      focusOnFirstError
      extraErrors={extraErrors}
      disabled={disabled}
      experimental_defaultFormStateBehavior={{ constAsDefaults: 'never' }}
      onChange={change}
      onBlur={onBlur ? (fieldId: string, value: unknown) => onBlur(fieldId.replace(/^root_/, ''), value) : undefined}
      onError={(errors) => {
        setSubmitted(true);
        onError?.(errors.map((e) => ({ field: toField(e.property), message: e.message ?? MESSAGES.badParam })));
      }}
      onSubmit={(e) => {
        setSubmitted(true);
        onSubmit?.(trimBySchema(schema, e.formData ?? {}) as T);
      }}
    >
      {children ?? <></>}
    </Form>
  );
}
