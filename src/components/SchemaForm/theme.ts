/**
 * The RJSF theme of our forms: our field and input templates (templates.tsx), @rjsf/antd's
 * checkbox, and the other antd widgets our schemas use loaded on first use. Importing `Form` from
 * '@rjsf/antd' (or its generateTemplates) would pull in every antd widget (date pickers, sliders
 * ...), antd Form and with them most of antd, on every page that shows a form, /login included.
 */
import { createElement, type ComponentType } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { withTheme, type FormProps } from '@rjsf/core';
import CheckboxWidget from '@rjsf/antd/lib/widgets/CheckboxWidget/index.js';
import { FieldErrorTemplate } from './FieldErrorTemplate';
import { lazyWidget } from './lazyWidget';
import { BaseInputTemplate, FieldTemplate, PasswordWidget } from './templates';

// loaded when a form shows one (select and text area are heavy; the login form has neither)
const RadioWidget = lazyWidget(() => import('@rjsf/antd/lib/widgets/RadioWidget/index.js'));
// `ui:enumValues` (set by a schema's `x-ui` `ui:when`): only those of the enum's values are offered.
// The placeholder (请选择) stays the empty select's hint, never an option one can pick: @rjsf/antd adds
// it as a choice of value '' unless the field has a default, so the widget is told there is one
// (the form's data is not: defaults are computed from the form's own schema).
const SelectWidget = lazyWidget(() =>
  import('@rjsf/antd/lib/widgets/SelectWidget/index.js').then(({ default: Select }) => ({
    default: (props: WidgetProps) =>
      createElement(Select, {
        ...props,
        schema: props.multiple || props.schema.default !== undefined ? props.schema : { ...props.schema, default: null },
        options: onlyEnumValues(props.options),
      }),
  })),
);
const TextareaWidget = lazyWidget(() => import('@rjsf/antd/lib/widgets/TextareaWidget/index.js'));

function onlyEnumValues(options: WidgetProps['options']): WidgetProps['options'] {
  const only = options.enumValues;
  if (!Array.isArray(only)) return options;
  return { ...options, enumOptions: options.enumOptions?.filter((o) => only.some((v) => String(v) === String(o.value))) };
}

export const AntdForm: ComponentType<FormProps<object>> = withTheme<object>({
  templates: { FieldTemplate, BaseInputTemplate, FieldErrorTemplate },
  widgets: { CheckboxWidget, PasswordWidget, RadioWidget, SelectWidget, TextareaWidget },
});
