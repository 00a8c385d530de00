/**
 * A list that refreshes itself while the page is open (the send-task list, spec 02 §2/§9): every
 * `everyMs` (10 s) it calls `refresh` and takes `step` (2) off a countdown that starts at `from`
 * (180); the countdown is shown, and at 0 the refreshing stops (90 refreshes, 15 minutes, so a
 * forgotten tab does not poll forever); `restart()` (the 刷新 button) starts it again from `from`.
 * Leaving the page (unmount) stops it.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export interface AutoRefreshOptions {
  everyMs?: number;
  from?: number;
  step?: number;
  /** false pauses the timer (e.g. while a dialog is open) */
  enabled?: boolean;
}

export const TASK_REFRESH = { everyMs: 10_000, from: 180, step: 2 } as const;

export function useAutoRefresh(
  refresh: () => unknown,
  {
    everyMs = TASK_REFRESH.everyMs,
    from = TASK_REFRESH.from,
    step = TASK_REFRESH.step,
    enabled = true,
  }: AutoRefreshOptions = {},
) {
  const [left, setLeft] = useState(from);
  const refreshRef = useRef(refresh);
  useEffect(() => {
    refreshRef.current = refresh;
  });
  const running = enabled && left > 0;
  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => {
      void refreshRef.current();
      setLeft((n) => Math.max(0, n - step));
    }, everyMs);
    return () => clearInterval(t);
  }, [running, everyMs, step]);
  const restart = useCallback(() => {
    setLeft(from);
    void refreshRef.current();
  }, [from]);
  return { left, running: left > 0, restart };
}
