/** The content check's form rules, from schemas/forms/content-test.json (the server validates with the same file). */
import Ajv, { type ValidateFunction } from 'ajv';
import { AJV_OPTIONS, extendAjv, toFieldErrors } from '../../../common/schema';
import { schemas } from '@/schema';

let validate: ValidateFunction | undefined;

/** The first message for `content`, or undefined when valid. */
export function contentError(content: string | undefined): string | undefined {
  validate ??= extendAjv(new Ajv(AJV_OPTIONS)).compile(schemas.inline('forms/content-test'));
  if (validate({ content: content ?? '' })) return undefined;
  return toFieldErrors(validate.errors).find((e) => e.field === 'content' || e.field === '')?.message ?? '请输入短信内容';
}

export const CONTENT_MAX = Number(schemas.inline('forms/content-test').properties?.content?.maxLength ?? 500);
