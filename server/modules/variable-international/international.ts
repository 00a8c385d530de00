/**
 * International numbers and prices (docs/api-variable-international.md "International"):
 * the country of a number comes from libphonenumber-js metadata (the number is read as E.164
 * without the +: dial code first; a leading 00 is dropped), its price per piece from the
 * `intl_prices` row of that country. +86 is domestic and no international destination; a number
 * of a country without a price row, or not valid for its country, is an error number (a Chinese
 * mobile written with 86 / 0086 is one too, counted apart as `domestic`: the console points it to
 * the domestic send). The
 * country and validity are libphonenumber-js's own answer, from its metadata's patterns compiled
 * once (phone-plans.ts: ~0.5 µs a number instead of ~10–20).
 */
import fs from 'node:fs';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { domesticMobileOf, NumberSet } from '../../../common/sms/numbers';
import { ApiError } from '../../http/errors';
import { readSheetBatches, SpreadsheetError } from '../../lib/spreadsheet';
import { textTokens } from '../send';
import { intlNumber } from './phone-plans';

export interface IntlPrice {
  iso: string;
  dial: string;
  nameEn: string;
  nameZh: string;
  fee: string;
  sort: number;
}

export async function loadPrices(db: Kysely<Database>): Promise<Map<string, IntlPrice>> {
  const rows = await db
    .selectFrom('intl_prices')
    .select(['country_code', 'dial_code', 'name_en', 'name_zh', 'fee', 'sort'])
    .orderBy('sort')
    .execute();
  return new Map(
    rows.map((r) => [
      r.country_code,
      {
        iso: r.country_code,
        dial: r.dial_code,
        nameEn: r.name_en,
        nameZh: r.name_zh,
        fee: String(r.fee),
        sort: r.sort,
      },
    ]),
  );
}

/** GET /sms/gj/prices rows (entity fields of spec 02 §3 "International price") */
export function priceRows(prices: Iterable<IntlPrice>, search: string) {
  const q = search.trim().toLowerCase();
  const all = [...prices].filter(
    (p) =>
      !q ||
      p.nameZh.toLowerCase().includes(q) ||
      p.nameEn.toLowerCase().includes(q) ||
      p.iso.toLowerCase() === q ||
      p.dial === q.replace(/^\+|^00/, ''),
  );
  return all.map((p, i) => ({
    rownum: i + 1,
    intername: p.nameEn,
    areaname: p.nameZh,
    prefix: `+${p.dial}`,
    intercode: p.iso,
    fee: p.fee,
    countryCode: p.dial,
    countryName: p.nameZh,
  }));
}

/** domestic numbers listed in a check's answer (all of them are counted) */
const MAX_DOMESTIC_LISTED = 1000;

/** continuous work of a file check before it yields to the event loop, in ms */
const SLICE_MS = 10;

export interface IntlCheck {
  total: number;
  invalid: number;
  repeat: number;
  /** distinct valid numbers */
  distinct: number;
  /** distinct valid numbers as sent: '+' + E.164 digits (left empty when not kept) */
  unique: string[];
  /** ISO country of each entry of `unique` */
  countries: string[];
  /** the error numbers (other than the domestic ones) */
  invalidNumbers: string[];
  /** error numbers that are Chinese mainland mobiles written with 86 / 0086 (counted in `invalid` too): a domestic send's */
  domestic: number;
  /** those numbers as typed (the first 1,000) */
  domesticNumbers: string[];
  /** distinct numbers per ISO country */
  perCountry: Map<string, number>;
}

/** One token (digits) → its E.164 form and country, or null. */
export function intlNumberOf(token: string, prices: Map<string, IntlPrice>): { e164: string; iso: string } | null {
  let d = token;
  if (d.startsWith('00')) d = d.slice(2);
  if (d.length < 6 || d.length > 15) return null;
  const n = intlNumber(d);
  if (!n || n.country === 'CN' || !prices.has(n.country)) return null;
  return { e164: n.e164, iso: n.country };
}

/** Classifies and de-duplicates international numbers one token at a time. */
class IntlTally {
  readonly out: IntlCheck = {
    total: 0,
    invalid: 0,
    repeat: 0,
    distinct: 0,
    unique: [],
    countries: [],
    invalidNumbers: [],
    domestic: 0,
    domesticNumbers: [],
    perCountry: new Map(),
  };
  /** the distinct E.164 numbers, as (leading digits, last 8 digits): a Set of a million strings costs seconds */
  private readonly seen = new NumberSet(1 << 16);
  /** E.164 numbers of more than 15 digits (none: the input has at most 15) */
  private readonly seenLong = new Set<string>();
  constructor(
    private readonly prices: Map<string, IntlPrice>,
    /** keep the distinct numbers and their countries (a send), else only count */
    private readonly keep = true,
  ) {}

