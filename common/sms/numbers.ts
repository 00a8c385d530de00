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
 * - The counts (issue 27 item 5: the same figures under the box, in the charge dialog and in the
 *   server's acceptance): total = every token = valid + invalid + repeat; invalid = tokens that are
 *   not valid; repeat = occurrences of a valid number after its first; valid = the distinct valid
 *   numbers (`unique`): what a send goes to and is charged for (the charge's submitTotal).
 * - Confirming (`confirmNumbers`) leaves the distinct valid numbers in first-seen order: the
 *   invalid ones and the repeats go, so the box then holds exactly what is sent.
 * - The pool: 号码池不能为空 when no valid number is left, 号码不能大于60000个 when the box holds more
 *   than 60000 numbers (total, as typed or pasted). Beside an empty box the console says
 *   请输入手机号码 (`numberBoxError`); the spec's 号码池不能为空 is kept for a box without a valid number.
 */
import { carrierTable, type Carrier } from './segments';
import { MESSAGES } from '../schema/messages';

export const MAX_NUMBERS = 60000;
/** Spec 02 §5 texts (verbatim). */
export const NUMBER_MESSAGES = {
  empty: '号码池不能为空',
  tooMany: '号码不能大于60000个',
  /** beside an empty number box (schemas/messages enterMobile) */
  missing: MESSAGES.enterMobile,
} as const;

/** the normalised text is ASCII: its bytes decode as they are */
const ascii = new TextDecoder();

/** Non-digits and non-commas become commas, repeated commas collapse (leading/trailing kept while typing). */
export function normalizeNumberInput(text: string): string {
  // one pass over the char codes: a run of anything but digits (commas included) is one comma (the
  // regex replace /[^0-9]+/g → ',' it replaces). The result is ASCII, written as bytes and decoded
  // once: on a 60,000-number paste it costs less than the replace, the first paste of a page included
  const n = text.length;
  const out = new Uint8Array(n);
  let o = 0;
  let gap = false;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      out[o++] = c;
      gap = false;
    } else if (!gap) {
      out[o++] = 44;
      gap = true;
    }
  }
  return ascii.decode(out.subarray(0, o));
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

/**
 * A Chinese mainland mobile number written internationally (86 or 0086, then the 11 digits, as
 * digits only: 8613800138000): the domestic number, else null. The international page points such
 * numbers to the domestic send instead of counting them as international (issue 41 item 2); the
 * server's check counts them apart (domesticNum).
 */
export function domesticMobileOf(token: string): string | null {
  const t = token.startsWith('0086') ? token.slice(4) : token.startsWith('86') ? token.slice(2) : null;
  return t !== null && isChineseMobile(t) ? t : null;
}

export interface NumberCheck {
  /** every token: valid + invalid + repeat */
  total: number;
  /** distinct valid numbers (= unique.length): what is sent and charged */
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
 * Counts and sorts an input in one pass over its tokens (60,000 pasted numbers: bench/numbers.ts,
 * and the send page's first paste: bench/send-page-numbers.ts). What the first run of a page pays
 * is code not yet optimised and a young heap: the native split does the scanning (a JS loop over
 * every character was slower on a first paste), the loop over the tokens reads char codes only (no
 * slices, no string-to-number conversions: nothing allocated but the tokens) and dedupes in a
 * pre-sized typed-array hash set written inline (no call per number).
 */
export function checkNumbers(input: string | readonly string[]): NumberCheck {
  const text = typeof input === 'string' ? input : input.join(',');
  const table = carrierTable();
  const tokens = text.split(/[^0-9]+/);
  const count = tokens.length;
  // open addressing over (segment + 1, last 7 digits) pairs, at most half full: never rehashes
  let slots = 1 << 10;
  while (slots < count * 2) slots <<= 1;
  const mask = slots - 1;
  const keys = new Int32Array(slots * 2);
  // the distinct valid tokens are moved to the front of the split's own array (never ahead of the
  // reading), which then becomes `unique`: no second array grown number by number
  const unique = tokens;
  const invalidNumbers: string[] = [];
  const carriersOfUnique = new Uint8Array(count);
  let total = 0;
  let repeat = 0;
  let u = 0;
  let mobile = 0;
  let unicom = 0;
  let telecom = 0;
  tokens: for (let k = 0; k < count; k++) {
    const t = tokens[k];
    if (t === '') continue;
    total++;
    let carrier = 0;
    let segment = 0;
    if (t.length === 11 && t.charCodeAt(0) === 49) {
      segment = t.charCodeAt(1) * 100 + t.charCodeAt(2) * 10 + t.charCodeAt(3) - 48 * 111;
      carrier = table[segment];
    }
    if (carrier === 0) {
      invalidNumbers.push(t);
      continue;
    }
    // the last 7 digits as a small integer (the token is all digits)
    const rest =
      t.charCodeAt(4) * 1000000 +
      t.charCodeAt(5) * 100000 +
      t.charCodeAt(6) * 10000 +
      t.charCodeAt(7) * 1000 +
      t.charCodeAt(8) * 100 +
      t.charCodeAt(9) * 10 +
      t.charCodeAt(10) -
      48 * 1111111;
    const key = segment + 1;
    // NumberSet's hash, written out: a call per token costs until the loop is optimised
    let slot = (Math.imul(rest ^ Math.imul(segment, 0x9e3779b1), 0x85ebca6b) >>> 7) & mask;
    for (;;) {
      const at = slot << 1;
      const kept = keys[at];
      if (kept === 0) {
        keys[at] = key;
        keys[at + 1] = rest;
        break;
      }
      if (kept === key && keys[at + 1] === rest) {
        repeat++;
        continue tokens;
      }
      slot = (slot + 1) & mask;
    }
    unique[u] = t;
    carriersOfUnique[u++] = carrier;
    if (carrier === 1) mobile++;
    else if (carrier === 2) unicom++;
    else telecom++;
  }
  unique.length = u;
  const invalid = invalidNumbers.length;
  return {
    total,
    valid: u,
    invalid,
    repeat,
    unique,
    invalidNumbers,
    carriers: { 1: mobile, 2: unicom, 3: telecom },
    uniqueCarriers: carriersOfUnique.slice(0, u),
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

/** "Confirm": the distinct valid numbers of the input, first-seen order (invalid numbers and repeats cleared). */
export function confirmNumbers(input: string | readonly string[]): string[] {
  return checkNumbers(input).unique;
}

/** The pool check of a send: null when it may go, else the spec's message. */
export function numberPoolError(check: Pick<NumberCheck, 'total' | 'valid'>): string | null {
  if (check.valid === 0) return NUMBER_MESSAGES.empty;
  if (check.total > MAX_NUMBERS) return NUMBER_MESSAGES.tooMany;
  return null;
}

/** The number box's message beside the field: 请输入手机号码 while it is empty, else the pool check's. */
export function numberBoxError(check: Pick<NumberCheck, 'total' | 'valid'>): string | null {
  return check.total === 0 ? NUMBER_MESSAGES.missing : numberPoolError(check);
}

export type { Carrier };
