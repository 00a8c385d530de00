/** The content check's form rules, from schemas/forms/content-test.json (the server validates with the same file). */
import { schemas } from '@/schema';
import { validateForm } from '@/components/SchemaForm/validation';

/** The first message for `content`, or undefined when valid. */
export function contentError(content: string | undefined): string | undefined {
  const r = validateForm('forms/content-test', { content: content ?? '' });
  return r.ok ? undefined : (r.errors.find((e) => e.field === 'content' || e.field === '')?.message ?? schemas.inline('forms/content-test').errorMessage?.required?.content);
}

export const CONTENT_MAX = Number(schemas.inline('forms/content-test').properties?.content?.maxLength ?? 500);
