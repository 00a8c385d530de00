/**
 * The console's time rules in a browser that is not in Asia/Shanghai: this file runs in
 * America/New_York (12 or 13 hours behind Shanghai, with daylight saving changes), and every rule
 * called without `now` (the business clock read from the system clock, as the screens call them)
 * gives Shanghai's results: Shanghai's today, Shanghai's wall-clock times shown and sent.
 */
import dayjs from 'dayjs';
import generateConfig from 'rc-picker/lib/generate/dayjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { businessNow, businessTime } from '@/lib/businessTime';
import { defaultSendTime, latestSendTime, SEND_MESSAGES, sendDateDisabled, sendTimeProblem } from '@/domain/send';
import { INTL_MESSAGES } from '@/custom-pages/send/api';
import { sendTimeReached } from '@/resources/timed-tasks/TimedTaskList';
import { lastDays, lastUplinkMonth, uplinkDayDisabled, uplinkRangeProblem } from '@/resources/send-records/recordDates';
import {
  defaultReportRange,
  reportDayDisabled,
  reportRangeProblem,
  yesterday,
} from '@/custom-pages/reports/reportDates';
import { expiryDayDisabled } from '@/resources/subaccounts/dialogs';
import { payOrderDisabledDate } from '@/components/OnlinePay';
import { invoiceDateDisabled } from '@/resources/invoices/api';

const zone = process.env.TZ;
process.env.TZ = 'America/New_York';
afterAll(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
  vi.useRealTimers();
});

const F = 'YYYY-MM-DD HH:mm:ss';
const D = 'YYYY-MM-DD';
/** a picker's value as the browser makes it: a local Dayjs showing these fields */
const picked = (s: string) => dayjs(s);
/** the system clock at an instant */
const at = (iso: string) => vi.setSystemTime(new Date(iso));

beforeAll(() => void vi.useFakeTimers({ toFake: ['Date'] }));

it('this file runs in New York', () => {
  expect(new Date(Date.UTC(2026, 0, 15)).getTimezoneOffset()).toBe(300);
  expect(new Date(Date.UTC(2026, 6, 15)).getTimezoneOffset()).toBe(240);
});

// 2026-06-30 16:30 UTC: Shanghai 2026-07-01 00:30, New York 2026-06-30 12:30
describe('just after midnight in Shanghai (still the day before in New York)', () => {
  beforeEach(() => at('2026-06-30T16:30:00Z'));

  it('the business clock is Shanghai’s, however the instant is given', () => {
    expect(businessNow().format(F)).toBe('2026-07-01 00:30:00');
    expect(businessTime(Date.now()).format(F)).toBe('2026-07-01 00:30:00');
    expect(businessTime('2026-06-30T16:30:00Z').format(F)).toBe('2026-07-01 00:30:00');
    expect(businessTime('2026-07-01T00:30:00+08:00').format(F)).toBe('2026-07-01 00:30:00');
    // the API's times and a picker's values are Shanghai's as written / shown
    expect(businessTime('2026-07-01 00:30:00').format(F)).toBe('2026-07-01 00:30:00');
    expect(businessTime(picked('2026-07-01 00:30:00')).format(F)).toBe('2026-07-01 00:30:00');
  });

  it('antd’s pickers take today from Shanghai’s clock (rc-picker’s getNow)', () => {
    expect(generateConfig.getNow().format(D)).toBe('2026-07-01');
  });

  it('send page: default now + 30 min, at least now + 5 min, the picker from Shanghai’s today', () => {
    expect(defaultSendTime().format(F)).toBe('2026-07-01 01:00:00');
    expect(sendTimeProblem(picked('2026-07-01 00:34:59'))).toBe(SEND_MESSAGES.sendTimeTooEarly);
    expect(sendTimeProblem(picked('2026-07-01 00:35:00'))).toBeNull();
    // New York's noon of the same instant is Shanghai's past
    expect(sendTimeProblem(picked('2026-06-30 12:40:00'))).toBe(SEND_MESSAGES.sendTimeTooEarly);
    expect(sendDateDisabled(picked('2026-06-30'))).toBe(true);
    expect(sendDateDisabled(picked('2026-07-01'))).toBe(false);
  });

  it('variable and international pages: within 24 hours, today and tomorrow', () => {
    expect(sendTimeProblem(picked('2026-07-02 00:30:00'), undefined, 'international')).toBeNull();
    expect(sendTimeProblem(picked('2026-07-02 00:30:01'), undefined, 'international')).toBe(
      INTL_MESSAGES.sendTimeTooLate,
    );
    expect(sendTimeProblem(picked('2026-07-01 00:34:00'), undefined, 'variable')).toBe(SEND_MESSAGES.sendTimeTooEarly);
    expect(sendDateDisabled(picked('2026-06-30'), undefined, 'international')).toBe(true);
    expect(sendDateDisabled(picked('2026-07-02'), undefined, 'international')).toBe(false);
    expect(sendDateDisabled(picked('2026-07-03'), undefined, 'international')).toBe(true);
  });

  it('timed tasks: the send time (Shanghai’s) is reached at Shanghai’s clock', () => {
    expect(sendTimeReached({ setSendTimeStr: '2026-07-01 00:30:00' })).toBe(true);
    expect(sendTimeReached({ setSendTimeStr: '2026-07-01 00:31:00' })).toBe(false);
    expect(sendTimeReached({ setSendTimeStr: '2026-06-30 13:00:00' })).toBe(true);
  });

  it('send records and uplink: Shanghai’s today', () => {
    const days = lastDays(90);
    expect([days.from.format(D), days.to.format(D)]).toEqual(['2026-04-03', '2026-07-01']);
    const month = lastUplinkMonth();
    expect([month.from.format(D), month.to.format(D)]).toEqual(['2026-06-02', '2026-07-01']);
    expect(uplinkRangeProblem(month.from, month.to)).toBeNull();
    expect(uplinkRangeProblem('2026-06-30', '2026-07-01')).toBeNull();
    expect(uplinkDayDisabled(picked('2026-07-01'))).toBe(false);
    expect(uplinkDayDisabled(picked('2026-07-02'))).toBe(true);
    expect(uplinkDayDisabled(picked('2026-04-01'))).toBe(false);
    expect(uplinkDayDisabled(picked('2026-03-31'))).toBe(true);
  });

  it('reports: up to Shanghai’s today (live), the 90 days before it by default', () => {
    expect(yesterday().format(D)).toBe('2026-06-30');
    const r = defaultReportRange();
    expect([r.from.format(D), r.to.format(D)]).toEqual(['2026-04-03', '2026-07-01']);
    expect(reportDayDisabled('pre', picked('2026-07-01'))).toBe(false);
    expect(reportDayDisabled('pre', picked('2026-07-02'))).toBe(true);
    expect(reportRangeProblem('pre', '2026-06-01', '2026-06-30')).toBeNull();
  });

  it('sub-account expiry, pay-order and invoice pickers: Shanghai’s day and clock', () => {
    expect(expiryDayDisabled(picked('2026-06-30'))).toBe(true);
    expect(expiryDayDisabled(picked('2026-07-01'))).toBe(false);
    // a cell at Shanghai's time of day: after now − 2.4 h is disabled
    expect(payOrderDisabledDate(picked('2026-06-30 22:06:00'))).toBe(false);
    expect(payOrderDisabledDate(picked('2026-06-30 22:06:01'))).toBe(true);
    expect(invoiceDateDisabled(picked('2026-06-30 22:06:00'))).toBe(false);
    expect(invoiceDateDisabled(picked('2026-07-01 00:30:00'))).toBe(true);
  });
});

