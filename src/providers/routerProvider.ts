/**
 * Refine's react-router binding, with one change: what `parse` reports as `params` leaves out the
 * address bar's query string (the route's own parameters, `id` and `*`, stay, and `to`, Refine's
 * redirect after login).
 *
 * Refine puts `params` into the meta of every data hook (useMeta), and the meta is part of each
 * query's key. The lists write their filters, page and page size into the address bar after their
 * first call (useSchemaList, listUrl.ts), so that first answer was keyed under the old address and
 * every list was asked twice on opening and twice on each search. The console's data hooks take
 * their parameters from their own state, never from the address bar through Refine, and a link can
 * no longer slip values into a request's meta (the data provider sends `meta.params`).
 */
import { useCallback } from 'react';
import { useLocation } from 'react-router';
import type { RouterProvider } from '@refinedev/core';
import routerBindings from '@refinedev/react-router';

/** the top-level names of a query string (`filters[0][field]=…` → `filters`) */
function queryNames(search: string): Set<string> {
  return new Set([...new URLSearchParams(search).keys()].map((k) => k.replace(/\[.*$/, '')));
}

/** Refine's `parse` (a hook, as Refine calls it) without the query string's names in `params` */
function useParseWithoutQuery() {
  const parse = routerBindings.parse!();
  const { search } = useLocation();
  return useCallback(() => {
    const parsed = parse();
    const fromQuery = queryNames(search);
    const params = Object.fromEntries(
      Object.entries(parsed.params ?? {}).filter(([k, v]) => v !== undefined && (k === 'to' || !fromQuery.has(k))),
    );
    return { ...parsed, params };
  }, [parse, search]);
}

export const routerProvider: RouterProvider = { ...routerBindings, parse: useParseWithoutQuery };
