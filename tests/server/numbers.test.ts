/**
 * Numbers (docs/api-records.md "Numbers"): the carrier check and the province / city lists,
 * answered from the segment table (common/sms/segments.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { cities, provinces } from '../../common/sms/segments';
import { backends, useServer, type Client } from './harness';

describe.each(backends)('numbers (%s)', (backend) => {
  const t = useServer(backend);
  let client1: Client;
  let agent1: Client;

  beforeAll(async () => {
    client1 = await t.server.client().init();
    expect((await client1.login('client1')).body.code).toBe(0);
    agent1 = await t.server.client().init();
    expect((await agent1.login('agent1')).body.code).toBe(0);
  });

  describe('POST /send/checkMobileOperater', () => {
    it('counts and sets the distinct valid numbers per carrier; invalid and repeated ones are counted', async () => {
      const r = await client1.post('/api/send/checkMobileOperater', {
        mobiles: '13800138000,18612345678，18912345678 13800138000\n12345,19212345678;13312345678',
      });
      expect(r.body.code).toBe(0);
      expect(r.body.data).toEqual({
        mobileNum: 2,
        unicomNum: 1,
        telecomNum: 2,
        internationalPhoneNum: 0,
        mobileSet: ['13800138000', '19212345678'],
        unicomSet: ['18612345678'],
        telecomSet: ['18912345678', '13312345678'],
        internationalSet: [],
        phoneSet: ['13800138000', '18612345678', '18912345678', '19212345678', '13312345678'],
        parseMobilesInfo: { submitTotal: 7, errNum: 1, repeatNum: 1 },
      });
      expect(
        (await agent1.post('/api/send/checkMobileOperater', { mobiles: '13800138000' }, { json: true })).body.data
          .mobileNum,
      ).toBe(1);
    });

    it('号码池不能为空 without a valid number; 号码不能大于60000个 above 60000', async () => {
      expect((await client1.post('/api/send/checkMobileOperater', { mobiles: '' })).body).toMatchObject({
        code: 400,
        msg: '号码池不能为空',
      });
      expect((await client1.post('/api/send/checkMobileOperater', {})).body).toMatchObject({
        code: 400,
        msg: '号码池不能为空',
      });
      expect((await client1.post('/api/send/checkMobileOperater', { mobiles: '123,abc' })).body).toMatchObject({
        code: 400,
        msg: '号码池不能为空',
      });
      const many = Array.from({ length: 60001 }, (_, i) => `138${String(i).padStart(8, '0')}`).join(',');
      expect((await client1.post('/api/send/checkMobileOperater', { mobiles: many })).body).toMatchObject({
        code: 400,
        msg: '号码不能大于60000个',
      });
      const max = Array.from({ length: 60000 }, (_, i) => `138${String(i).padStart(8, '0')}`).join(',');
      expect((await client1.post('/api/send/checkMobileOperater', { mobiles: max })).body.data.mobileNum).toBe(60000);
      expect(
        (await client1.post('/api/send/checkMobileOperater', { mobiles: ['1', '2'] }, { json: true })).body.code,
      ).toBe(400);
    });
  });

  describe('provinces and cities', () => {
    it('POST /send/provinceList and GET /send/getProvinceInfo list every province of the table', async () => {
      const r = await client1.post('/api/send/provinceList', {});
      expect(r.body.data).toHaveLength(provinces().length);
      expect(r.body.data).toContainEqual({ provinceId: 44, provinceName: '广东' });
      const info = await client1.get('/api/send/getProvinceInfo');
      expect(info.body.data).toContainEqual({ areaId: 11, areaName: '北京', fullName: '北京市' });
    });

    it('POST /send/cityList {provinceId} and GET /send/getCityInfo {areaId}', async () => {
      const r = await client1.post('/api/send/cityList', { provinceId: 44 });
      expect(r.body.data).toHaveLength(cities(44).length);
      expect(r.body.data).toContainEqual({ cityId: 443750, cityName: '广州市', label: '广州市' });
      expect(
        (await client1.post('/api/send/cityList', { provinceId: '32' })).body.data.map((c: any) => c.cityName),
      ).toContain('常州市');
      const byProvince = await client1.get('/api/send/getCityInfo?areaId=44');
      expect(byProvince.body.data).toContainEqual({ areaId: 443750, areaName: '广州市', parentId: 44 });
      expect((await client1.get('/api/send/getCityInfo?areaId=443750')).body.data).toEqual([
        { areaId: 443750, areaName: '广州市', parentId: 44 },
      ]);
    });

    it('refuses unknown and malformed ids', async () => {
      expect((await client1.post('/api/send/cityList', { provinceId: 98 })).body).toMatchObject({
        code: 404,
        msg: '省份不存在',
      });
      expect((await client1.post('/api/send/cityList', { provinceId: 'x' })).body).toMatchObject({
        code: 400,
        msg: '参数错误',
      });
      expect((await client1.post('/api/send/cityList', {})).body.code).toBe(400);
      expect((await client1.get('/api/send/getCityInfo?areaId=999999')).body).toMatchObject({
        code: 404,
        msg: '地区不存在',
      });
      expect((await client1.get('/api/send/getCityInfo?areaId=-1')).body.code).toBe(400);
      expect((await client1.get('/api/send/getCityInfo')).body.code).toBe(400);
    });

    it('every route asks for a session', async () => {
      const anon = await t.server.client().init();
      for (const url of ['/api/send/checkMobileOperater', '/api/send/provinceList', '/api/send/cityList'])
        expect((await anon.post(url, {})).body.code, url).toBe(401);
      for (const url of ['/api/send/getProvinceInfo', '/api/send/getCityInfo?areaId=44'])
        expect((await anon.get(url)).body.code, url).toBe(401);
    });
  });

  it('declares its parameters from schemas (params/numbers-*, in the OpenAPI document); answers are checked against the declared responses', async () => {
    const spec = (await agent1.get('/api/help/openapi.json')).body;
    const cityList = spec.paths['/api/send/cityList'].post;
    expect(
      cityList.requestBody.content['application/x-www-form-urlencoded'].schema.properties.provinceId,
    ).toMatchObject({ type: 'integer', maximum: 99 });
    expect(JSON.stringify(spec.paths['/api/send/getCityInfo'].get)).toContain('999999');
    expect((await client1.get('/api/send/getCityInfo?areaId=1000000')).body).toMatchObject({
      code: 400,
      msg: '参数错误',
    });
  });
});
