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
import { sendFileRows } from './variable';

export interface ScreenRule {
  operators: Set<number> | null;
  provinces: Set<number> | null;
  removeCities: Set<number>;
}

/** a comma list of small integers ('' / missing: none); anything else is ignored */
function idList(v: unknown): number[] {
  const s = Array.isArray(v) ? v.join(',') : typeof v === 'number' ? String(v) : typeof v === 'string' ? v : '';
  return s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => /^\d{1,7}$/.test(x))
    .map(Number);
}

export function screenRule(b: { operators?: unknown; provinces?: unknown; removeCitys?: unknown }): ScreenRule {
  const ops = idList(b.operators).filter((c) => c >= 1 && c <= 3);
  const prov = idList(b.provinces);
  return { operators: ops.length ? new Set(ops) : null, provinces: prov.length ? new Set(prov) : null, removeCities: new Set(idList(b.removeCitys)) };
}

/** A screening function with a per-block cache of regions (numbers of one 7-digit block share them). */
export function screener(rule: ScreenRule): (phone: string) => boolean {
  const needRegion = rule.provinces !== null || rule.removeCities.size > 0;
  const cache = new Map<string, number>();
  return (phone) => {
    if (rule.operators && !rule.operators.has(carrierOf(phone))) return false;
    if (!needRegion) return true;
    const block = phone.slice(0, 7);
    let packed = cache.get(block);
    if (packed === undefined) {
      const r = regionOf(phone);
      // province id (≤ 99) and city id packed in one number; 0 when unknown
      packed = r ? r.city.cityId * 100 + r.province.provinceId : 0;
      cache.set(block, packed);
    }
    const province = packed % 100;
    const city = Math.floor(packed / 100);
    if (rule.provinces && !rule.provinces.has(province)) return false;
    if (city && rule.removeCities.has(city)) return false;
    return true;
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

/** Screens a send file (tsv: mobile, variables) into a new one. */
export async function screenFile(src: string, dest: string, rule: ScreenRule): Promise<ScreenCounts> {
  const keep = screener(rule);
  const out = fs.createWriteStream(dest);
  const counts: ScreenCounts = { submitTotal: 0, mobileNum: 0, unicomNum: 0, telecomNum: 0 };
  let buf = '';
  try {
    for await (const r of sendFileRows(src)) {
      if (!keep(r.phone)) continue;
      counts.submitTotal++;
      const c = carrierOf(r.phone);
      if (c === 1) counts.mobileNum++;
      else if (c === 2) counts.unicomNum++;
      else if (c === 3) counts.telecomNum++;
      buf += r.vars.length ? `${r.phone}\t${r.vars.join('\t')}\n` : `${r.phone}\n`;
      if (buf.length > 1 << 16) {
        if (!out.write(buf)) await once(out, 'drain');
        buf = '';
      }
    }
  } catch (e) {
    out.destroy();
    throw e;
  }
  out.end(buf);
  await once(out, 'finish');
  return counts;
}
