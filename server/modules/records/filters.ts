/**
 * What the record lists' filter schemas cannot say, as small named functions: the default date
 * ranges (send records: the last 90 days; uplink: the last three months, a span of one month), a
 * comma list of send states, and the outcome groups of a task's numbers. The values arrive checked
 * by the routes' schemas (schemas/filters/*.json, schemas/params/task-*.json: formats, enums,
 * patterns, lengths); plain filters go to SQL through server/db/filters.ts. Dates are business
 * days (Asia/Shanghai, server/lib/time.ts); a range is [start 00:00, end + 1 day).
 */
import { ApiError } from '../../http/errors';
import { addDays, addMonths, businessDayStart, startOfBusinessDay } from '../../lib/time';
import { SendRecordStatus, TaskDetailOutcome } from '../../../common/generated/schemas';
import { MESSAGES } from '../../../common/schema/messages';
import sendForm from '../../../schemas/forms/send.json';
import recordFilter from '../../../schemas/filters/send-record.json';
import taskFilter from '../../../schemas/filters/send-task.json';

export const RECORD_MSG = {
  ...sendForm['x-messages'],
  badDate: taskFilter.properties.createTimeStart.errorMessage,
  badState: recordFilter.properties.stateList.errorMessage,
  dateOrder: '开始日期不能晚于结束日期',
  badPhone: '手机号码格式不正确',
  badParam: MESSAGES.badParam,
  exportBusy: '导出正在进行中，请稍后再试',
  fileNotFound: '文件不存在或已过期，请重新导出',
  taskNotFound: '任务不存在',
  tooManyTasks: '短信内容匹配的任务过多，请缩小查询范围',
} as const;

/**
 * a business day 'YYYY-MM-DD' (the routes' schemas check `format: date`; the bills service still
 * passes raw values, where 'YYYY-MM-DD HH:mm:ss' counts as its day) → the instant it starts;
 * undefined when empty
 */
export function dayParam(v: unknown): Date | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const s = typeof v === 'string' ? v.trim() : '';
  const day = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$/.test(s) ? s.slice(0, 10) : '';
  const t = day ? businessDayStart(day) : undefined;
  if (!t) throw new ApiError(400, RECORD_MSG.badDate);
  return t;
}

export interface DayRange {
  from: Date;
  /** exclusive */
  to: Date;
}

/** an optional [start, end] pair of days; end before start is refused */
export function optionalRange(start: string | undefined, end: string | undefined): Partial<DayRange> {
  const from = dayParam(start);
  const endDay = dayParam(end);
  if (from && endDay && from > endDay) throw new ApiError(400, RECORD_MSG.dateOrder);
  return { from, to: endDay ? addDays(endDay, 1) : undefined };
}

/** Send records: the given days, else the last 90 business days up to today (both ends inclusive). */
export const RECORD_DEFAULT_DAYS = 90;
export function recordRange(start: string | undefined, end: string | undefined, now: Date): DayRange {
  const today = startOfBusinessDay(now);
  let from = dayParam(start);
  let endDay = dayParam(end);
  if (!endDay) endDay = from && from > today ? from : today;
  if (!from) from = addDays(endDay, -(RECORD_DEFAULT_DAYS - 1));
  if (from > endDay) throw new ApiError(400, RECORD_MSG.dateOrder);
  return { from, to: addDays(endDay, 1) };
}

/**
 * Uplink (spec 02 §5): the last three months only (start not before today minus 3 calendar months),
 * a span of at most one month (end ≤ start + 1 calendar month). Default: the month up to today.
 */
