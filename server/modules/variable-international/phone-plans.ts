/**
 * What libphonenumber-js makes of an international number written as '+' and digits: its E.164
 * form and country when it has one and is valid there, exactly as
 *
 *   const p = parsePhoneNumberFromString(`+${digits}`);
 *   p && p.country && p.isValid() ? { e164: p.number, country: p.country } : null
 *
 * answers, at a fraction of the cost. That call spends ~10–20 µs a number, most of it building
 * objects and `new RegExp()`s of the metadata's patterns (libphonenumber compiles each pattern
 * anew at every test) and copying options; here the same patterns of the same metadata (the "min"
 * set, which the default entry point uses), read through libphonenumber's own `Metadata`
 * accessors, are compiled once, and the same steps run on them:
 *
 * 1. calling code: the first 1, 2 or 3 digits that are one (`Metadata.hasCallingCode`), the
 *    shortest first; none, or a leading 0: no number.
 * 2. national prefix: libphonenumber strips one (`national_prefix_for_parsing` of the calling
 *    code's main country) even after a calling code, and then checks that the rest still fits;
 *    whenever that pattern matches anything at the start of the national number, the number is
 *    left to libphonenumber itself (an empty match strips nothing, as there).
 * 3. country: the only one of the calling code, else the first of its countries (in metadata
 *    order) whose leading digits match at the start, or, for a country without leading digits,
 *    whose national number pattern and one of its type patterns (of a possible length) match
 *    (`getCountryByNationalNumber`, `getNumberType`).
 * 4. valid: the country's type patterns where it has them (`isValid` → `getNumberType`), else its
 *    national number pattern.
 *
 * Anything outside what this reproduces — a token that is not 6–15 ASCII digits, a non-geographic
 * calling code (+800, +882, …), a national prefix — goes to libphonenumber-js unchanged.
 * tests/server/intl-number-diff.test.ts compares both on a few hundred thousand numbers of every
 * calling code.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { Metadata } from 'libphonenumber-js/core';
import metadataJson from 'libphonenumber-js/min/metadata';

export interface IntlNumber {
  /** '+' and the digits */
  e164: string;
  /** ISO 3166 alpha-2 */
  country: string;
}

/** libphonenumber-js itself (the reference; the cases the compiled plans leave to it) */
export function libphonenumberOf(digits: string): IntlNumber | null {
  const p = parsePhoneNumberFromString(`+${digits}`);
  return p && p.country && p.isValid() ? { e164: p.number, country: p.country } : null;
}

/** the parts of libphonenumber-js's Metadata / NumberingPlan / Type used (not in its typings) */
interface LibType {
  pattern(): string;
  possibleLengths(): number[] | undefined;
}
interface LibPlan {
  nationalNumberPattern(): string;
  nationalPrefixForParsing(): string | undefined;
  leadingDigits(): string | undefined;
  hasTypes(): boolean;
  type(name: string): LibType | undefined;
}
interface LibMetadata {
  hasCallingCode(code: string): boolean | undefined;
  getCountryCodesForCallingCode(code: string): string[] | undefined;
  selectNumberingPlan(codeOrCountry: string): unknown;
  numberingPlan: LibPlan;
}

/** every type `getNumberType` tries (FIXED_LINE, then the others): a number is of a type if one matches */
const TYPES = [
  'FIXED_LINE',
  'MOBILE',
  'PREMIUM_RATE',
  'TOLL_FREE',
  'SHARED_COST',
  'VOIP',
  'PERSONAL_NUMBER',
  'PAGER',
  'UAN',
  'VOICEMAIL',
];

interface CountryPlan {
  iso: string;
  /** `leading_digits`, as `String.prototype.search` compiles it */
  leading: RegExp | undefined;
  /** national number pattern, as `matchesEntirely` compiles it */
  national: RegExp;
  hasTypes: boolean;
  /** the types with a pattern: pattern as `matchesEntirely` compiles it, possible lengths */
  types: { re: RegExp; lengths: number[] | undefined }[];
}

interface CallingPlan {
  code: string;
  /** `national_prefix_for_parsing` of the main country, as libphonenumber compiles it */
  prefix: RegExp | undefined;
  /** null: a non-geographic calling code (left to libphonenumber) */
  countries: CountryPlan[] | null;
}

// metadata patterns, only ever run on 6–15 digits (DIGITS below): their time is bounded whatever they are
const entirely = (pattern: string) => new RegExp('^(?:' + pattern + ')$');

let plans: Map<string, CallingPlan> | undefined;

function compilePlans(): Map<string, CallingPlan> {
  const m = new Metadata(metadataJson) as unknown as LibMetadata;
  const country = (iso: string): CountryPlan => {
    m.selectNumberingPlan(iso);
    const p = m.numberingPlan;
    const leading = p.leadingDigits();
    const types: CountryPlan['types'] = [];
    for (const name of TYPES) {
      const t = p.type(name);
      if (t && t.pattern()) types.push({ re: entirely(t.pattern()), lengths: t.possibleLengths() });
    }
    return {
      iso,
      leading: leading ? new RegExp(leading) : undefined,
      national: entirely(p.nationalNumberPattern()),
      hasTypes: p.hasTypes(),
      types,
    };
  };
  const out = new Map<string, CallingPlan>();
  // calling codes have 1–3 digits, none starts with 0
  for (let n = 1; n <= 999; n++) {
    const code = String(n);
    if (!m.hasCallingCode(code)) continue;
    const isos = m.getCountryCodesForCallingCode(code);
    m.selectNumberingPlan(code);
    const prefix = m.numberingPlan.nationalPrefixForParsing();
    out.set(code, {
      code,
      prefix: prefix ? new RegExp('^(?:' + prefix + ')') : undefined,
      countries: isos ? isos.map(country) : null,
    });
  }
  return out;
}

/** `getNumberType(nationalNumber, country) !== undefined` */
function hasType(nn: string, c: CountryPlan): boolean {
  if (!c.national.test(nn)) return false;
  for (const t of c.types) {
    if (t.lengths && t.lengths.indexOf(nn.length) < 0) continue;
    if (t.re.test(nn)) return true;
  }
  return false;
}

const DIGITS = /^[0-9]{6,15}$/;

/** `libphonenumberOf(digits)`, from the compiled plans where they reproduce it */
export function intlNumber(digits: string): IntlNumber | null {
  if (!DIGITS.test(digits)) return libphonenumberOf(digits);
  // '+0…': no calling code starts with 0
  if (digits.charCodeAt(0) === 48) return null;
  plans ??= compilePlans();
  const plan = plans.get(digits.slice(0, 1)) ?? plans.get(digits.slice(0, 2)) ?? plans.get(digits.slice(0, 3));
  if (!plan) return null;
  if (!plan.countries) return libphonenumberOf(digits);
  const nn = digits.slice(plan.code.length);
  if (plan.prefix) {
    const m = plan.prefix.exec(nn);
    if (m && m[0] !== '') return libphonenumberOf(digits);
  }
  const cs = plan.countries;
  let c: CountryPlan | undefined;
  let valid = false;
  if (cs.length === 1) c = cs[0];
  else {
    for (const k of cs) {
      if (k.leading) {
        if (nn.search(k.leading) === 0) {
          c = k;
          break;
        }
      } else if (hasType(nn, k)) {
        // it has types (else none matches), and a type matched: valid
        c = k;
        valid = true;
        break;
      }
    }
    if (!c) return null;
  }
  if (!valid) valid = c.hasTypes ? hasType(nn, c) : c.national.test(nn);
  return valid ? { e164: `+${digits}`, country: c.iso } : null;
}
