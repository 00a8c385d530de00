/**
 * Business time in the console: the platform's days and clock are Asia/Shanghai (the server's,
 * docs/api-send.md), whatever zone the browser runs in. Every time rule (the scheduled time of a
 * send, today / yesterday of the lists and reports, a timed task's cancel check) reads the clock
 * here, and the date pickers show and take Shanghai wall-clock times.
 *
 * A business time is a Dayjs in dayjs's UTC mode whose fields are the Shanghai wall clock (a "wall
 * time"): what it formats is what the user sees and what the API is sent, and its day, month and
 * year arithmetic never meets the browser's daylight saving changes (dayjs's timezone plugin
 * shifts its values through the browser's zone and is an hour off around them). Its valueOf() is
 * not the instant: compare business times with each other, never with Date.now().
 *
 * - `businessNow(at?)`: the Shanghai wall clock now (or at an instant);
 * - `businessTime(v)`: a value read as business time: a Dayjs (a picker's value) by the fields it
 *   shows, a string without a zone ('YYYY-MM-DD HH:mm:ss' from the API) as written, an instant (a
 *   number, a Date, an ISO string with its zone) as Shanghai's clock showed it.
 *
 * antd's pickers take "now" (today's cell, 此刻) from dayjs's timezone plugin (`dayjs().tz()`):
 * its default zone is set to Asia/Shanghai here, so the pickers' today is Shanghai's too.
 */
import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import { BUSINESS_TZ, businessWallMs } from '../../common/time';

dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.tz.setDefault(BUSINESS_TZ);

export { BUSINESS_TZ };

/** What a rule accepts as a time (see businessTime). */
export type BusinessTimeInput = Dayjs | string | number | Date;

const WALL_FORMAT = 'YYYY-MM-DDTHH:mm:ss.SSS';
/** an ISO string that names its zone: an instant */
const ZONED = /(?:[zZ]|[+-]\d{2}:?\d{2})$/;

/** The Shanghai wall clock at `at` (now by default), as a business time. */
export const businessNow = (at: number | Date = Date.now()): Dayjs => dayjs.utc(businessWallMs(at));

/** A value read as business time (invalid in, invalid out: check `isValid()`). */
export function businessTime(v: BusinessTimeInput): Dayjs {
  if (typeof v === 'number' || v instanceof Date) return businessNow(v);
  if (typeof v === 'string') {
    const s = v.trim();
    return ZONED.test(s) ? businessNow(Date.parse(s)) : dayjs.utc(s);
  }
  if (v.isUTC()) return v;
  return v.isValid() ? dayjs.utc(v.format(WALL_FORMAT)) : dayjs.utc(NaN);
}

/** The start of the business day of `v`. */
export const businessDay = (v: BusinessTimeInput): Dayjs => businessTime(v).startOf('day');
