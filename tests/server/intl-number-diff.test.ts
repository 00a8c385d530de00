/**
 * The international number check (`intlNumberOf`, /send/parsefileInternational and the send with
 * fileType 1) reads a number's country and validity from patterns of libphonenumber-js's metadata
 * compiled once (server/modules/variable-international/phone-plans.ts). This compares it, number by number, with
 * what it replaced — `parsePhoneNumberFromString('+' + digits)` and `isValid()` — on a few hundred
 * thousand generated numbers (seeded; INTL_DIFF_N scales them): every calling code, the examples of
 * every region with their last digits varied, shared calling codes (+1, +7, +39, +44, +47, +61,
 * +212, +262, +290, +358, +590, +599), national prefixes after the calling code, +86, non-geographic
 * codes, a leading 00, too short and too long, and a few tokens that are not plain digits.
 */
import { describe, expect, it } from 'vitest';
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import examples from 'libphonenumber-js/mobile/examples';
import metadata from 'libphonenumber-js/min/metadata';
import { intlNumberOf, type IntlPrice } from '../../server/modules/variable-international/international';
import { intlNumber } from '../../server/modules/variable-international/phone-plans';
import { intlPriceSeed } from '../../server/modules/variable-international/prices-seed';
import { prng } from '../../server/lib/prng';

/** intlNumberOf as it was: libphonenumber-js per number */
function referenceIntlNumberOf(token: string, prices: Map<string, IntlPrice>): { e164: string; iso: string } | null {
  let d = token;
  if (d.startsWith('00')) d = d.slice(2);
  if (d.length < 6 || d.length > 15) return null;
  const p = parsePhoneNumberFromString(`+${d}`);
  if (!p || !p.country || p.country === ('CN' as CountryCode) || !p.isValid()) return null;
  if (!prices.has(p.country)) return null;
  return { e164: p.number, iso: p.country };
}

/** what libphonenumber-js says of '+' + digits, whatever the country (CN too) */
function referenceParse(digits: string): { e164: string; country: string } | null {
  const p = parsePhoneNumberFromString(`+${digits}`);
  return p && p.country && p.isValid() ? { e164: p.number, country: p.country } : null;
}

const N = Number(process.env.INTL_DIFF_N ?? 250_000);
const SHARED = ['1', '7', '39', '44', '47', '61', '212', '262', '290', '358', '590', '599'];
/** fixed-line ranges of the secondary regions of shared calling codes (their mobile examples parse as the main one) */
const SECONDARY = [
  '3906698',
  '441624',
  '4779',
  '6189162',
  '6189164',
  '2125288',
  '2125289',
  '59059027',
  '59059087',
  '35818',
  '3581',
  '2908',
  '5997',
  '76',
  '7840',
  '1268',
  '1876',
  '1787',
];
/** calling codes whose national prefix (for parsing) has capture groups or transform rules */
const PREFIXED = ['54', '52', '55', '57', '7', '1', '44', '61', '375', '380', '98', '20', '234'];

