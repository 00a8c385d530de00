import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * A function that keeps its identity but always runs the latest `fn`. Callbacks given to
 * widgets through uiSchema ui:options need it: RJSF compares uiSchema deeply, ignoring
 * functions, so a widget would otherwise keep calling the closure of its first render.
 */
export function useStableCallback<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const ref = useRef(fn);
  useLayoutEffect(() => {
    ref.current = fn;
  });
  return useCallback((...args: A) => ref.current(...args), []);
}
