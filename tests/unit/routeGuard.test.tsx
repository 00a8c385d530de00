/**
 * The route guard, through the real app routes (AppRoutes: session check, shell, Refine's
 * accessControlProvider): for each access rule, an account lacking it opens a refused route and
 * gets the 无权访问 page inside the shell, and no call other than the shell's session / user ones
 * is made (the page is never mounted); an account that has it gets the page.
 *
 * The sending rules guard screens that do not exist yet: a table with stand-in sending screens
 * (whose page makes a call on mount) checks them through the same machinery.
 */
import { useEffect } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { http, HttpResponse } from 'msw';
import type { CurrentUser } from '@/generated/schemas';
import { AppRoutes } from '@/App';
import { AppProviders } from '@/providers/AppProviders';
import { get } from '@/providers/http';
import { consoleScreens } from '@/screens';
import type { ScreenTable } from '@/layout/screens';
import {
  agentDirectChargeMode,
  agentPackageMode,
  consoleApi,
  subAccount,
  type ConsoleApiOptions,
} from '@/stories/mockApi';
import { server, useMswServer } from './msw';

useMswServer();

// the lazy chunks, transformed once before the timed tests (slow on a loaded two-core machine)
beforeAll(async () => {
  await Promise.all([
    import('@/layout/ConsoleRoot'),
    import('@/pages/Home'),
    import('@/pages/NotFound'),
    import('@/resources/subaccounts/FinanceList'),
    import('@/resources/subaccounts/OwnBalance'),
    import('@/resources/subaccounts/OpenAccount'),
    import('@/custom-pages/account/CertificationPage'),
    import('@/custom-pages/account/BaseInfoLayout'),
  ]);
}, 120_000);

/** The calls the shell makes for any page: session, user, branding, support contacts, certification status. */
// the layout's own calls (an agent's header asks /onlinePay/config whether to offer 在线充值)
const SHELL = new Set([
  '/api/login/timeout',
  '/api/operator/me',
  '/api/admin/info',
  '/api/loginInfo',
  '/api/supportInfo',
  '/api/admin/baseinfo',
  '/api/client/oauth',
  '/api/onlinePay/config',
]);

let calls: string[] = [];
const onRequest = ({ request }: { request: Request }) => {
  calls.push(new URL(request.url).pathname);
};

beforeEach(() => {
  calls = [];
  server.events.on('request:start', onRequest);
});
afterEach(() => {
  server.events.removeListener('request:start', onRequest);
  cleanup();
});

/** Every call not answered by the shell's handlers: recorded, answered with an empty success. */
const anythingElse = http.all('*/api/*', () =>
  HttpResponse.json({ code: 0, msg: '成功', data: { list: [], totalCount: 0 } }),
);

function open(path: string, api: ConsoleApiOptions, screens?: ScreenTable) {
  server.use(...consoleApi(api), anythingElse);
  render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders>
        <AppRoutes screens={screens} />
      </AppProviders>
    </MemoryRouter>,
  );
}

/** A page's first render can be slow here (lazy chunks, antd in jsdom, a loaded two-core machine). */
const SLOW = { timeout: 30_000 };

/** Waits for the 无权访问 page in the shell, then checks that only shell calls were made. */
async function expectRefused() {
  const page = await screen.findByTestId('forbidden', {}, SLOW);
  expect(within(page).getByText('无权访问')).toBeInTheDocument();
  expect(within(page).getByRole('button', { name: /返回首页/ })).toBeInTheDocument();
  expect(screen.getByTestId('account')).toBeInTheDocument(); // inside the console shell
  await new Promise((r) => setTimeout(r, 200)); // a mounted page would have called by now
  expect(calls.filter((c) => !SHELL.has(c))).toEqual([]);
}

const withCalls = (path: string) => expect.poll(() => calls, SLOW).toContain(path);

describe('route guard: refused routes', { timeout: 90_000 }, () => {
  it('agent-only: a sub-account opening /customer/finance', async () => {
    open('/customer/finance', { user: subAccount });
    await expectRefused();
  });

  it('agent-only, on a nested detail route: a sub-account opening /customer/manager/b1/info', async () => {
    open('/customer/manager/b1/info', { user: subAccount });
    await expectRefused();
  });

  it('sub-account-only: an agent opening /customer/finance/balance', async () => {
    open('/customer/finance/balance', { user: agentPackageMode });
    await expectRefused();
  });

  it('selfServiceOpening: an agent in direct-charge mode opening the self-service open page', async () => {
    open('/customer/selfsevicelayout/manager/open', { user: agentDirectChargeMode });
    await expectRefused();
  });

  it('selfServiceOpening: a sub-account in package mode opening it', async () => {
    open('/customer/selfsevicelayout/manager/open', { user: { ...subAccount, operation_mode: '1' } });
    await expectRefused();
  });

  it('reCertification: a certified agent opening /account/info/base/auth/re', async () => {
    open('/account/info/base/auth/re', { user: agentPackageMode, baseInfo: { oauth_status: 3 } });
    await expectRefused();
  });

  it('reCertification: a sub-account whose certification is pending', async () => {
    open('/account/info/base/auth/re', { user: subAccount, clientOauth: { oauth_status: '待认证' } });
    await expectRefused();
  });

  it('the way home: 返回首页 opens the home page', async () => {
    open('/customer/finance', { user: subAccount });
    await userEvent.click(await screen.findByRole('button', { name: /返回首页/ }, SLOW));
    expect(await screen.findByText(`欢迎您，${subAccount.name}`, {}, SLOW)).toBeInTheDocument();
    expect(screen.queryByTestId('forbidden')).not.toBeInTheDocument();
  });
});

