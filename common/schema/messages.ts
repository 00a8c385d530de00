/**
 * The messages the console and the server both say (success toasts, business refusals), kept once
 * in schemas/messages/messages.json (`x-messages`). The server answers with them; the console
 * shows the same text when an answer carries none. Field rules' messages live in the form
 * schemas' `errorMessage`, not here.
 */
import doc from '../../schemas/messages/messages.json';

export type MessageKey = keyof (typeof doc)['x-messages'];

export const MESSAGES: Readonly<Record<MessageKey, string>> = doc['x-messages'];

/**
 * The message a form schema gives for `field` missing under a condition: its `errorMessage.required`,
 * else that of an `allOf` branch's `then` (a field required only when another has some value).
 * Throws when the schema has none, so a schema edit cannot silently leave a caller without its text.
 */
export function requiredMessage(schema: { errorMessage?: unknown; allOf?: readonly unknown[] }, field: string): string {
  const of = (node: unknown): string | undefined => {
    const em = (node as { errorMessage?: { required?: Record<string, unknown> } } | undefined)?.errorMessage;
    const msg = em && typeof em === 'object' ? em.required?.[field] : undefined;
    return typeof msg === 'string' ? msg : undefined;
  };
  const msg =
    of(schema) ?? schema.allOf?.map((branch) => of((branch as { then?: unknown }).then)).find((m) => m !== undefined);
  if (msg === undefined) throw new Error(`no required message for ${field}`);
  return msg;
}
