/**
 * The platform's business time zone, for code shared by the console and the server: business days,
 * timed sends and every time the API reads or writes are Asia/Shanghai (docs/api-send.md), whatever
 * zone the browser or the host runs in. The offset comes from the zone data (Intl), not from the
 * host's zone; China has kept UTC+8 without daylight saving time since 1991.
 */
export const BUSINESS_TZ = 'Asia/Shanghai';

const wallClock = new Intl.DateTimeFormat('en-US', {
  timeZone: BUSINESS_TZ,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

/**
 * The Shanghai wall clock at an instant, as the UTC milliseconds of the same fields (a "wall time":
 * `new Date(wall).getUTCHours()` is the hour in Shanghai), so that day and year arithmetic on it
 * never meets a host zone's daylight saving change.
 */
export function businessWallMs(at: number | Date): number {
  const ms = +at;
  if (!Number.isFinite(ms)) return NaN;
  const f: Record<string, number> = {};
  for (const p of wallClock.formatToParts(ms)) if (p.type !== 'literal') f[p.type] = Number(p.value);
  const wall = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second);
  return wall + (((ms % 1000) + 1000) % 1000);
}

/** 'YYYY-MM-DD' (or 'YYYY-MM-DD HH:mm:ss' with the time) of an instant, in Asia/Shanghai; '' for an invalid one. */
export function formatBusiness(at: number | Date, withTime = false): string {
  const wall = businessWallMs(at);
  if (Number.isNaN(wall)) return '';
  const iso = new Date(wall).toISOString();
  return withTime ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : iso.slice(0, 10);
}
