/**
 * Spec 02 §9 "Default date ranges 90 days" (issue 41 item 12): the task, timed-task, sign, bill and
 * pay-order lists start on the last 90 business days, from their filter schema's `x-default-days`.
 */
import { describe, expect, it } from 'vitest';
import { defaultRange } from '@/components/SchemaTable/defaultRange';
import { searchFilters } from '@/components/SchemaTable/useSchemaList';
import { schemas } from '@/schema';

// 2026-12-05 10:00 in Shanghai
const NOW = '2026-12-05T02:00:00Z';

describe('a list’s default date range (x-default-days)', () => {
  it.each([
    ['filters/send-task', { createTimeStart: '2026-09-07', createTimeEnd: '2026-12-05' }],
    ['filters/timed-task', { startTime: '2026-09-07', endTime: '2026-12-05' }],
    ['filters/sign', { start_time: '2026-09-07', end_time: '2026-12-05' }],
    ['filters/own-bill', { start_time_day: '2026-09-07', end_time_day: '2026-12-05' }],
    ['filters/sms-bill', { start_time_day: '2026-09-07', end_time_day: '2026-12-05' }],
    ['filters/rebate-bill', { start_time_day: '2026-09-07', end_time_day: '2026-12-05' }],
    ['filters/pay-order', { startPayTime: '2026-09-07 00:00:00', endPayTime: '2026-12-05 23:59:59' }],
  ])('%s starts on the last 90 days, today included', (key, sent) => {
    const range = defaultRange(schemas.get(key), NOW);
    expect(Object.keys(range).sort()).toEqual(Object.keys(sent).sort());
    // as the request sends them
    expect(searchFilters(key, range).params).toEqual(sent);
  });

  it('lists without the annotation have none (the send records keep their own, the sub-accounts none)', () => {
    for (const key of ['filters/send-record', 'filters/sub-account', 'filters/notice', 'filters/invoice'])
      expect(defaultRange(schemas.get(key), NOW)).toEqual({});
  });
});
