/**
 * Number screening (POST /send/screenPhones; docs/api-variable-international.md "Screening"):
 * keeps the numbers whose carrier is one of `operators`, whose province is one of `provinces` and
 * whose city is not one of `removeCitys` (an empty list does not filter). Carrier, province and city
 * come from the number segment data (common/sms/segments); a number whose province the data does
 * not know is kept only when no province is chosen. Linear, one lookup per 7-digit block
 * (1,000,000 numbers: bench/screening.ts).
 */
import fs from 'node:fs';
import { once } from 'node:events';
import { carrierOf, regionOf } from '../../../common/sms/segments';
import type { ScreenPhonesParams } from '../../../common/generated/schemas';

export interface ScreenRule {
  operators: Set<number> | null;
  provinces: Set<number> | null;
  removeCities: Set<number>;
}

/** an id list of params/screen-phones.json (comma text, a number or an array; missing: none) as small integers; anything else is ignored */
type IdList = ScreenPhonesParams['operators'];
function idList(v: IdList): number[] {
  const s = Array.isArray(v) ? v.join(',') : v === undefined ? '' : String(v);
  return s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => /^\d{1,7}$/.test(x))
    .map(Number);
}

export function screenRule(b: Pick<ScreenPhonesParams, 'operators' | 'provinces' | 'removeCitys'>): ScreenRule {
  const ops = idList(b.operators).filter((c) => c >= 1 && c <= 3);
  const prov = idList(b.provinces);
  return {
    operators: ops.length ? new Set(ops) : null,
    provinces: prov.length ? new Set(prov) : null,
    removeCities: new Set(idList(b.removeCitys)),
  };
}

/** the 7-digit block of a mobile number as an integer 0..8,999,999 (prefix − 1,000,000), or -1 */
function blockOf(phone: string): number {
  if (phone.length < 7) return -1;
  let p = 0;
  for (let i = 0; i < 7; i++) {
    const d = phone.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    p = p * 10 + d;
  }
  p -= 1_000_000;
  return p >= 0 && p < 9_000_000 ? p : -1;
}

/**
 * A screening function with a per-block cache of the verdict (numbers of one 7-digit block share
 * carrier and region): one typed-array slot per block, so a million numbers cost a million array
 * reads and one region lookup per distinct block.
 */
export function screener(rule: ScreenRule): (phone: string) => boolean {
  const needRegion = rule.provinces !== null || rule.removeCities.size > 0;
  // 0 not yet judged, 1 kept, 2 dropped
  const verdict = new Uint8Array(9_000_000);
  const judge = (phone: string): boolean => {
    if (rule.operators && !rule.operators.has(carrierOf(phone))) return false;
    if (!needRegion) return true;
    const r = regionOf(phone);
    if (rule.provinces && !(r && rule.provinces.has(r.province.provinceId))) return false;
    if (r && rule.removeCities.has(r.city.cityId)) return false;
    return true;
  };
  return (phone) => {
    const b = blockOf(phone);
    if (b < 0) return judge(phone);
    let v = verdict[b];
    if (v === 0) verdict[b] = v = judge(phone) ? 1 : 2;
    return v === 1;
  };
}

export interface ScreenCounts {
  submitTotal: number;
  mobileNum: number;
  unicomNum: number;
  telecomNum: number;
}

export function screenList(phones: readonly string[], rule: ScreenRule): { phones: string[] } & ScreenCounts {
  const keep = screener(rule);
  const out: string[] = [];
  const n = { 1: 0, 2: 0, 3: 0 } as Record<number, number>;
  for (const p of phones) {
    if (!keep(p)) continue;
    out.push(p);
    n[carrierOf(p)] = (n[carrierOf(p)] ?? 0) + 1;
  }
  return { phones: out, submitTotal: out.length, mobileNum: n[1], unicomNum: n[2], telecomNum: n[3] };
}

/** Screens a send file (tsv: mobile, variables) into a new one, a chunk of lines at a time. */
export async function screenFile(src: string, dest: string, rule: ScreenRule): Promise<ScreenCounts> {
  const keep = screener(rule);
  const out = fs.createWriteStream(dest);
  const counts: ScreenCounts = { submitTotal: 0, mobileNum: 0, unicomNum: 0, telecomNum: 0 };
  let carry = '';
  const take = (lines: string[]): string => {
    let buf = '';
    for (const l of lines) {
      if (!l) continue;
      const tab = l.indexOf('\t');
      const phone = tab < 0 ? l : l.slice(0, tab);
      if (!keep(phone)) continue;
      counts.submitTotal++;
      const c = carrierOf(phone);
      if (c === 1) counts.mobileNum++;
      else if (c === 2) counts.unicomNum++;
      else if (c === 3) counts.telecomNum++;
      buf += `${l}\n`;
    }
    return buf;
  };
  try {
    for await (const chunk of fs.createReadStream(src, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
      const lines = (carry + chunk).split('\n');
      carry = lines.pop() ?? '';
      const buf = take(lines);
      if (buf && !out.write(buf)) await once(out, 'drain');
    }
  } catch (e) {
    out.destroy();
    throw e;
  }
  out.end(take([carry]));
  await once(out, 'finish');
  return counts;
}
