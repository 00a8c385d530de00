/**
 * The select of our forms (a single or a multiple choice of an enum): antd's Select with the
 * enum's options, the placeholder (请选择…) as the empty select's hint and never an option one
 * can pick. @rjsf/antd's SelectWidget adds the placeholder as a choice of value '' unless the
 * schema has a default, and warns for a default that is none of the options (the fake `null`
 * default that once kept the choice out made every form log "The schema default value "null" is
 * not one of the values in the enum"); this one has neither. `ui:enumValues` (a schema's `x-ui`
 * `ui:when`) limits the options offered to those values.
 */
import type { WidgetProps } from '@rjsf/utils';
import {
  ariaDescribedByIds,
  enumOptionSelectedValue,
  enumOptionValueDecoder,
  enumOptionValueEncoder,
  getOptionValueFormat,
} from '@rjsf/utils';
import { Select } from 'antd';

export function SelectWidget({
  id,
  htmlName,
  autofocus,
  disabled,
  readonly,
  multiple,
  value,
  options,
  placeholder,
  onChange,
  onBlur,
  onFocus,
}: WidgetProps) {
  const { enumOptions = [], enumDisabled, emptyValue, enumValues } = options;
  const only = Array.isArray(enumValues) ? enumValues.map(String) : undefined;
  const offered = only ? enumOptions.filter((o) => only.includes(String(o.value))) : enumOptions;
  const format = getOptionValueFormat(options);
  const decode = (v: unknown) => enumOptionValueDecoder(v as string | string[], offered, format, emptyValue);
  return (
    <Select
      id={id}
      // @ts-expect-error antd's Select passes `name` on to its input, its types do not list it
      name={htmlName || id}
      autoFocus={autofocus}
      disabled={disabled || readonly}
      mode={multiple ? 'multiple' : undefined}
      placeholder={placeholder}
      style={{ width: '100%' }}
      value={enumOptionSelectedValue(value, offered, !!multiple, format, emptyValue)}
      options={offered.map((o, i) => ({
        key: String(i),
        value: enumOptionValueEncoder(o.value, i, format),
        label: o.label,
        disabled: Array.isArray(enumDisabled) && enumDisabled.includes(o.value),
      }))}
      showSearch
      optionFilterProp="label"
      getPopupContainer={(node: HTMLElement) => node.parentElement ?? document.body}
      onChange={readonly ? undefined : (v) => onChange(decode(v))}
      onBlur={readonly ? undefined : () => onBlur(id, value)}
      onFocus={readonly ? undefined : () => onFocus(id, value)}
      aria-describedby={ariaDescribedByIds(id)}
    />
  );
}

export default SelectWidget;
