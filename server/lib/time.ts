/** The server's clock (injectable for tests) and Asia/Shanghai formatting of business dates. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

export const BUSINESS_TZ = 'Asia/Shanghai';
const SHANGHAI_OFFSET_MS = 8 * 3600_000; // China has no daylight saving time

const fmt = new Intl.DateTimeFormat('en-CA', {
  timeZone: BUSINESS_TZ,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** 1992-01-01 (UTC): from then on Asia/Shanghai is UTC+8 all year (it kept summer time until 1991) */
const FIXED_OFFSET_FROM = Date.UTC(1992, 0, 1);
/** 10000-01-01: toISOString writes six-digit years from then on */
const ISO_YEARS_UNTIL = Date.UTC(10000, 0, 1) - SHANGHAI_OFFSET_MS;

/** 'YYYY-MM-DD HH:mm:ss' in Asia/Shanghai; '' for null. */
export function formatDateTime(d: Date | string | null | undefined): string {
  if (d === null || d === undefined || d === '') return '';
  const date = d instanceof Date ? d : new Date(d);
  const t = date.getTime();
  if (Number.isNaN(t)) return '';
  // the fixed offset by arithmetic (every list row formats its dates: Intl's formatToParts costs
  // ~20 µs a call); the time zone database for the years before
  if (t >= FIXED_OFFSET_FROM && t < ISO_YEARS_UNTIL) {
    const iso = new Date(t + SHANGHAI_OFFSET_MS).toISOString();
    return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
  }
  const p = Object.fromEntries(fmt.formatToParts(date).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/** Midnight (Asia/Shanghai) of the business day containing `d`. */
export function startOfBusinessDay(d: Date): Date {
  const local = d.getTime() + SHANGHAI_OFFSET_MS;
  return new Date(local - (local % 86_400_000) - SHANGHAI_OFFSET_MS);
}

export function addMs(d: Date, ms: number): Date {
  return new Date(d.getTime() + ms);
}

/**
 * The instant a business day ('YYYY-MM-DD', Asia/Shanghai) starts; undefined for anything else,
 * impossible dates (2026-02-31) included. List filters use it for their day ranges.
 */
export function businessDayStart(day: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const t = new Date(`${day}T00:00:00+08:00`);
  if (Number.isNaN(t.getTime())) return undefined;
  return new Date(t.getTime() + SHANGHAI_OFFSET_MS).toISOString().slice(0, 10) === day ? t : undefined;
}

/** 'YYYY-MM-DD' of the business day (Asia/Shanghai) containing `t` */
export const dayOf = (t: Date) => new Date(t.getTime() + SHANGHAI_OFFSET_MS).toISOString().slice(0, 10);

/** the start of the business day `months` calendar months from `t`'s (a day-of-month past the month's end clamps to it) */
export function addMonths(t: Date, months: number): Date {
  const [y, m, d] = dayOf(t).split('-').map(Number);
  const last = new Date(Date.UTC(y, m - 1 + months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m - 1 + months, Math.min(d, last)) - SHANGHAI_OFFSET_MS);
}

export const addDays = (t: Date, days: number) => new Date(t.getTime() + days * 86_400_000);
