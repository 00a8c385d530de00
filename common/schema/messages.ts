/**
 * The messages the console and the server both say (success toasts, business refusals), kept once
 * in schemas/messages/messages.json (`x-messages`). The server answers with them; the console
 * shows the same text when an answer carries none. Field rules' messages live in the form
 * schemas' `errorMessage`, not here.
 */
import doc from '../../schemas/messages/messages.json';

export type MessageKey = keyof (typeof doc)['x-messages'];

export const MESSAGES: Readonly<Record<MessageKey, string>> = doc['x-messages'];
