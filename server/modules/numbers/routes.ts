/**
 * Numbers: the carrier check of the send page and the province / city lists, answered from the
 * segment table (common/sms/segments.ts, rules in docs/api-send.md "Number rules").
 */
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { api, arrayOf, okOf, request } from '../../http/contract';
import { ApiError } from '../../http/errors';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { checkNumbers, MAX_NUMBERS, NUMBER_MESSAGES, numberPoolError } from '../../../common/sms/numbers';
import { cities, findCity, findProvince, provinces } from '../../../common/sms/segments';
import sendForm from '../../../schemas/forms/send.json';

const TAG = '号码';

/** the longest `mobiles` text: the send form's own limit */
const MAX_MOBILES_CHARS = sendForm.properties.mobile.maxLength;

export interface OperatorCheck {
  mobileNum: number;
  unicomNum: number;
  telecomNum: number;
  internationalPhoneNum: number;
  mobileSet: string[];
  unicomSet: string[];
  telecomSet: string[];
  internationalSet: string[];
  phoneSet: string[];
  parseMobilesInfo: { submitTotal: number; errNum: number; repeatNum: number };
}

/**
 * POST /send/checkMobileOperater: the distinct valid numbers by carrier (1 移动, 2 联通, 3 电信);
 * invalid numbers are counted in errNum and belong to no set (international numbers have their
 * own check on the international page, so internationalPhoneNum is 0 here).
 */
export function checkOperators(mobiles: unknown): OperatorCheck {
  if (typeof mobiles !== 'string' && typeof mobiles !== 'number') throw new ApiError(400, NUMBER_MESSAGES.empty);
  const text = String(mobiles);
  if (text.length > MAX_MOBILES_CHARS) throw new ApiError(400, NUMBER_MESSAGES.tooMany);
  const c = checkNumbers(text);
  const problem = numberPoolError(c);
  if (problem) throw new ApiError(400, problem);
  const sets: Record<1 | 2 | 3, string[]> = { 1: [], 2: [], 3: [] };
  c.unique.forEach((n, i) => sets[c.uniqueCarriers[i] as 1 | 2 | 3].push(n));
  return {
    mobileNum: c.carriers[1],
    unicomNum: c.carriers[2],
    telecomNum: c.carriers[3],
    internationalPhoneNum: 0,
    mobileSet: sets[1],
    unicomSet: sets[2],
    telecomSet: sets[3],
    internationalSet: [],
    phoneSet: c.unique,
    parseMobilesInfo: { submitTotal: c.total, errNum: c.invalid, repeatNum: c.repeat },
  };
}

export function numbersRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (plugin) => {
    const app = api(plugin);
    app.post(
      '/send/checkMobileOperater',
      route({
        tag: TAG,
        summary: `号码运营商检测（最多 ${MAX_NUMBERS} 个号码）`,
        access: 'session',
        body: request(ctx, 'params/numbers-check'),
        response: okOf(ctx, 'responses/operator-check'),
      }),
      async (req) => ok(checkOperators(req.body.mobiles)),
    );

    app.post(
      '/send/provinceList',
      route({ tag: TAG, summary: '省份列表', access: 'session', response: arrayOf(ctx, 'responses/province-option') }),
      async () => ok(provinces().map((p) => ({ provinceId: p.provinceId, provinceName: p.provinceName }))),
    );

    app.post(
      '/send/cityList',
      route({
        tag: TAG,
        summary: '某省的城市列表',
        access: 'session',
        body: request(ctx, 'params/numbers-city-list'),
        response: arrayOf(ctx, 'responses/city-option'),
      }),
      async (req) => {
        const id = req.body.provinceId;
        if (!findProvince(id)) throw new ApiError(404, '省份不存在');
        return ok(cities(id).map((c) => ({ cityId: c.cityId, cityName: c.cityName, label: c.cityName })));
      },
    );

    app.get(
      '/send/getProvinceInfo',
      route({
        tag: TAG,
        summary: '省份（areaId、areaName、全称）',
        access: 'session',
        response: arrayOf(ctx, 'responses/area-option'),
      }),
      async () =>
        ok(provinces().map((p) => ({ areaId: p.provinceId, areaName: p.provinceName, fullName: p.fullName }))),
    );

    app.get(
      '/send/getCityInfo',
      route({
        tag: TAG,
        summary: '某省的城市（areaId 为省份编号）；或一个城市（areaId 为城市编号）',
        access: 'session',
        querystring: request(ctx, 'params/numbers-city-info'),
        response: arrayOf(ctx, 'responses/area-option'),
      }),
      async (req) => {
        const id = req.query.areaId;
        if (findProvince(id))
          return ok(cities(id).map((c) => ({ areaId: c.cityId, areaName: c.cityName, parentId: c.provinceId })));
        const city = findCity(id);
        if (!city) throw new ApiError(404, '地区不存在');
        return ok([{ areaId: city.cityId, areaName: city.cityName, parentId: city.provinceId }]);
      },
    );
  };
}
