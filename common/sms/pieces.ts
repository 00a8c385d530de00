/**
 * Pieces (条) of one message, the one rule the send page, the charge and billing use
 * (spec 02 §5 "Ordinary send"; docs/api-send.md, "Number rules"):
 *
 * - The sign goes in front, wrapped in 【】; a message that is all English (content and sign) wraps
 *   it in [] instead. No sign, no brackets.
 * - English = every character of content and sign is ASCII (U+0000..U+007F): it travels 8-bit,
 *   140 characters in one piece, else 134 a piece (6 bytes of each go to the concatenation header).
 *   Anything else (Chinese, full-width punctuation, é, emoji) makes the whole message UCS-2:
 *   70 in one piece, else 67 a piece.
 * - Length counts UTF-16 code units, as the console's counter (String.length, the textarea's
 *   maxlength) and the carrier do: UCS-2 carries 2 bytes a unit, so an emoji outside the BMP
 *   (a surrogate pair) counts 2.
 * - The counter shows chars = content + sign + 2 (the brackets), out of MAX_MESSAGE_CHARS (500).
 */
export const MAX_MESSAGE_CHARS = 500;
export const PIECE_LIMITS = {
  chinese: { single: 70, multi: 67 },
  english: { single: 140, multi: 134 },
} as const;

export interface PieceInput {
  content: string;
  sign?: string | null;
}

export interface PieceCount {
  /** content + sign + 2 (when there is a sign): the counter's figure */
  chars: number;
  /** pieces one message is billed as (0 for an empty message) */
  pieces: number;
  isEnglish: boolean;
  /** chars > 500 */
  tooLong: boolean;
  /** the message as sent: 【sign】content, or [sign]content when English */
  text: string;
}

/** Every UTF-16 code unit is ASCII (U+0000..U+007F): the text can travel 8-bit. */
export function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/**
 * Pieces of a message of `chars` characters (the counter's figure: content + sign + 2), English
 * (all ASCII) or not. The rule itself, for callers that count characters without building the
 * text (a variable send's million rows: the template's part is counted once).
 */
export function piecesFor(chars: number, isEnglish: boolean): number {
  const limits = isEnglish ? PIECE_LIMITS.english : PIECE_LIMITS.chinese;
  return chars === 0 ? 0 : chars <= limits.single ? 1 : Math.ceil(chars / limits.multi);
}

/** What goes in front of the content: 【sign】, [sign] when the whole message is English, nothing without a sign. */
export function signPrefix(sign: string | null | undefined, isEnglish: boolean): string {
  if (!sign) return '';
  return isEnglish ? `[${sign}]` : `【${sign}】`;
}

/** The message as sent, sign in front. */
export function composeMessage({ content, sign }: PieceInput): string {
  if (!sign) return content;
  return signPrefix(sign, isAscii(content) && isAscii(sign)) + content;
}

/** The counter's figure for a content of `contentLength` characters: content + sign + 2 (the brackets) when there is a sign. */
export function messageChars(contentLength: number, sign?: string | null): number {
  const s = sign ?? '';
  return contentLength + s.length + (s ? 2 : 0);
}

export function countPieces({ content, sign }: PieceInput): PieceCount {
  const s = sign ?? '';
  const isEnglish = isAscii(content) && isAscii(s);
  const chars = messageChars(content.length, s);
  return {
    chars,
    pieces: piecesFor(chars, isEnglish),
    isEnglish,
    tooLong: chars > MAX_MESSAGE_CHARS,
    text: signPrefix(s, isEnglish) + content,
  };
}
