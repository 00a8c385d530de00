/**
 * Paths the spec names without a page of their own (issue 26 item 6): each alias of the screen
 * table opens a declared screen, and through the real routes the parent paths and older names
 * land on their screen with the query string kept.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { http, HttpResponse } from 'msw';
import { AppRoutes } from '@/App';
import { AppProviders } from '@/providers/AppProviders';
import { consoleScreens } from '@/screens';
import { joinPath } from '@/layout/declarations';
import { screenAt } from '@/layout/screens';
import { agentPackageMode, consoleApi } from '@/stories/mockApi';
import { server, useMswServer } from './msw';

useMswServer();
beforeAll(async () => {
  await Promise.all([import('@/layout/ConsoleRoot'), import('@/pages/Home'), import('@/pages/NotFound')]);
}, 120_000);
afterEach(cleanup);

const SLOW = { timeout: 30_000 };
const aliases = consoleScreens.aliases ?? [];

function Where() {
  const l = useLocation();
  return <div data-testid="where">{`${l.pathname}${l.search}`}</div>;
}

describe('screen aliases', () => {
  it('every alias opens a declared screen (not another alias, not Not Found)', () => {
    expect(aliases.length).toBeGreaterThanOrEqual(7);
    for (const a of aliases) {
      const from = a.path.replace(/:[^/]+/g, 'x');
      const target = a.to.startsWith('/') ? a.to : joinPath(from, a.to);
      expect(screenAt(consoleScreens, target), `${a.path} -> ${target}`).toBeDefined();
      expect(screenAt(consoleScreens, from), `${a.path} is a screen itself`).toBeUndefined();
    }
  });

  it.each([
    ['/customer/report', '/customer/report/pre'],
    ['/finance/invoice?x=1', '/finance/invoice/add?x=1'],
    ['/customer/manager/b20001', '/customer/manager/b20001/info'],
    ['/customer/sendrecord', '/customer/sendlayout/sendrecord'],
    ['/customer/deliverlayout', '/customer/deliverlayout/deliver'],
    ['/customer/deliverlayout/timesend/', '/customer/deliverlayout/timingdeliver'],
    ['/customer/selfsevicelayout', '/customer/selfsevicelayout/manager'],
  ])('%s opens %s', { timeout: 60_000 }, async (from, to) => {
    server.use(
      ...consoleApi({ user: agentPackageMode }),
      http.all('*/api/*', () => HttpResponse.json({ code: 0, msg: '成功', data: { list: [], totalCount: 0 } })),
    );
    render(
      <MemoryRouter initialEntries={[from]}>
        <AppProviders>
          <AppRoutes />
        </AppProviders>
        <Where />
      </MemoryRouter>,
    );
    await expect.poll(() => screen.getByTestId('where').textContent, SLOW).toBe(to);
  });
});
