/**
 * Manual number input of the send pages, shared by the console and the server (spec 02 §5
 * "Ordinary send"; the rules are written out in docs/api-send.md, "Number rules"):
 *
 * - Every character other than a digit or a comma becomes a comma and repeated commas collapse
 *   (`normalizeNumberInput`, applied as the user types): spaces, new lines, semicolons and the
 *   Chinese comma ， all separate numbers. Nothing else is stripped: "+86 138…" gives the tokens
 *   "86" and "138…", and "8613800138000" (13 digits) is invalid.
 * - A number is valid when it is a Chinese mainland mobile number: 11 digits, starting with 1, in a
 *   segment the segment table knows (common/sms/segments.ts: libphonenumber's carrier data plus
 *   the virtual segments 162/165). 1349 (satellite) and data-only segments (146/148/149) are not.
 * - total = every token, invalid = tokens that are not valid, valid = total - invalid (duplicates
 *   included, as the counts under the box show them), repeat = occurrences of a valid number after
 *   its first. A send goes once to each distinct valid number (`unique`), and is charged for those.
 * - Confirming clears the invalid numbers and keeps the rest in order, duplicates included
 *   (`confirmNumbers`); they are counted as repeats and sent once.
 * - The pool: 号码池不能为空 when no valid number is left, 号码不能大于60000个 when the box holds more
 *   than 60000 numbers (total, as typed or pasted).
 */
import { carrierTable, type Carrier } from './segments';

export const MAX_NUMBERS = 60000;
/** Spec 02 §5 texts (verbatim). */
export const NUMBER_MESSAGES = {
  empty: '号码池不能为空',
  tooMany: '号码不能大于60000个',
} as const;

/** Non-digits and non-commas become commas, repeated commas collapse (leading/trailing kept while typing). */
export function normalizeNumberInput(text: string): string {
  return text.replace(/[^0-9,]+/g, ',').replace(/,{2,}/g, ',');
}

/** The tokens of an input (or of an already split list), empty ones dropped. */
export function splitNumbers(input: string | readonly string[]): string[] {
  const text = typeof input === 'string' ? input : input.join(',');
  return normalizeNumberInput(text)
    .split(',')
    .filter((t) => t !== '');
}

/** 11 digits, starting with 1, in a known segment. */
export function isChineseMobile(token: string): boolean {
  if (token.length !== 11 || token.charCodeAt(0) !== 49) return false;
  for (let i = 1; i < 11; i++) {
    const d = token.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
  }
  const t = token.charCodeAt(1) * 100 + token.charCodeAt(2) * 10 + token.charCodeAt(3) - 48 * 111;
  return carrierTable()[t] !== 0;
}

export interface NumberCheck {
  /** every token */
  total: number;
  /** valid tokens, duplicates included */
  valid: number;
  invalid: number;
  /** occurrences of a valid number after its first */
  repeat: number;
  /** distinct valid numbers, first-seen order: what is sent and charged */
  unique: string[];
  /** the invalid tokens, in order */
  invalidNumbers: string[];
  /** distinct valid numbers per carrier (1 移动, 2 联通, 3 电信) */
  carriers: Record<1 | 2 | 3, number>;
  /** carrier of each entry of `unique` */
  uniqueCarriers: Uint8Array;
}

/**
 * Counts and sorts an input in one pass (a hand-written scanner: 60,000 pasted numbers take a few
 * milliseconds, bench/numbers.ts).
 */
export function checkNumbers(input: string | readonly string[]): NumberCheck {
  const text = typeof input === 'string' ? input : input.join(',');
  const table = carrierTable();
  const seen = new Set<number>();
  const unique: string[] = [];
  const carriersOfUnique: number[] = [];
  const invalidNumbers: string[] = [];
  const carriers: Record<1 | 2 | 3, number> = { 1: 0, 2: 0, 3: 0 };
  let total = 0;
  let repeat = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    if (c < 48 || c > 57) {
      i++;
      continue;
    }
    const start = i;
    let value = 0;
    while (i < n && (c = text.charCodeAt(i)) >= 48 && c <= 57) {
      if (i - start < 11) value = value * 10 + (c - 48);
      i++;
    }
    total++;
    const len = i - start;
    let carrier = 0;
    if (len === 11 && text.charCodeAt(start) === 49) {
      // digits 2-4 after the leading 1: value / 10^7 = 1xyz
      carrier = table[Math.floor(value / 1e7) - 1000];
    }
    if (!carrier) {
      invalidNumbers.push(text.slice(start, i));
      continue;
    }
    if (seen.has(value)) {
      repeat++;
      continue;
    }
    seen.add(value);
    unique.push(text.slice(start, i));
    carriersOfUnique.push(carrier);
    carriers[carrier as 1 | 2 | 3]++;
  }
  const invalid = invalidNumbers.length;
  return {
    total,
    valid: total - invalid,
    invalid,
    repeat,
    unique,
    invalidNumbers,
    carriers,
    uniqueCarriers: Uint8Array.from(carriersOfUnique),
  };
}

/** "Confirm": the input with its invalid numbers cleared, order and duplicates kept. */
export function confirmNumbers(input: string | readonly string[]): string[] {
  return splitNumbers(input).filter(isChineseMobile);
}

/** The pool check of a send: null when it may go, else the spec's message. */
export function numberPoolError(check: Pick<NumberCheck, 'total' | 'valid'>): string | null {
  if (check.valid === 0) return NUMBER_MESSAGES.empty;
  if (check.total > MAX_NUMBERS) return NUMBER_MESSAGES.tooMany;
  return null;
}

export type { Carrier };
