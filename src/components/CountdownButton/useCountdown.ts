import { useCallback, useEffect, useState } from 'react';

/** Seconds left of a countdown started with `start(n)`; 0 when idle. Ticks once a second. */
export function useCountdown(onDone?: () => void) {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const t = setTimeout(() => {
      setLeft((n) => n - 1);
      if (left === 1) onDone?.();
    }, 1000);
    return () => clearTimeout(t);
  }, [left, onDone]);
  const start = useCallback((seconds: number) => setLeft(seconds), []);
  const stop = useCallback(() => setLeft(0), []);
  return { left, start, stop, running: left > 0 };
}
