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
import { rulesOf, screenAt } from '@/layout/screens';
import { managerAuthPath } from '@/resources/subaccounts';
import { CertType, OauthStatus } from '@/generated/schemas';
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

describe('the named route customer_manager_auth (spec 01; issue 41 item 12)', () => {
  it('is the detail’s certification tab: param id, query status and type', () => {
    expect(screenAt(consoleScreens, '/customer/manager/b20001/auth')?.screen.name).toBe('customer_manager_auth');
    expect(screenAt(consoleScreens, '/customer/manager/b20001/auth/re')?.screen.name).toBe('customer_manager_auth');
    expect(screenAt(consoleScreens, '/customer/manager/b20001/info')?.screen.name).toBe('customer_manager');
    expect(managerAuthPath('b20001', { status: OauthStatus.Uncertified, type: CertType.Enterprise })).toBe(
      '/customer/manager/b20001/auth?status=1&type=2',
    );
    expect(managerAuthPath('a b')).toBe('/customer/manager/a%20b/auth');
    expect(rulesOf(consoleScreens, 'customer_manager_auth')).toEqual(['agent']);
  });
});

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
    // spec 01: the second (post) entry of customer/report (issue 41 item 12: it was Not Found)
    ['/customer/report/post?x=1', '/customer/deliverlayout/customer/report/post?x=1'],
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
