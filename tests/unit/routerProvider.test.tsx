/**
 * The console's router binding (src/providers/routerProvider.ts): Refine's parse without the
 * address bar's query in `params` (Refine keys every data query by them, and the lists write their
 * filters there after their first call), the route's own parameters and `to` kept.
 */
import type { ReactNode } from 'react';
import { renderHook } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routerProvider } from '@/providers/routerProvider';

const at =
  (url: string) =>
  ({ children }: { children: ReactNode }) => (
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/customer/:id/*" element={children} />
      </Routes>
    </MemoryRouter>
  );

describe('routerProvider.parse', () => {
  it('reports the route’s parameters and `to`, not the filters in the query string', () => {
    const { result } = renderHook(() => routerProvider.parse!()(), {
      wrapper: at('/customer/42/info?start_time=2026-09-08&status=1&filters[0][field]=x&to=%2Fsend'),
    });
    expect(result.current.pathname).toBe('/customer/42/info');
    expect(result.current.params).toEqual({ id: '42', '*': 'info', to: '/send' });
  });

  it('is the same with and without a query string, so a list’s query key does not change when it writes one', () => {
    const bare = renderHook(() => routerProvider.parse!()(), { wrapper: at('/customer/7/list') }).result.current;
    const written = renderHook(() => routerProvider.parse!()(), {
      wrapper: at('/customer/7/list?beginDate=2026-09-08&endDate=2026-12-06&current=2'),
    }).result.current;
    expect(written.params).toEqual(bare.params);
  });
});
