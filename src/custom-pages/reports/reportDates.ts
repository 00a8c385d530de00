/**
 * Date rules of the consumption reports (spec 02 §5 "Reports and record pickers", §9): data up to
 * today (live: the server's daily aggregates are kept in the writers' transactions, issue 27 item
 * 11); postpaid back at most 90 days, prepaid 365 (counted from yesterday, as the server); end not
 * before start; the pickers cannot be cleared or typed into. The server checks the same
 * (docs/api-reports.md).
 */
import type { Dayjs } from 'dayjs';
import { MESSAGES } from '../../../common/schema/messages';
import { businessDay, businessNow, businessTime, type BusinessTimeInput } from '@/lib/businessTime';

/** how far back a report may start: prepaid (pre) 365 days, postpaid (post) 90 */
export const REPORT_BACK_DAYS = { pre: 365, post: 90 } as const;
/** the first range: the 90 days up to today (spec 02: default date ranges 90 days) */
export const REPORT_DEFAULT_DAYS = 90;
export type ReportTab = keyof typeof REPORT_BACK_DAYS;

/** Yesterday of the business clock (Asia/Shanghai whatever the browser's zone, src/lib/businessTime.ts). */
export const yesterday = (now: BusinessTimeInput = businessNow()) => businessDay(now).subtract(1, 'day');
/** Today of the business clock: the last day a report may show (its figures live). */
export const reportLastDay = (now: BusinessTimeInput = businessNow()) => businessDay(now);
export const reportEarliest = (tab: ReportTab, now: BusinessTimeInput = businessNow()) =>
  yesterday(now).subtract(REPORT_BACK_DAYS[tab], 'day');

/** The report filter's first dates. */
export const defaultReportRange = (now: BusinessTimeInput = businessNow()) => ({
  from: reportLastDay(now).subtract(REPORT_DEFAULT_DAYS - 1, 'day'),
  to: reportLastDay(now),
});

/** Days a report date picker may not choose (a picked day is the day its picker shows). */
export function reportDayDisabled(tab: ReportTab, d: Dayjs, now: BusinessTimeInput = businessNow()): boolean {
  const picked = businessTime(d);
  return picked.isAfter(reportLastDay(now).endOf('day')) || picked.isBefore(reportEarliest(tab, now));
}

/** The pickers' props: no clear button, no typing, only allowed days. */
export const reportPickerProps = (tab: ReportTab) => ({
  allowClear: false,
  inputReadOnly: true,
  disabledDate: (d: Dayjs) => reportDayDisabled(tab, d),
});

const day = (v: unknown): Dayjs | null => {
  if (v === undefined || v === null || v === '') return null;
  const d = businessDay(v as BusinessTimeInput);
  return d.isValid() ? d : null;
};

/** The check before a search: null, or the message. */
export function reportRangeProblem(
  tab: ReportTab,
  fromValue: unknown,
  toValue: unknown,
  now: BusinessTimeInput = businessNow(),
): string | null {
  const from = day(fromValue);
  const to = day(toValue);
  if (!from || !to) return MESSAGES.badParam;
  if (to.isAfter(reportLastDay(now))) return MESSAGES.reportUpToToday;
  if (to.isBefore(from)) return MESSAGES.endBeforeStart;
  if (from.isBefore(reportEarliest(tab, now)))
    return tab === 'post' ? MESSAGES.reportPostpaidRange : MESSAGES.reportPrepaidRange;
  return null;
}
