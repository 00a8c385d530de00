/**
 * Template rules the console and the server share, beyond what JSON Schema says: variables
 * (`{name}` or `{1}`) are counted, a fixed template has none, a variable template 1-30; in
 * product-package mode (operation_mode 1) an industry template (10) is 验证码 (4) or 通知 (0) and
 * a marketing template (11) is always 营销 (5). Messages come from forms/template.json `x-rules`.
 */
import { OperationMode, SmsType, TemplateCategory, TemplateType } from '../generated/schemas';

export interface TemplateRuleConfig {
  maxVariables: number;
  messages: Record<
    | 'fixedWithVariables'
    | 'variableWithoutVariables'
    | 'tooManyVariables'
    | 'industrySmsType'
    | 'sensitiveWords'
    | 'notCreator'
    | 'notFound',
    string
  >;
}

/** A variable marker: `{name}` or `{1}` (letters, digits, CJK, underscore; 1-20 characters). */
export const VARIABLE_PATTERN = /\{([\p{L}\p{N}_]{1,20})\}/gu;

/** How many variable markers the content holds (each occurrence counts: one file column each). */
export function countVariables(content: string | undefined | null): number {
  if (!content) return 0;
  return [...content.matchAll(VARIABLE_PATTERN)].length;
}

/** SMS types an industry template may take in product-package mode */
export const INDUSTRY_SMS_TYPES: readonly number[] = [SmsType.VerificationCode, SmsType.Notification];

/** The SMS type a template gets: marketing is forced to 营销; industry keeps a valid choice, else 通知 in mode 0. */
export function effectiveSmsType(
  smsType: number,
  chosen: number | undefined | null,
  operationMode: string,
): number | undefined {
  if (smsType === TemplateCategory.MemberMarketing) return SmsType.Marketing;
  if (chosen !== undefined && chosen !== null && INDUSTRY_SMS_TYPES.includes(Number(chosen))) return Number(chosen);
  return operationMode === OperationMode.Package ? undefined : SmsType.Notification;
}

export interface TemplateRuleInput {
  templateType: number;
  smsType: number;
  smstype?: number | null;
  content: string;
}

/** The first broken rule as { field, message }, or null. */
export function checkTemplateRules(
  input: TemplateRuleInput,
  operationMode: string,
  cfg: TemplateRuleConfig,
): { field: string; message: string } | null {
  const n = countVariables(input.content);
  if (Number(input.templateType) === TemplateType.Fixed && n > 0)
    return { field: 'content', message: cfg.messages.fixedWithVariables };
  if (Number(input.templateType) === TemplateType.Variable && n === 0)
    return { field: 'content', message: cfg.messages.variableWithoutVariables };
  if (n > cfg.maxVariables) return { field: 'content', message: cfg.messages.tooManyVariables };
  if (operationMode === OperationMode.Package && Number(input.smsType) === TemplateCategory.Industry) {
    if (input.smstype === undefined || input.smstype === null || !INDUSTRY_SMS_TYPES.includes(Number(input.smstype)))
      return { field: 'smstype', message: cfg.messages.industrySmsType };
  }
  return null;
}

/** The sensitive-word refusal naming the words. */
export function sensitiveWordsMessage(cfg: TemplateRuleConfig, words: string[]): string {
  return cfg.messages.sensitiveWords.replace('{words}', words.join('、'));
}