// 2026-12-31 16:30 UTC: Shanghai 2027-01-01 00:30, New York 2026-12-31 11:30
it('the end of next year is counted from Shanghai’s year', () => {
  at('2026-12-31T16:30:00Z');
  expect(latestSendTime().format(F)).toBe('2028-12-31 23:59:59');
  expect(sendTimeProblem(picked('2028-06-01 10:00:00'))).toBeNull();
  expect(sendTimeProblem(picked('2029-01-01 00:00:00'))).toBe(SEND_MESSAGES.sendTimeTooLate);
  expect(sendDateDisabled(picked('2028-12-31'))).toBe(false);
  expect(sendDateDisabled(picked('2026-12-31'))).toBe(true);
});

describe('New York’s daylight saving changes do not move Shanghai’s times', () => {
  it('spring forward (New York skips 02:00-03:00 on 2026-03-08): Shanghai’s 02:30 exists', () => {
    at('2026-03-07T18:00:00Z'); // Shanghai 2026-03-08 02:00
    expect(defaultSendTime().format(F)).toBe('2026-03-08 02:30:00');
    expect(businessTime('2026-03-08 02:30:00').format(F)).toBe('2026-03-08 02:30:00');
    expect(businessNow().startOf('day').format(F)).toBe('2026-03-08 00:00:00');
    expect(sendTimeProblem(businessTime('2026-03-08 02:04:59'))).toBe(SEND_MESSAGES.sendTimeTooEarly);
    expect(sendTimeProblem(businessTime('2026-03-08 02:05:00'))).toBeNull();
    expect(sendTimeReached({ setSendTimeStr: '2026-03-08 02:00:00' })).toBe(true);
    expect(sendTimeReached({ setSendTimeStr: '2026-03-08 02:00:01' })).toBe(false);
  });
  it('fall back (New York has 01:00-02:00 twice on 2026-11-01): Shanghai’s 01:30 comes once', () => {
    at('2026-10-31T17:00:00Z'); // Shanghai 2026-11-01 01:00
    expect(defaultSendTime().format(F)).toBe('2026-11-01 01:30:00');
    expect(businessTime('2026-11-01 01:30:00').diff(businessNow(), 'minute')).toBe(30);
    expect(sendTimeProblem(businessTime('2026-11-01 01:05:00'))).toBeNull();
    expect(lastDays(1).to.format(D)).toBe('2026-11-01');
  });
});
