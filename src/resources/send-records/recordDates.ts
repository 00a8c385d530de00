/**
 * Date rules of the record lists (spec 02 §5 "Reports and record pickers", §9): send records start
 * on the last 90 days; uplink records reach back three months at most and span one month at most.
 * Days are Asia/Shanghai's business days whatever the browser's zone (src/lib/businessTime.ts): `now`
 * is the business clock, a picked day is the day its picker shows.
 */
import type { Dayjs } from 'dayjs';
import { businessDay, businessNow, businessTime, type BusinessTimeInput } from '@/lib/businessTime';
import { SEND_MESSAGES } from '@/domain/send';
import { MESSAGES } from '../../../common/schema/messages';

export const RECORD_DEFAULT_DAYS = 90;
export const UPLINK_BACK_MONTHS = 3;
export const UPLINK_SPAN_MONTHS = 1;

const day = (v: unknown): Dayjs | null => {
  if (v === undefined || v === null || v === '') return null;
  const d = businessDay(v as BusinessTimeInput);
  return d.isValid() ? d : null;
};

/** The send-record filter's first dates: the last 90 days, today included. */
export const lastDays = (days: number, now: BusinessTimeInput = businessNow()) => ({
  from: businessDay(now).subtract(days - 1, 'day'),
  to: businessDay(now),
});

/** The uplink filter's first dates: the last month (today included). */
export const lastUplinkMonth = (now: BusinessTimeInput = businessNow()) => ({
  from: businessDay(now).subtract(UPLINK_SPAN_MONTHS, 'month').add(1, 'day'),
  to: businessDay(now),
});

/** The earliest uplink day that may be asked for. */
export const uplinkEarliest = (now: BusinessTimeInput = businessNow()) =>
  businessDay(now).subtract(UPLINK_BACK_MONTHS, 'month');

/** Days an uplink date picker may not choose. */
export function uplinkDayDisabled(d: Dayjs, now: BusinessTimeInput = businessNow()): boolean {
  const picked = businessTime(d);
  return picked.isBefore(uplinkEarliest(now)) || picked.isAfter(businessTime(now).endOf('day'));
}

/** The uplink filter's check before a search: null, or the message (uplinkRange / uplinkSpan). */
export function uplinkRangeProblem(
  fromValue: unknown,
  toValue: unknown,
  now: BusinessTimeInput = businessNow(),
): string | null {
  const from = day(fromValue);
  const to = day(toValue);
  if (!from || !to) return SEND_MESSAGES.uplinkSpan;
  if (from.isBefore(uplinkEarliest(now)) || to.isAfter(businessTime(now).endOf('day')) || to.isBefore(from))
    return SEND_MESSAGES.uplinkRange;
  if (to.isAfter(from.add(UPLINK_SPAN_MONTHS, 'month'))) return SEND_MESSAGES.uplinkSpan;
  return null;
}

/** A range whose end is before its start (messages.json endBeforeStart). */
export function rangeOrderProblem(fromValue: unknown, toValue: unknown): string | null {
  const from = day(fromValue);
  const to = day(toValue);
  return from && to && to.isBefore(from) ? END_BEFORE_START : null;
}
export const END_BEFORE_START = MESSAGES.endBeforeStart;