function generate(n: number): string[] {
  const rnd = prng(0x1c7e57);
  const int = (k: number) => Math.floor(rnd() * k);
  const digits = (len: number) => {
    let s = '';
    for (let i = 0; i < len; i++) s += String(int(10));
    return s;
  };
  const vary = (s: string, k: number) => s.slice(0, Math.max(0, s.length - k)) + digits(Math.min(k, s.length));
  const countries = getCountries();
  const codes = [
    ...new Set(countries.map((c) => getCountryCallingCode(c) as string)),
    ...Object.keys(metadata.nonGeographic ?? {}),
  ];
  const ex = countries
    .filter((c) => examples[c])
    .map((c) => ({ cc: getCountryCallingCode(c) as string, nn: examples[c] as string }));
  const out: string[] = [];
  const push = (t: string) => out.push(rnd() < 0.1 ? `00${t}` : t);
  // every example as it is, with 00, a digit short, a digit long, a national prefix digit in front
  for (const { cc, nn } of ex) {
    out.push(cc + nn, `00${cc}${nn}`, cc + nn.slice(0, -1), cc + nn + digits(1), cc + nn + digits(2));
    for (let p = 0; p < 10; p++) out.push(`${cc}${p}${nn}`);
  }
  while (out.length < n) {
    const r = rnd();
    if (r < 0.35) {
      // an example with its last 1–6 digits varied (mostly valid numbers of every region)
      const { cc, nn } = ex[int(ex.length)];
      push(cc + vary(nn, 1 + int(6)));
    } else if (r < 0.45) {
      // an example one or two digits short or long, or its first national digits varied
      const { cc, nn } = ex[int(ex.length)];
      const k = int(4);
      push(
        k === 0
          ? cc + nn.slice(0, -1 - int(2))
          : k === 1
            ? cc + nn + digits(1 + int(2))
            : cc + digits(1 + int(2)) + nn.slice(1 + int(2)),
      );
    } else if (r < 0.5) {
      // the ranges of secondary regions of shared calling codes, 0–3 digits short or long
      const p = SECONDARY[int(SECONDARY.length)];
      push(p + digits(Math.max(0, 10 - p.length + int(7))));
    } else if (r < 0.65) {
      // a shared calling code, national numbers of 6–12 digits, any leading digits
      push(SHARED[int(SHARED.length)] + digits(6 + int(7)));
    } else if (r < 0.72) {
      // a national prefix (or what a country's prefix-for-parsing takes) after the calling code
      const cc = PREFIXED[int(PREFIXED.length)];
      push(cc + ['0', '1', '8', '9', '15', '01115', '90', '0221'][int(8)] + digits(6 + int(6)));
    } else if (r < 0.76) {
      // China (domestic: never an international number)
      push(`86${['13', '15', '18', '10', '21', '755'][int(6)]}${digits(6 + int(4))}`);
    } else if (r < 0.92) {
      // any calling code (non-geographic ones too), 1–14 national digits
      push(codes[int(codes.length)] + digits(1 + int(14)));
    } else {
      // any digits: leading zeros, 00, every length from 1 to 18
      out.push(digits(1 + int(18)));
    }
  }
  out.push(
    '',
    '0',
    '00',
    '000000',
    '0012025550123',
    '12025550123',
    '+12025550123',
    '1 202 555 0123',
    '１２０２５５５０１２３',
    '447400١٢٣٤٥٦',
    '12025550123#',
    '12025550123;ext=12',
    'tel:+12025550123',
    'abc12025550123',
  );
  return out;
}

describe('international number check: compiled metadata patterns vs libphonenumber-js', () => {
  const prices = new Map(
    intlPriceSeed().map((r) => [
      r.country_code,
      { iso: r.country_code, dial: r.dial_code, nameEn: r.name_en, nameZh: r.name_zh, fee: r.fee, sort: r.sort },
    ]),
  );

  it(`gives the same country, E.164 form and validity on ${N.toLocaleString('en')}+ numbers`, () => {
    const tokens = generate(N);
    expect(tokens.length).toBeGreaterThanOrEqual(N);
    const diffs: string[] = [];
    const countries = new Map<string, number>();
    let valid = 0;
    let parsed = 0;
    for (const t of tokens) {
      const want = referenceIntlNumberOf(t, prices);
      const got = intlNumberOf(t, prices);
      if (JSON.stringify(got) !== JSON.stringify(want) && diffs.length < 20)
        diffs.push(`${t}: ${JSON.stringify(got)} != ${JSON.stringify(want)}`);
      if (want) {
        valid++;
        countries.set(want.iso, (countries.get(want.iso) ?? 0) + 1);
      }
      // below intlNumberOf's price and +86 rules: the parse itself, on every token
      const d = t.startsWith('00') ? t.slice(2) : t;
      const a = referenceParse(d);
      const b = intlNumber(d);
      if (a) parsed++;
      if (JSON.stringify(a) !== JSON.stringify(b) && diffs.length < 20)
        diffs.push(`parse ${d}: ${JSON.stringify(b)} != ${JSON.stringify(a)}`);
    }
    expect(diffs).toEqual([]);
    // the numbers reach what they are meant to: valid and invalid ones, most regions, the
    // secondary countries of shared calling codes (not EH: MA's leading digits [5-8] come first
    // and take every number EH's pattern allows)
    expect(valid).toBeGreaterThan(tokens.length * 0.25);
    expect(tokens.length - valid).toBeGreaterThan(tokens.length * 0.25);
    expect(parsed).toBeGreaterThan(valid);
    expect(countries.size).toBeGreaterThan(200);
    const wanted = [
      'US',
      'CA',
      'JM',
      'PR',
      'RU',
      'KZ',
      'IT',
      'VA',
      'GB',
      'GG',
      'IM',
      'JE',
      'NO',
      'SJ',
      'AU',
      'CC',
      'CX',
      'MA',
      'RE',
      'YT',
      'SH',
      'TA',
      'FI',
      'AX',
      'GP',
      'BL',
      'MF',
      'CW',
      'BQ',
      'AR',
      'MX',
      'BR',
    ];
    expect(wanted.filter((iso) => !countries.get(iso))).toEqual([]);
  });
});