export function uplinkRange(start: string | undefined, end: string | undefined, now: Date): DayRange {
  const today = startOfBusinessDay(now);
  const earliest = addMonths(today, -3);
  let from = dayParam(start);
  let endDay = dayParam(end);
  if (!from && !endDay) {
    endDay = today;
    from = addMonths(today, -1);
  } else if (!from) {
    from = addMonths(endDay!, -1);
    if (from < earliest) from = earliest;
  } else if (!endDay) {
    const cap = addMonths(from, 1);
    endDay = cap < today ? cap : today;
    if (endDay < from) endDay = from;
  }
  if (from > endDay!) throw new ApiError(400, RECORD_MSG.dateOrder);
  if (from < earliest) throw new ApiError(400, RECORD_MSG.uplinkRange);
  if (endDay! > addMonths(from, 1)) throw new ApiError(400, RECORD_MSG.uplinkSpan);
  return { from: from, to: addDays(endDay!, 1) };
}

export const RECORD_STATES: readonly number[] = Object.values(SendRecordStatus);

/** stateList '3,6' (its pattern checked by the schema) → [3, 6]; every value must be a send-record state */
export function statesOf(list: string | undefined): number[] | undefined {
  if (!list) return undefined;
  const states = [...new Set(list.split(',').map(Number))];
  if (!states.every((x) => RECORD_STATES.includes(x))) throw new ApiError(400, RECORD_MSG.badState);
  return states;
}

/**
 * Task-detail outcomes (enums/task-detail-outcome) → message states (enums/send-record-status),
 * the same grouping as the task counters (docs/api-records.md).
 */
export const OUTCOME_STATES: Record<number, readonly SendRecordStatus[]> = {
  [TaskDetailOutcome.Success]: [SendRecordStatus.Delivered, SendRecordStatus.DeliveredAlt],
  [TaskDetailOutcome.Failure]: [
    SendRecordStatus.SubmitFailed,
    SendRecordStatus.DeliveryFailed,
    SendRecordStatus.TemplateReviewFailed,
    SendRecordStatus.ReviewFailed,
    SendRecordStatus.BillingFailed,
  ],
  [TaskDetailOutcome.Unknown]: [SendRecordStatus.Submitted, SendRecordStatus.SubmittedAlt],
  [TaskDetailOutcome.Intercepted]: [
    SendRecordStatus.GatewayReceiveIntercepted,
    SendRecordStatus.GatewaySendIntercepted,
    SendRecordStatus.FrequencyIntercepted,
  ],
  [TaskDetailOutcome.Pending]: [SendRecordStatus.NotSent, SendRecordStatus.AwaitingReview],
};

/** sendTypes '1,2' (its pattern checked by the schema) → the message states to export; none → 请选择需要导出号码状态！ */
export function outcomeStates(sendTypes: string | undefined): SendRecordStatus[] {
  const s = sendTypes ?? '';
  if (s === '') throw new ApiError(400, RECORD_MSG.exportNoState);
  const states = new Set<SendRecordStatus>();
  for (const o of s.split(',').map(Number)) {
    const st = OUTCOME_STATES[o];
    if (!st) throw new ApiError(400, MESSAGES.badParam);
    st.forEach((x) => states.add(x));
  }
  return [...states];
}

// ---- legacy readers ----------------------------------------------------------------------------
// `enumParam` (with `str` / `intParam`) is still read by the reports service for the remaining
// pools' `type` alias, which no filter schema declares; nothing else uses these. Remove with it.

/** a scalar parameter as trimmed text ('' when absent); arrays and objects are refused */
export function str(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new ApiError(400, MESSAGES.badParam);
}

/** an integer parameter within [min, max]; undefined when empty */
export function intParam(v: unknown, min: number, max: number, msg: string = MESSAGES.badParam): number | undefined {
  const s = str(v);
  if (s === '') return undefined;
  if (!/^\d{1,10}$/.test(s)) throw new ApiError(400, msg);
  const n = Number(s);
  if (n < min || n > max) throw new ApiError(400, msg);
  return n;
}

/** one of the listed values (an enum), or undefined when empty */
export function enumParam<T extends number>(
  v: unknown,
  values: readonly T[],
  msg: string = MESSAGES.badParam,
): T | undefined {
  const n = intParam(v, 0, 99, msg);
  if (n === undefined) return undefined;
  const value = values.find((x) => x === n);
  if (value === undefined) throw new ApiError(400, msg);
  return value;
}
