/**
 * Countdown of an unpaid pay order: the server's countDownStr (seconds left when the answer was
 * made) turned into a deadline on this clock, shown as mm:ss. Pay and cancel are allowed only
 * while it is above 0 (an empty countDownStr is no countdown: not payable).
 */
import { useEffect, useState } from 'react';
import type { Dayjs } from 'dayjs';
import { businessNow, businessTime } from '@/lib/businessTime';

/** seconds left at `now` of a countdown received at `receivedAt` */
export function secondsLeft(countDownStr: string | undefined | null, receivedAt: number, now: number): number {
  if (countDownStr === undefined || countDownStr === null || String(countDownStr).trim() === '') return 0;
  const n = Number(countDownStr);
  if (!Number.isFinite(n)) return 0;
  // a clock read before the answer arrived (a stale tick) counts as the time of the answer
  return Math.max(0, Math.min(Math.ceil(n), Math.ceil(n - (now - receivedAt) / 1000)));
}

/** 125 -> '02:05'; 3725 -> '1:02:05' */
export function formatCountdown(s: number): string {
  const v = Math.max(0, Math.floor(s));
  const h = Math.floor(v / 3600);
  const m = Math.floor((v % 3600) / 60);
  const sec = v % 60;
  const mm = String(m).padStart(2, '0');
  const ss = String(sec).padStart(2, '0');
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** A clock that ticks every second while `active` (the countdowns re-render from it). */
export function useNow(active = true, everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [active, everyMs]);
  return now;
}

/**
 * Pay order date pickers (spec §5 "Reports and record pickers"): as coded, a date is disabled when
 * it is later than now − 8.64e6 ms (2.4 hours; the spec's "8.4 days" is a misreading of the
 * constant). The picker hands the date of a cell (its current time of day when one is chosen), so
 * future days are disabled, and today too while the time of day is before 02:24. Days and times
 * are Shanghai's whatever the browser's zone: the cell as its picker shows it, against Shanghai's
 * clock at `now` (an instant).
 */
export const PAY_ORDER_PICKER_OFFSET_MS = 8.64e6;
export function payOrderDisabledDate(current: Dayjs | null | undefined, now = Date.now()): boolean {
  return !!current && businessTime(current).valueOf() > businessNow(now).valueOf() - PAY_ORDER_PICKER_OFFSET_MS;
}
