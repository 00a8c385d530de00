import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { schemas } from '@/schema';
import { searchFilters } from '@/components/SchemaTable/useSchemaList';
import { filterParamNames, schemaFilters } from '../../common/schema/filters';

/** a filter schema with one property of each kind schemaFilters handles */
const filter = {
  type: 'object',
  properties: {
    day: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    name: { type: 'string', 'x-trim': true },
    raw: { type: 'string' },
    keyword: { type: 'string', 'x-trim': true, 'x-param': 'customerInfo' },
    state: { $ref: '../enums/sign-state.json' },
    created: {
      type: 'array',
      items: { type: 'string', format: 'date' },
      'x-param': ['start_time_day', 'end_time_day'],
    },
    sent: { type: 'array', items: { type: 'string', format: 'date-time' }, 'x-param': ['from', 'to'] },
  },
};

describe('schemaFilters: filter values -> request parameters, as the filter schema says', () => {
  it('format: date sends YYYY-MM-DD (Dayjs, Date or string)', () => {
    expect(schemaFilters(filter, { day: dayjs('2026-11-01T13:14:15') })).toEqual({ day: '2026-11-01' });
    // a Date is an instant: its day in Asia/Shanghai (2026-01-09 23:59 there), whatever the zone the test runs in
    expect(schemaFilters(filter, { day: new Date(Date.UTC(2026, 0, 9, 15, 59)) })).toEqual({ day: '2026-01-09' });
    expect(schemaFilters(filter, { day: new Date(Date.UTC(2026, 0, 9, 16, 0)) })).toEqual({ day: '2026-01-10' });
    expect(schemaFilters(filter, { day: '2026-02-03' })).toEqual({ day: '2026-02-03' });
  });

  it('format: date-time sends YYYY-MM-DD HH:mm:ss', () => {
    expect(schemaFilters(filter, { at: dayjs('2026-11-01T08:05:09') })).toEqual({ at: '2026-11-01 08:05:09' });
    expect(schemaFilters(filter, { at: new Date(Date.UTC(2026, 10, 1, 0, 5, 9)) })).toEqual({
      at: '2026-11-01 08:05:09',
    });
  });

  it('x-trim trims; other strings are sent as typed', () => {
    expect(schemaFilters(filter, { name: '  好易购 ', raw: ' a ' })).toEqual({ name: '好易购', raw: ' a ' });
  });

  it('x-param renames the parameter', () => {
    expect(schemaFilters(filter, { keyword: ' 优品 ' })).toEqual({ customerInfo: '优品' });
  });

  it('a date range sends its two ends under the names of x-param', () => {
    expect(schemaFilters(filter, { created: [dayjs('2026-01-01'), dayjs('2026-01-31')] })).toEqual({
      start_time_day: '2026-01-01',
      end_time_day: '2026-01-31',
    });
    expect(schemaFilters(filter, { sent: [dayjs('2026-01-01T00:00:00'), null] })).toEqual({
      from: '2026-01-01 00:00:00',
    });
    expect(filterParamNames(filter)).toEqual([
      'day',
      'at',
      'name',
      'raw',
      'customerInfo',
      'state',
      'start_time_day',
      'end_time_day',
      'from',
      'to',
    ]);
  });

  it('empty values are left out (undefined, null, empty, blank after trimming, empty range); 0 is a value', () => {
    expect(
      schemaFilters(filter, {
        day: null,
        at: undefined,
        name: '   ',
        raw: '',
        keyword: '',
        state: 0,
        created: [],
        sent: null,
      }),
    ).toEqual({ state: 0 });
    expect(schemaFilters(filter, undefined)).toEqual({});
  });

  it('values the schema does not declare are not sent', () => {
    expect(schemaFilters(filter, { other: 'x', state: 2 })).toEqual({ state: 2 });
  });

  it('a filter bar search clears the parameters it leaves empty (Refine merges filters)', () => {
    const { params, filters } = searchFilters('filters/sign', { sign: ' 云 ', start_time: dayjs('2026-11-01') });
    expect(params).toEqual({ sign: '云', start_time: '2026-11-01' });
    expect(filters).toEqual(
      ['clientid', 'state', 'sign', 'start_time', 'end_time'].map((field) => ({
        field,
        operator: 'eq',
        value: params[field as keyof typeof params],
      })),
    );
  });

  it("every list's filter schema converts: dates by format, x-trim on its text inputs", () => {
    expect(
      schemaFilters(schemas.get('filters/sub-account'), {
        customerInfo: ' 138 ',
        status: 5,
        start_time_day: dayjs('2026-01-02'),
        end_time_day: '',
      }),
    ).toEqual({
      customerInfo: '138',
      status: 5,
      start_time_day: '2026-01-02',
    });
    expect(
      schemaFilters(schemas.get('filters/template-smart'), {
        content: ' 验证码 ',
        createStartTime: dayjs('2026-03-04'),
        smsType: 10,
      }),
    ).toEqual({
      content: '验证码',
      createStartTime: '2026-03-04',
      smsType: 10,
    });
    expect(schemaFilters(schemas.get('filters/notice'), { searchContent: '  ' })).toEqual({});
  });
});
