import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../server/lib/time';

/** formatDateTime's arithmetic (UTC+8 from 1992 on) says what the time zone database says. */
const tz = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Asia/Shanghai',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
const byTz = (d: Date) => {
  const p = Object.fromEntries(tz.formatToParts(d).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
};

describe('formatDateTime', () => {
  it('matches Intl (Asia/Shanghai) from the summer-time years to far ahead, at the edges too', () => {
    const from = Date.UTC(1985, 0, 1);
    const to = Date.UTC(2200, 0, 1);
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const edges = [
      Date.UTC(1991, 11, 31, 15, 59, 59),
      Date.UTC(1991, 11, 31, 16),
      Date.UTC(1991, 6, 1, 12),
      Date.UTC(2026, 11, 31, 16),
      Date.UTC(9999, 11, 31, 15, 59, 59),
    ];
    for (const t of [...edges, ...Array.from({ length: 20_000 }, () => from + Math.floor(rnd() * (to - from)))]) {
      const d = new Date(t);
      expect(formatDateTime(d), d.toISOString()).toBe(byTz(d));
    }
    expect(formatDateTime('2026-11-28T10:00:00Z')).toBe('2026-11-28 18:00:00');
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('nonsense')).toBe('');
  });
});
