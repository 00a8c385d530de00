/**
 * The seed of the international price table: every region libphonenumber-js has metadata for
 * (China excepted), its dial code (`getCountryCallingCode`), English and Chinese names
 * (i18n-iso-countries), and a fee per piece in yuan. Fees follow the wholesale price level of
 * each destination (a carrier's published rates, rounded): named countries have their own figure,
 * every other one the level of its dial-code world zone.
 */
import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';
import { getCountries, getCountryCallingCode } from 'libphonenumber-js';

const require = createRequire(import.meta.url);
countries.registerLocale(require('i18n-iso-countries/langs/zh.json'));
countries.registerLocale(require('i18n-iso-countries/langs/en.json'));

/** yuan per piece, by ISO 3166 alpha-2 */
const FEES: Record<string, string> = {
  US: '0.0600',
  CA: '0.0600',
  GB: '0.3000',
  DE: '0.6500',
  FR: '0.5800',
  IT: '0.5500',
  ES: '0.5200',
  NL: '0.6200',
  RU: '0.5500',
  JP: '0.5000',
  KR: '0.2500',
  HK: '0.3500',
  MO: '0.3000',
  TW: '0.3600',
  SG: '0.2800',
  MY: '0.2500',
  TH: '0.1800',
  VN: '0.4500',
  PH: '0.1500',
  ID: '0.3200',
  IN: '0.1200',
  PK: '0.3800',
  BD: '0.3500',
  AE: '0.2600',
  SA: '0.3000',
  TR: '0.1600',
  EG: '0.5600',
  NG: '0.3000',
  ZA: '0.1800',
  KE: '0.2200',
  BR: '0.1500',
  MX: '0.2500',
  AR: '0.4000',
  CL: '0.3200',
  CO: '0.0800',
  PE: '0.3000',
  AU: '0.3500',
  NZ: '0.6000',
  KZ: '0.6500',
  UA: '0.4500',
  IL: '0.2200',
  IR: '0.4500',
  MM: '0.6000',
  KH: '0.4000',
  LA: '0.4200',
  MN: '0.3800',
  NP: '0.3600',
  LK: '0.3800',
};

/** by the first digit of the dial code (ITU world zones) */
const ZONE_FEES: Record<string, string> = {
  '1': '0.2000',
  '2': '0.4500',
  '3': '0.4500',
  '4': '0.4500',
  '5': '0.3000',
  '6': '0.3500',
  '7': '0.5500',
  '8': '0.3500',
  '9': '0.4000',
};

export interface IntlPriceSeedRow {
  country_code: string;
  dial_code: string;
  name_en: string;
  name_zh: string;
  fee: string;
  sort: number;
}

export function intlPriceSeed(): IntlPriceSeedRow[] {
  const rows = getCountries()
    .filter((iso) => iso !== 'CN')
    .map((iso) => {
      const dial = String(getCountryCallingCode(iso));
      return {
        country_code: iso,
        dial_code: dial,
        name_en: countries.getName(iso, 'en') ?? iso,
        name_zh: countries.getName(iso, 'zh') ?? iso,
        fee: FEES[iso] ?? ZONE_FEES[dial[0]] ?? '0.4000',
        sort: 0,
      };
    });
  rows.sort((a, b) => Number(a.dial_code) - Number(b.dial_code) || a.country_code.localeCompare(b.country_code));
  rows.forEach((r, i) => (r.sort = i + 1));
  return rows;
}
