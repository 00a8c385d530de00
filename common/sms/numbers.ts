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
  // one pass: a run of anything but digits (commas included) is one comma; the same as replacing
  // each non-digit-non-comma with a comma and collapsing repeats, at half the cost on a 60,000-number paste
  return text.replace(/[^0-9]+/g, ',');
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
 * Counts and sorts an input in one pass over its tokens (60,000 pasted numbers: bench/numbers.ts).
 */
export function checkNumbers(input: string | readonly string[]): NumberCheck {
  const text = typeof input === 'string' ? input : input.join(',');
  const table = carrierTable();
  const unique: string[] = [];
  const carriersOfUnique: number[] = [];
  const invalidNumbers: string[] = [];
  const carriers: Record<1 | 2 | 3, number> = { 1: 0, 2: 0, 3: 0 };
  let total = 0;
  let repeat = 0;
  // the native split does the scanning (fast from the first call, before the JIT warms up)
  const tokens = text.split(/[^0-9]+/);
  const seen = new NumberSet(tokens.length);
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (t === '') continue;
    total++;
    let carrier = 0;
    let segment = 0;
    if (t.length === 11 && t.charCodeAt(0) === 49) {
      segment = (t.charCodeAt(1) - 48) * 100 + (t.charCodeAt(2) - 48) * 10 + (t.charCodeAt(3) - 48);
      carrier = table[segment];
    }
    if (!carrier) {
      invalidNumbers.push(t);
      continue;
    }
    // the last 7 digits as a small integer (the token is all digits)
    if (!seen.add(segment, +t.slice(4))) {
      repeat++;
      continue;
    }
    unique.push(t);
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

/**
 * A set of mobile numbers kept as (segment 0..999, last 7 digits) pairs of small integers in an
 * open-addressing table: a Set of 11-digit numbers hashes heap doubles and is several times slower.
 */
export class NumberSet {
  private keys: Int32Array;
  private mask: number;
  private size = 0;

  /** sized for `expected` numbers (at most half full), so that a paste never rehashes */
  constructor(expected: number) {
    let slots = 1 << 10;
    while (slots < expected * 2) slots <<= 1;
    this.keys = new Int32Array(slots * 2).fill(-1);
    this.mask = slots - 1;
  }

  /** false when already there */
  add(segment: number, rest: number): boolean {
    if (this.size * 2 >= this.keys.length / 2) this.grow();
    return this.put(segment, rest);
  }

  private put(segment: number, rest: number): boolean {
    const keys = this.keys;
    let slot = (Math.imul(rest ^ Math.imul(segment, 0x9e3779b1), 0x85ebca6b) >>> 7) & this.mask;
    for (;;) {
      const k = slot << 1;
      if (keys[k] === -1) {
        keys[k] = segment;
        keys[k + 1] = rest;
        this.size++;
        return true;
      }
      if (keys[k] === segment && keys[k + 1] === rest) return false;
      slot = (slot + 1) & this.mask;
    }
  }

  private grow() {
    const old = this.keys;
    this.keys = new Int32Array(old.length * 2).fill(-1);
    this.mask = this.keys.length / 2 - 1;
    this.size = 0;
    for (let k = 0; k < old.length; k += 2) if (old[k] !== -1) this.put(old[k], old[k + 1]);
  }
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
