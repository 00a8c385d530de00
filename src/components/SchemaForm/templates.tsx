/**
 * Our RJSF templates: a field is its label, its input and the first message of the rule it breaks,
 * laid out as antd's vertical form items look, without antd Form (whose field store, validator and
 * tooltip our schema forms do not use; RJSF holds the state and ajv checks the rules). Inputs show
 * antd's error state themselves (`status`). Everything not listed here is RJSF's core template.
 */
import { lazy, Suspense, type ChangeEvent, type FocusEvent } from 'react';
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import {
  ariaDescribedByIds,
  getInputProps,
  getUiOptions,
  type BaseInputTemplateProps,
  type FieldTemplateProps,
  type WidgetProps,
} from '@rjsf/utils';

const InputNumber = lazy(() => import('antd/es/input-number'));

const statusOf = (rawErrors?: string[]) => (rawErrors?.length ? ('error' as const) : undefined);

export function FieldTemplate({
  id,
  classNames,
  style,
  label,
  displayLabel,
  required,
  hidden,
  rawErrors,
  errors,
  help,
  rawHelp,
  children,
  schema,
  uiSchema,
}: FieldTemplateProps) {
  if (hidden) return <div className="rjsf-field-hidden">{children}</div>;
  // the object that holds the fields: no label, no message of its own
  if (schema.type === 'object')
    return (
      <div className={classNames} style={style}>
        {children}
      </div>
    );
  // a checkbox carries its own label
  // (RJSF drops the label of a field given by `ui:field`; SchemaForm's one input for a property
  // whose anyOf are alternative rules keeps it)
  const showLabel =
    (displayLabel || uiSchema?.['ui:fieldReplacesAnyOrOneOf'] === true) &&
    !!label &&
    getUiOptions(uiSchema).widget !== 'checkbox';
  const failed = !!rawErrors?.length;
  // required by the schema, or by the form's context (SchemaForm `required`)
  const marked = required || getUiOptions(uiSchema).required === true;
  return (
    <div className={['sf-item', failed && 'sf-item-error', classNames].filter(Boolean).join(' ')} style={style}>
      {showLabel && (
        <label className={marked ? 'sf-label sf-label-required' : 'sf-label'} htmlFor={id}>
          {label}
        </label>
      )}
      {children}
      {(failed || !!rawHelp) && <div className="sf-explain">{failed ? errors : help}</div>}
    </div>
  );
}

/** Text-like inputs (text, email, password type ...) as antd Input; numbers as antd InputNumber, loaded on first use. */
export function BaseInputTemplate(props: BaseInputTemplateProps) {
  const {
    id,
    htmlName,
    value,
    type,
    placeholder,
    disabled,
    readonly,
    autofocus,
    onChange,
    onChangeOverride,
    onBlur,
    onFocus,
    options,
    schema,
    rawErrors,
    required,
  } = props;
  const { min, max, step, ...inputProps } = getInputProps(schema, type, options, false);
  const common = {
    id,
    name: htmlName || id,
    placeholder,
    disabled: disabled || readonly,
    autoFocus: autofocus,
    required,
    status: statusOf(rawErrors),
    'aria-describedby': ariaDescribedByIds(id),
    style: { width: '100%' },
  };
  if (inputProps.type === 'number' || inputProps.type === 'integer') {
    return (
      <Suspense fallback={<Input {...common} disabled />}>
        <InputNumber
          {...common}
          value={value ?? null}
          min={typeof min === 'number' ? min : undefined}
          max={typeof max === 'number' ? max : undefined}
          step={typeof step === 'number' ? step : undefined}
          changeOnWheel={false}
          onChange={(v) => onChange(v === null ? options.emptyValue : v)}
          onBlur={(e: FocusEvent<HTMLInputElement>) => onBlur(id, e.target.value)}
          onFocus={(e: FocusEvent<HTMLInputElement>) => onFocus(id, e.target.value)}
        />
      </Suspense>
    );
  }
  return (
    <Input
      {...common}
      {...inputProps}
      value={value ?? ''}
      onChange={
        onChangeOverride ??
        ((e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value === '' ? options.emptyValue : e.target.value))
      }
      onBlur={(e) => onBlur(id, e.target.value)}
      onFocus={(e) => onFocus(id, e.target.value)}
    />
  );
}

/** antd's password input (with the show/hide eye). */
export function PasswordWidget({
  id,
  value,
  placeholder,
  disabled,
  readonly,
  autofocus,
  onChange,
  onBlur,
  onFocus,
  options,
  rawErrors,
}: WidgetProps) {
  const common = {
    id,
    name: id,
    placeholder,
    disabled: disabled || readonly,
    autoFocus: autofocus,
    status: statusOf(rawErrors),
    autoComplete: options.autocomplete as string | undefined,
    'aria-describedby': ariaDescribedByIds(id),
  };
  return (
    <Password
      {...common}
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value === '' ? options.emptyValue : e.target.value)}
      onBlur={(e) => onBlur(id, e.target.value)}
      onFocus={(e) => onFocus(id, e.target.value)}
    />
  );
}
