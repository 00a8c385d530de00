/**
 * The operator console through the real app routes (AppRoutes: /ops/* is its own route tree, its
 * own Refine, auth provider and shell): an operator's session never mounts the accounts' console
 * (no account route is called: its 401 would log the operator out) and lands on /ops; an account's
 * session at /ops goes to "/"; the menu and the route guard follow the operator's role (named
 * rules: operator, operatorAudit, operatorAdmin), a refused screen is never mounted.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router';
import { http, HttpResponse } from 'msw';
import type { Operator } from '@/generated/schemas';
import { AppRoutes } from '@/App';
import { AppProviders } from '@/providers/AppProviders';
import { resetSessionSeen } from '@/providers/authProvider';
import { resetOpsSession } from '@/ops/authProvider';
import { agentPackageMode, consoleApi } from '@/stories/mockApi';
import { admin, operations, opsApi, reviewer } from '@/stories/opsApi';
import { server, useMswServer } from './msw';

useMswServer();

beforeAll(async () => {
  await Promise.all([
    import('@/ops/OpsRoutes'),
    import('@/ops/OpsRoot'),
    import('@/ops/home/OpsHome'),
    import('@/ops/audit/AuditLog'),
    import('@/ops/customers/CustomerList'),
    import('@/ops/operators/OperatorList'),
    import('@/ConsoleRoutes'),
    import('@/layout/ConsoleRoot'),
    import('@/pages/Home'),
  ]);
}, 120_000);

let calls: string[] = [];
const onRequest = ({ request }: { request: Request }) => {
  calls.push(`${request.method} ${new URL(request.url).pathname}`);
};
beforeEach(() => {
  calls = [];
  server.events.on('request:start', onRequest);
});
afterEach(() => {
  server.events.removeListener('request:start', onRequest);
  cleanup();
  resetSessionSeen();
  resetOpsSession();
});

const SLOW = { timeout: 30_000 };

/** every other call answered with an empty success */
const anythingElse = http.all('*/api/*', () =>
  HttpResponse.json({ code: 0, msg: '成功', data: { list: [], totalCount: 0 } }),
);

function Where() {
  const { pathname, search } = useLocation();
  return <div data-testid="where">{`${pathname}${search}`}</div>;
}

function open(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders>
        <AppRoutes />
        <Where />
      </AppProviders>
    </MemoryRouter>,
  );
}

const asOperator = (operator: Operator) => server.use(...opsApi({ operator }), anythingElse);
/** an account route called: what would log an operator out */
const accountCalls = () => calls.filter((c) => /\/api\/(admin|client|agent|supportInfo|onlinePay|logout)/.test(c));

describe('an operator’s session', { timeout: 90_000 }, () => {
  it('opening "/" lands on /ops without one account call', async () => {
    asOperator(reviewer);
    open('/');
    expect(await screen.findByText('欢迎您，reviewer1', {}, SLOW)).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/ops$/);
    expect(within(screen.getByTestId('operator')).getByText('审核员')).toBeInTheDocument();
    expect(accountCalls()).toEqual([]);
  });

  it('opening an account screen lands on /ops too', async () => {
    asOperator(operations);
    open('/customer/finance');
    expect(await screen.findByText('欢迎您，operator1', {}, SLOW)).toBeInTheDocument();
    expect(accountCalls()).toEqual([]);
  });

  it('审核员: the menu has 审核 with its counts, no 审计日志 nor 运营人员; /ops/audit is refused, its page never mounted', async () => {
    asOperator(reviewer);
    open('/ops/audit');
    const page = await screen.findByTestId('forbidden', {}, SLOW);
    expect(within(page).getByTestId('forbidden-reason')).toHaveTextContent('此页面仅供运营、管理员使用。');
    const menu = screen.getByRole('menu', { name: '主菜单' });
    expect(within(menu).getByText('资质认证')).toBeInTheDocument();
    expect(within(menu).queryByText('审计日志')).not.toBeInTheDocument();
    expect(within(menu).queryByText('客户')).not.toBeInTheDocument();
    expect(within(menu).queryByText('运营人员')).not.toBeInTheDocument();
    expect(await within(menu).findByTestId('menu-count-ops_review_templates', {}, SLOW)).toHaveTextContent('4');
    // the group: the sum of its entries (3 + 2 + 4 + 1)
    expect(within(menu).getByTestId('menu-count-review')).toHaveTextContent('10');
    await new Promise((r) => setTimeout(r, 200));
    expect(calls).not.toContain('POST /api/operator/audit/list');
    // 返回首页: the operator console's home
    await userEvent.click(within(page).getByRole('button', { name: /返回首页/ }));
    expect(await screen.findByText('欢迎您，reviewer1', {}, SLOW)).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/ops$/);
  });

  it('运营 opens 审计日志 and 客户 (not 运营人员)', async () => {
    asOperator(operations);
    open('/ops/audit');
    await expect.poll(() => calls, SLOW).toContain('POST /api/operator/audit/list');
    const menu = screen.getByRole('menu', { name: '主菜单' });
    expect(within(menu).getByText('审计日志')).toBeInTheDocument();
    await userEvent.click(within(menu).getByText('客户'));
    await expect.poll(() => calls, SLOW).toContain('POST /api/operator/customers/list');
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/ops\/customers/);
    expect(within(menu).queryByText('运营人员')).not.toBeInTheDocument();
  });

  it('管理员 opens 运营人员', async () => {
    asOperator(admin);
    open('/ops/operators');
    await expect.poll(() => calls, SLOW).toContain('GET /api/operator/operators/list');
    expect(within(screen.getByRole('menu', { name: '主菜单' })).getByText('运营人员')).toBeInTheDocument();
  });

  it('an unknown /ops path: Not Found in the operator shell, 返回首页 to /ops', async () => {
    asOperator(reviewer);
    open('/ops/no/such/page');
    expect(await screen.findByText('Not Found', {}, SLOW)).toBeInTheDocument();
    expect(await screen.findByTestId('operator', {}, SLOW)).toBeInTheDocument();
  });

  it('logout posts /logout and goes to the login page', async () => {
    asOperator(reviewer);
    open('/ops');
    const header = await screen.findByTestId('operator', {}, SLOW);
    await userEvent.click(within(header).getByRole('button', { name: /退出登录/ }));
    await expect.poll(() => screen.getByTestId('where').textContent, SLOW).toBe('/login');
    expect(calls).toContain('POST /api/logout');
  });
});

describe('no session, or an account’s', { timeout: 90_000 }, () => {
  it('no session at /ops/review/signs: the login page, back there afterwards', async () => {
    server.use(...opsApi({ operator: null }), anythingElse);
    open('/ops/review/signs');
    await expect
      .poll(() => screen.getByTestId('where').textContent, SLOW)
      .toBe('/login?redirect=%2Fops%2Freview%2Fsigns');
  });

  it('an account’s session at /ops goes to "/"', async () => {
    server.use(...consoleApi({ user: agentPackageMode }), anythingElse);
    open('/ops');
    expect(await screen.findByText(`欢迎您，${agentPackageMode.name}`, {}, SLOW)).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/);
    expect(calls.filter((c) => c.startsWith('POST /api/operator/') || c.includes('/operator/review'))).toEqual([]);
  });
});
