/**
 * The unsubscribe replies (退订): an uplink whose whole text, trimmed and compared without case,
 * is one of `x-unsubscribe-words` of schemas/enums/blacklist-source.json puts its number on the
 * blacklist of the account the uplink belongs to (docs/api-blacklist.md "Unsubscribe").
 */
import sourceEnum from '../../../schemas/enums/blacklist-source.json';

export const UNSUBSCRIBE_WORDS: readonly string[] = sourceEnum['x-unsubscribe-words'];
const WORDS = new Set(UNSUBSCRIBE_WORDS.map((w) => w.trim().toUpperCase()));

/** Whether an uplink's text is an unsubscribe reply (`td`, ` T `, `退订`; not `退订了`, not `TD 谢谢`). */
export function isUnsubscribe(text: string): boolean {
  // trims spaces, new lines and full-width spaces (String.prototype.trim covers U+3000)
  return WORDS.has(text.trim().toUpperCase());
}
