/**
 * Carrier, province and city of a Chinese mobile number, from the prefix table that
 * scripts/gen-number-segments.ts compiles out of libphonenumber's +86 carrier and geocoding data
 * (common/generated/number-segments.ts). Runs in the browser and in the server: no node: imports.
 *
 * - Carrier (schemas/enums/carrier.json): 1 移动, 2 联通, 3 电信, 0 when the segment is unknown.
 *   Decided on the first 4 digits. Virtual operator segments (170, 171, 162, 165, 167) count as
 *   their host network, 192 (中国广电) counts as 移动 (its network is built and run with China
 *   Mobile, and SMS platforms route it through their 移动 channel); `operatorOf` keeps the real
 *   operator name and the virtual flag for display.
 * - Region: decided on the first 7 digits; null where the data names no region (it has none yet
 *   for 166, 17[1-5], 19x ...). Province ids are GB/T 2260 codes (44 广东), city ids
 *   province id × 10000 + a hash of the city name (see the script); both stable across updates.
 */
import { CARRIERS, CITIES, PROVINCES, RUNS, RUN_BASE, RUN_SPAN } from '../generated/number-segments';

export type Carrier = 0 | 1 | 2 | 3;
export const CARRIER_NAMES: Record<1 | 2 | 3, string> = { 1: '移动', 2: '联通', 3: '电信' };

export interface Province {
  provinceId: number;
  provinceName: string;
  /** as an address writes it: 广东省, 北京市, 内蒙古 */
  fullName: string;
}
export interface City {
  cityId: number;
  cityName: string;
  provinceId: number;
}
export interface Region {
  province: Province;
  city: City;
}

/** Carrier per code point of the table: '0' unknown, '1'-'3', 'A'-'C' virtual on 1-3, 'G' 广电. */
const CARRIER_OF_CHAR = new Int8Array(128);
CARRIER_OF_CHAR['1'.charCodeAt(0)] = 1;
CARRIER_OF_CHAR['2'.charCodeAt(0)] = 2;
CARRIER_OF_CHAR['3'.charCodeAt(0)] = 3;
CARRIER_OF_CHAR['A'.charCodeAt(0)] = 1;
CARRIER_OF_CHAR['B'.charCodeAt(0)] = 2;
CARRIER_OF_CHAR['C'.charCodeAt(0)] = 3;
CARRIER_OF_CHAR['G'.charCodeAt(0)] = 1;

/** carrier per 4-digit prefix 1000..1999 (index prefix - 1000) */
const CARRIER_TABLE = new Uint8Array(1000);
for (let i = 0; i < 1000; i++) CARRIER_TABLE[i] = CARRIER_OF_CHAR[CARRIERS.charCodeAt(i)];

/**
 * Carrier of the number's segment, from its first 4 digits (not checking the rest): callers that
 * need a valid number check it with isChineseMobile (common/sms/numbers.ts).
 */
export function carrierOf(phone: string): Carrier {
  if (phone.length < 4 || phone.charCodeAt(0) !== 49 /* '1' */) return 0;
  const d1 = phone.charCodeAt(1) - 48;
  const d2 = phone.charCodeAt(2) - 48;
  const d3 = phone.charCodeAt(3) - 48;
  if (d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9 || d3 < 0 || d3 > 9) return 0;
  return CARRIER_TABLE[d1 * 100 + d2 * 10 + d3] as Carrier;
}

/** The carrier table itself, for loops that inline the lookup (index = 4-digit prefix - 1000). */
export function carrierTable(): Uint8Array {
  return CARRIER_TABLE;
}

/** The operator behind the segment: 中国移动 / 中国联通 / 中国电信 / 中国广电, and whether it is a virtual one. */
export function operatorOf(phone: string): { carrier: Carrier; name: string; virtual: boolean } | null {
  const carrier = carrierOf(phone);
  if (!carrier) return null;
  const c = CARRIERS[Number(phone.slice(0, 4)) - 1000];
  if (c === 'G') return { carrier, name: '中国广电', virtual: false };
  return { carrier, name: `中国${CARRIER_NAMES[carrier]}`, virtual: c >= 'A' && c <= 'C' };
}

// ---- regions (decoded on first use) ----

let provinceList: Province[] | undefined;
let cityList: City[] | undefined;
let provinceById: Map<number, Province>;
let cityById: Map<number, City>;
let runStarts: Int32Array;
let runCity: Int32Array; // index into cityList, -1 none

function decode() {
  if (cityList) return;
  provinceList = PROVINCES.map(([id, name, full]) => ({ provinceId: id, provinceName: name, fullName: full }));
  cityList = CITIES.map(([id, pi, name]) => ({ cityId: id, cityName: name, provinceId: PROVINCES[pi][0] }));
  provinceById = new Map(provinceList.map((p) => [p.provinceId, p]));
  cityById = new Map(cityList.map((c) => [c.cityId, c]));
  // first city index of each province (cities are grouped by province, ranked within it)
  const firstCity = new Int32Array(PROVINCES.length).fill(-1);
  CITIES.forEach(([, pi], i) => {
    if (firstCity[pi] < 0) firstCity[pi] = i;
  });

  const bin = atob(RUNS);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const starts: number[] = [];
  const cities: number[] = [];
  let pos = 0;
  const varint = () => {
    let v = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[pos++];
      v |= (b & 0x7f) << shift;
      if (b < 0x80) return v;
      shift += 7;
    }
  };
  let province = 0;
  let at = 0;
  while (pos < bytes.length) {
    const h = bytes[pos++];
    let len = h >> 4;
    const code = h & 15;
    if (len === 0) len = varint();
    let city: number;
    if (code === 15) city = -1;
    else if (code === 14) {
      province = varint();
      city = firstCity[province] + varint();
    } else city = firstCity[province] + (code === 13 ? varint() : code);
    starts.push(at);
    cities.push(city);
    at += len;
  }
  if (at !== RUN_SPAN) throw new Error(`number segments: the region table covers ${at} prefixes, not ${RUN_SPAN}`);
  runStarts = Int32Array.from(starts);
  runCity = Int32Array.from(cities);
}

/** Province and city of a mobile number (first 7 digits), or null when the data names none. */
export function regionOf(phone: string): Region | null {
  if (phone.length < 7) return null;
  let p = 0;
  for (let i = 0; i < 7; i++) {
    const d = phone.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return null;
    p = p * 10 + d;
  }
  p -= RUN_BASE;
  if (p < 0 || p >= RUN_SPAN) return null;
  decode();
  let lo = 0;
  let hi = runStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (runStarts[mid] <= p) lo = mid;
    else hi = mid - 1;
  }
  const ci = runCity[lo];
  if (ci < 0) return null;
  const city = cityList![ci];
  return { province: provinceById.get(city.provinceId)!, city };
}

/** Every province the data knows, ordered by id. */
export function provinces(): readonly Province[] {
  decode();
  return provinceList!;
}

/** The cities of a province (by id or short name), in Chinese (pinyin) order; [] for an unknown province. */
export function cities(province: number | string): readonly City[] {
  decode();
  const p =
    typeof province === 'number' ? provinceById.get(province) : provinceList!.find((x) => x.provinceName === province);
  if (!p) return [];
  return cityList!
    .filter((c) => c.provinceId === p.provinceId)
    .sort((a, b) => a.cityName.localeCompare(b.cityName, 'zh-Hans-CN'));
}

export function findProvince(id: number): Province | undefined {
  decode();
  return provinceById.get(id);
}

export function findCity(id: number): City | undefined {
  decode();
  return cityById.get(id);
}