describe('route guard: allowed routes get their page', { timeout: 90_000 }, () => {
  it('an agent opens /customer/finance (the list calls its endpoint)', async () => {
    open('/customer/finance', { user: agentDirectChargeMode });
    await withCalls('/api/recharge/rollback/getAccounts');
    expect(screen.queryByTestId('forbidden')).not.toBeInTheDocument();
  });

  it('a sub-account opens its balance', async () => {
    open('/customer/finance/balance', { user: subAccount });
    await screen.findByTestId('own-balance', {}, SLOW);
    expect(screen.queryByTestId('forbidden')).not.toBeInTheDocument();
  });

  it('an agent in package mode opens the self-service open page', async () => {
    open('/customer/selfsevicelayout/manager/open', { user: agentPackageMode });
    expect(await screen.findByRole('button', { name: /确认开户/ }, SLOW)).toBeInTheDocument();
    expect(screen.queryByTestId('forbidden')).not.toBeInTheDocument();
  });

  it('an agent whose certification was refused opens the re-certification form', async () => {
    open('/account/info/base/auth/re', {
      user: agentPackageMode,
      baseInfo: { oauth_status: 4, oauth_remark: '营业执照图片不清晰' },
    });
    await withCalls('/api/admin/cer/info');
    expect(screen.queryByTestId('forbidden')).not.toBeInTheDocument();
  });
});

describe('route guard: sending rules by phone_inout_type', { timeout: 90_000 }, () => {
  /** A stand-in sending page: it calls the server as soon as it is mounted. */
  const probe = (name: string) =>
    function SendProbe() {
      useEffect(() => {
        get(`/probe/${name}`).catch(() => undefined);
      }, []);
      return <div data-testid="send-page">{name}</div>;
    };
  const table: ScreenTable = {
    // the real table's send pages replaced by probes (they mount nothing heavy)
    groups: consoleScreens.groups,
    screens: [
      ...consoleScreens.screens.filter((s) => s.name !== 'sms_deliver' && s.name !== 'sms_internaldeliver'),
      {
        name: 'sms_deliver',
        path: '/customer/deliverlayout/deliver',
        label: '普通短信',
        page: probe('deliver'),
        access: 'domesticSending',
        menu: 'send',
      },
      {
        name: 'sms_internaldeliver',
        path: '/customer/deliverlayout/internaldeliver',
        label: '国际短信',
        page: probe('internaldeliver'),
        access: 'internationalSending',
        menu: 'send',
      },
    ],
  };
  const client = (phone_inout_type: CurrentUser['phone_inout_type']): CurrentUser => ({
    ...subAccount,
    phone_inout_type,
  });

  it('domesticSending: an international-only sub-account (1) opening the domestic send page', async () => {
    open('/customer/deliverlayout/deliver', { user: client(1) }, table);
    await expectRefused();
    // the menu offers only what it may open
    const menu = screen.getByRole('menu', { name: '主菜单' });
    await userEvent.click(within(menu).getByText('短信发送'));
    expect(await within(menu).findByText('国际短信')).toBeInTheDocument();
    expect(within(menu).queryByText('普通短信')).not.toBeInTheDocument();
  });

  it('internationalSending: a domestic-only sub-account (0) opening the international send page', async () => {
    open('/customer/deliverlayout/internaldeliver', { user: client(0) }, table);
    await expectRefused();
  });

  it('both (2): each send page is mounted', async () => {
    open('/customer/deliverlayout/internaldeliver', { user: client(2) }, table);
    expect(await screen.findByTestId('send-page', {}, SLOW)).toHaveTextContent('internaldeliver');
    await withCalls('/api/probe/internaldeliver');
  });

  it('an agent opens the domestic send page whatever its phone_inout_type', async () => {
    open('/customer/deliverlayout/deliver', { user: { ...agentPackageMode, phone_inout_type: 1 } }, table);
    expect(await screen.findByTestId('send-page', {}, SLOW)).toHaveTextContent('deliver');
  });
});

describe('unknown routes', { timeout: 90_000 }, () => {
  it('a logged-in user gets Not Found inside the shell', async () => {
    open('/no/such/page', { user: agentPackageMode });
    expect(await screen.findByText('Not Found', {}, SLOW)).toBeInTheDocument();
    expect(await screen.findByTestId('account')).toBeInTheDocument();
  });

  it('without a session: Not Found alone, no redirect to the login page', async () => {
    open('/no/such/page', { user: null });
    expect(await screen.findByText('Not Found', {}, SLOW)).toBeInTheDocument();
    expect(screen.queryByTestId('account')).not.toBeInTheDocument();
  });
});
