/** The content check's form rules, from schemas/forms/content-test.json (the server validates with the same file). */
import { schemas } from '@/schema';
import { checkForm } from '@/components/SchemaForm/compiled';
import contentTestForm from '@/generated/forms/content-test';
import { requiredMessageOf } from '../../../common/schema/registry';

/** The first message for `content`, or undefined when valid. */
export function contentError(content: string | undefined): string | undefined {
  const r = checkForm(contentTestForm, { content: content ?? '' });
  return r.ok
    ? undefined
    : (r.errors.find((e) => e.field === 'content' || e.field === '')?.message ??
        requiredMessageOf(schemas.inline('forms/content-test'), 'content'));
}

export const CONTENT_MAX = Number(schemas.inline('forms/content-test').properties?.content?.maxLength ?? 500);
