/**
 * A list's default date range from its filter schema (spec 02 §9: "Default date ranges 90 days";
 * issue 41 item 12): the property of the range's start (`x-op: from`) that carries
 * `x-default-days: N`, and its end (the property of the same `x-column` with `x-op: to`; for a range
 * without SQL annotations, read by a rule of the server's own, the next property of the same
 * format: the timed tasks' startTime / endTime), start on
 * the last N business days of Asia/Shanghai, today included. A `date` field gets the day, a
 * date-time field the day's first second (start) and last second (end). useSchemaList puts them
 * first among the filter bar's values (sent with the first call, and what 重置 puts back); a
 * page's own initialValues and the address bar's values win over them.
 */
import type { Dayjs } from 'dayjs';
import { businessDay, businessNow, type BusinessTimeInput } from '@/lib/businessTime';
import type { JsonSchema } from '../../../common/schema';

interface RangeField {
  format?: string;
  'x-op'?: string;
  'x-column'?: string;
  'x-default-days'?: number;
}

export function defaultRange(
  schema: JsonSchema | undefined,
  now: BusinessTimeInput = businessNow(),
): Record<string, Dayjs> {
  const out: Record<string, Dayjs> = {};
  const props = (schema?.properties ?? {}) as Record<string, RangeField>;
  const entries = Object.entries(props);
  entries.forEach(([name, p], i) => {
    const days = p['x-default-days'];
    if (!(typeof days === 'number' && days > 0) || (p['x-op'] !== undefined && p['x-op'] !== 'from')) return;
    const end = p['x-op']
      ? entries.find(([, q]) => q['x-op'] === 'to' && q['x-column'] === p['x-column'])
      : entries.slice(i + 1).find(([, q]) => q.format === p.format && !q['x-op']);
    const today = businessDay(now);
    const withTime = (f?: string) => f === 'date-time' || f === 'business-date-time';
    out[name] = today.subtract(days - 1, 'day');
    if (end) out[end[0]] = withTime(end[1].format) ? today.endOf('day') : today;
  });
  return out;
}