  add(t: string) {
    const out = this.out;
    out.total++;
    const n = intlNumberOf(t, this.prices);
    if (!n) {
      out.invalid++;
      if (domesticMobileOf(t) !== null) {
        // +86: not an international destination; the console points it to the domestic send
        out.domestic++;
        if (out.domesticNumbers.length < MAX_DOMESTIC_LISTED) out.domesticNumbers.push(t);
      } else if (out.invalidNumbers.length < 100_000) out.invalidNumbers.push(t);
      return;
    }
    if (!this.firstTime(n.e164)) {
      out.repeat++;
      return;
    }
    out.distinct++;
    if (this.keep) {
      out.unique.push(n.e164);
      out.countries.push(n.iso);
    }
    out.perCountry.set(n.iso, (out.perCountry.get(n.iso) ?? 0) + 1);
  }

  /** true the first time `e164` ('+' and up to 15 digits, the first not 0) is seen */
  private firstTime(e164: string): boolean {
    const len = e164.length - 1;
    if (len > 15) {
      if (this.seenLong.has(e164)) return false;
      this.seenLong.add(e164);
      return true;
    }
    let hi = 0;
    let lo = 0;
    for (let i = 1; i <= len; i++) {
      const d = e164.charCodeAt(i) - 48;
      if (i <= len - 8) hi = hi * 10 + d;
      else lo = lo * 10 + d;
    }
    // without leading zeros, the digits and their count follow from (hi, lo) and len: len in hi's place
    return this.seen.add(hi * 16 + Math.max(0, len - 8), lo);
  }
}

/** Splits (every non-digit separates), classifies and de-duplicates international numbers. */
export function checkInternational(input: string | readonly string[], prices: Map<string, IntlPrice>): IntlCheck {
  const tokens = typeof input === 'string' ? input.split(/[^0-9]+/) : input;
  const tally = new IntlTally(prices, true);
  for (const t of tokens) if (t) tally.add(t);
  return tally.out;
}

/** The per-country summary of a check (counts, price per piece). */
export function countrySummary(c: IntlCheck, prices: Map<string, IntlPrice>) {
  return [...c.perCountry]
    .map(([iso, num]) => {
      const p = prices.get(iso)!;
      return { intercode: iso, countryCode: p.dial, countryName: p.nameZh, num, fee: p.fee };
    })
    .sort((a, b) => b.num - a.num || a.intercode.localeCompare(b.intercode));
}

/**
 * The check of an international number file (POST /send/parsefileInternational, a send with
 * fileType 1): txt / csv: every non-digit separates; xlsx: every cell of the first sheet, read as a
 * bounded stream a batch of rows at a time. More than `max` numbers: `tooMany`. `keep`: the
 * distinct numbers and their countries are listed (a send), else only counted. A number's check
 * costs about half a microsecond, a million of them still half a second, so the check yields to
 * the event loop every few milliseconds: a million-number file must not stop the server answering
 * others.
 */
export async function intlFileCheck(
  abs: string,
  ext: string,
  prices: Map<string, IntlPrice>,
  o: { max: number; tooMany: string; keep: boolean },
): Promise<IntlCheck> {
  const tally = new IntlTally(prices, o.keep);
  let since = performance.now();
  const check = async (tokens: readonly string[]) => {
    for (let i = 0; i < tokens.length; i++) {
      tally.add(tokens[i]);
      if ((i & 255) === 255 && performance.now() - since > SLICE_MS) {
        await yieldToLoop();
        since = performance.now();
      }
    }
  };
  if (ext === 'xlsx') {
    let count = 0;
    try {
      for await (const rows of readSheetBatches(
        { path: abs },
        { maxRows: o.max + 10, maxColumns: 64, maxCellsPerRow: 64 },
      )) {
        const tokens: string[] = [];
        for (const row of rows)
          for (const cell of row.cells) for (const p of cell.split(/[^0-9]+/)) if (p) tokens.push(p.slice(0, 20));
        count += tokens.length;
        if (count > o.max) throw new ApiError(400, o.tooMany);
        await check(tokens);
      }
    } catch (e) {
      if (e instanceof SpreadsheetError)
        throw new ApiError(400, e.reason === 'tooManyRows' ? o.tooMany : '文件解析失败');
      throw e;
    }
  } else {
    const tokens = await textTokens(fs.createReadStream(abs), o.max);
    if (tokens.length > o.max) throw new ApiError(400, o.tooMany);
    await check(tokens);
  }
  return tally.out;
}
