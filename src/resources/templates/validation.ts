/**
 * The template form's checks in the console: the same schema (forms/template.json, compiled at build time with the
 * schema's messages) and the same extra rules (common/template/rules.ts, messages in `x-rules`)
 * as the server, so both answer alike.
 */
import type { FieldError } from '../../../common/schema';
import { checkTemplateRules, countVariables, type TemplateRuleConfig } from '../../../common/template/rules';
import { schemas } from '@/schema';
import { checkForm } from '@/components/SchemaForm/compiled';
import templateForm from '@/generated/forms/template';
import { MESSAGES } from '../../../common/schema/messages';
import { requiredMessageOf } from '../../../common/schema/registry';

export const TEMPLATE_FORM = 'forms/template.json';

export const templateRules = (): TemplateRuleConfig => schemas.get(TEMPLATE_FORM)['x-rules'] as TemplateRuleConfig;
export const requiredMessage = (field: string): string =>
  requiredMessageOf(schemas.get(TEMPLATE_FORM), field) ?? MESSAGES.badParam;
export const contentMaxLength = (): number => schemas.get(TEMPLATE_FORM).properties?.content?.maxLength ?? 0;

export interface TemplateFormValues {
  templateId?: number;
  clientId?: string;
  smsType?: number;
  templateType?: number;
  business?: number;
  smstype?: number;
  sign?: string;
  content?: string;
}

/** Field errors of a save, in schema order (empty when it may be sent). */
export function validateTemplate(
  values: TemplateFormValues,
  opts: { agent: boolean; operationMode: string },
): FieldError[] {
  const checked = checkForm<Record<string, unknown>>(templateForm, values as Record<string, unknown>);
  const data = checked.data;
  const errors: FieldError[] = [];
  if (opts.agent && !data.clientId) errors.push({ field: 'clientId', message: requiredMessage('clientId') });
  errors.push(...checked.errors.filter((e) => !errors.some((x) => x.field === e.field)));
  if (!errors.length) {
    const broken = checkTemplateRules(
      data as unknown as Parameters<typeof checkTemplateRules>[0],
      opts.operationMode,
      templateRules(),
    );
    if (broken) errors.push(broken);
  }
  return errors;
}

export { countVariables };
