/** Stories and tests of the public pages: the page under test at `path`, any other path shows where it went. */
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';

function Elsewhere() {
  const { pathname, search } = useLocation();
  return <div data-testid="navigated">已跳转到 {pathname + search}</div>;
}

export function PageRouter({ path, entry = path, children }: { path: string; entry?: string; children: ReactNode }) {
  return (
    <MemoryRouter initialEntries={[entry]}>
      <Routes>
        <Route path={path} element={children} />
        <Route path="*" element={<Elsewhere />} />
      </Routes>
    </MemoryRouter>
  );
}
