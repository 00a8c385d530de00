/**
 * The RJSF theme of our forms: our field and input templates (templates.tsx), @rjsf/antd's
 * checkbox, and the other antd widgets our schemas use loaded on first use. Importing `Form` from
 * '@rjsf/antd' (or its generateTemplates) would pull in every antd widget (date pickers, sliders
 * ...), antd Form and with them most of antd, on every page that shows a form, /login included.
 */
import type { ComponentType } from 'react';
import { withTheme, type FormProps } from '@rjsf/core';
import CheckboxWidget from '@rjsf/antd/lib/widgets/CheckboxWidget/index.js';
import { FieldErrorTemplate } from './FieldErrorTemplate';
import { lazyWidget } from './lazyWidget';
import { BaseInputTemplate, FieldTemplate, PasswordWidget } from './templates';

// loaded when a form shows one (select and text area are heavy; the login form has neither)
const RadioWidget = lazyWidget(() => import('@rjsf/antd/lib/widgets/RadioWidget/index.js'));
// the select (and its `ui:enumValues`): our own, ./widgets/SelectWidget.tsx (no 请选择 choice, no fake default)
const SelectWidget = lazyWidget(() => import('./widgets/SelectWidget'));
const TextareaWidget = lazyWidget(() => import('@rjsf/antd/lib/widgets/TextareaWidget/index.js'));

export const AntdForm: ComponentType<FormProps<object>> = withTheme<object>({
  templates: { FieldTemplate, BaseInputTemplate, FieldErrorTemplate },
  widgets: { CheckboxWidget, PasswordWidget, RadioWidget, SelectWidget, TextareaWidget },
});
