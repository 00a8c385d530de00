/**
 * The RJSF theme of our forms: @rjsf/antd's templates with only the antd widgets our schemas
 * use, the heavier ones loaded on first use. Importing `Form` from '@rjsf/antd' would pull in every antd widget (date pickers,
 * sliders ...) and with them most of antd, on every page that shows a form, /login included.
 */
import type { ComponentType } from 'react';
import { withTheme, type FormProps } from '@rjsf/core';
import { generateTemplates } from '@rjsf/antd/lib/templates/index.js';
import CheckboxWidget from '@rjsf/antd/lib/widgets/CheckboxWidget/index.js';
import PasswordWidget from '@rjsf/antd/lib/widgets/PasswordWidget/index.js';
import { lazyWidget } from './lazyWidget';

// loaded when a form shows one (select and text area are heavy; the login form has neither)
const RadioWidget = lazyWidget(() => import('@rjsf/antd/lib/widgets/RadioWidget/index.js'));
const SelectWidget = lazyWidget(() => import('@rjsf/antd/lib/widgets/SelectWidget/index.js'));
const TextareaWidget = lazyWidget(() => import('@rjsf/antd/lib/widgets/TextareaWidget/index.js'));

export const AntdForm: ComponentType<FormProps<any, any, any>> = withTheme<any, any, any>({
  templates: generateTemplates(),
  widgets: { CheckboxWidget, PasswordWidget, RadioWidget, SelectWidget, TextareaWidget },
});
