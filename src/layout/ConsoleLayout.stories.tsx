import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { delay, http } from 'msw';
import { T, body, withApp } from '@/stories/withApp';
import {
  agentDirectChargeMode,
  agentPackageMode,
  consoleApi,
  ok,
  sessionTimeout,
  subAccount,
  msw,
} from '@/stories/mockApi';
import { payApi } from '@/stories/payApi';
import { reportsApi } from '@/stories/reportsApi';
import Home from '@/pages/Home';
import CertificationPage from '@/custom-pages/account/CertificationPage';
import { accountApi, certNone } from '@/custom-pages/account/stories/accountMocks';
import ConsoleLayout from './ConsoleLayout';
import { RequireSession } from './ConsoleRoot';

/** The shell's calls and the home page's (the layout opens on 首页), so nothing passes through to a real server. */
const shellAndHome = (opts?: Parameters<typeof consoleApi>[0]) => [...consoleApi(opts), ...reportsApi(), ...payApi()];
/** a story's parameters answering the shell's and the home page's calls for `opts` */
const shell = (opts?: Parameters<typeof consoleApi>[0]) => msw(...shellAndHome(opts));

/** The protected composition as the app uses it: session check, layout, home page inside. */
const meta = {
  title: 'Shell/ConsoleLayout',
  component: ConsoleLayout,
  decorators: [withApp],
  render: (args) => (
    <RequireSession>
      <ConsoleLayout {...args}>
        <Home />
      </ConsoleLayout>
    </RequireSession>
  ),
  // the menu open, as at 1440 px (the test browser's window is narrower than 1280 px)
  args: { menuCollapsed: false },
  parameters: { msw: { handlers: shellAndHome() } },
} satisfies Meta<typeof ConsoleLayout>;
export default meta;
type Story = StoryObj<typeof meta>;

export const AgentPackageMode: Story = {
  name: '代理商（产品包账户）',
  play: async ({ canvas: c }) => {
    const account = await c.findByTestId('account', {}, T);
    await expect(within(account).getByText('代理商')).toBeInTheDocument();
    await expect(within(account).getByText('（a10001）')).toBeInTheDocument();
    await expect(await c.findByText('欢迎您，深圳市云讯通信有限公司', {}, T)).toBeInTheDocument();
    await expect(c.getByText('产品包账户')).toBeInTheDocument();
    await expect(await c.findByText('Copyright © 2026 深圳市云讯通信有限公司 版权所有', {}, T)).toBeInTheDocument();
    await expect(c.getByTestId('platform-name')).toHaveTextContent('云讯短信平台');
    await expect(within(c.getByRole('menu')).getByText('首页')).toBeInTheDocument();
    await expect(c.getByRole('button', { name: /退出登录/ })).toBeInTheDocument();
    await expect(c.queryByTestId('certification-banner')).not.toBeInTheDocument();
  },
};

/** Issue 41: below 1280 px the side menu starts collapsed (icons only); its toggle opens it. */
export const NarrowWindowMenuCollapsed: Story = {
  name: '窗口窄于 1280 px：菜单收起',
  args: { menuCollapsed: true },
  play: async ({ canvas: c, canvasElement }) => {
    await c.findByTestId('account', {}, T);
    const menu = c.getByTestId('side-menu');
    await expect(menu).toHaveAttribute('data-collapsed', 'true');
    await expect(c.queryByTestId('platform-name')).not.toBeInTheDocument();
    await userEvent.click(canvasElement.querySelector<HTMLElement>('.ant-layout-sider-trigger')!);
    await waitFor(() => expect(menu).toHaveAttribute('data-collapsed', 'false'), T);
    await expect(c.getByTestId('platform-name')).toBeInTheDocument();
  },
};

/** 在线充值 in the header: agents, when the platform offers it (isOpenPay = 1) */
export const OnlineRechargeOffered: Story = {
  name: '代理商：在线充值',
  parameters: msw(...payApi({ isOpenPay: 1 }), ...shellAndHome()),
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('online-recharge', {}, T)).toHaveTextContent('在线充值');
  },
};

export const AgentDirectChargeMode: Story = {
  name: '代理商（直充账户）',
  parameters: shell({ user: agentDirectChargeMode }),
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('欢迎您，杭州信达网络科技有限公司', {}, T)).toBeInTheDocument();
    await expect(c.getByText('直充账户')).toBeInTheDocument();
    await expect(within(c.getByTestId('account')).getByText('代理商')).toBeInTheDocument();
  },
};

export const SubAccount: Story = {
  name: '子账户',
  parameters: shell({ user: subAccount }),
  play: async ({ canvas: c }) => {
    const account = await c.findByTestId('account', {}, T);
    await expect(within(account).getByText('子账户')).toBeInTheDocument();
    await expect(within(account).getByText('（b20001）')).toBeInTheDocument();
    await expect(await c.findByText('欢迎您，上海优品电商有限公司', {}, T)).toBeInTheDocument();
  },
};

export const NotCertified: Story = {
  name: '未认证提示',
  parameters: shell({ baseInfo: { oauth_status: '未认证' } }),
  play: async ({ canvas: c }) => {
    const banner = await c.findByTestId('certification-banner', {}, T);
    await expect(banner).toHaveTextContent('您还未进行资质认证，认证通过后才能发送短信，');
    await expect(within(banner).getByRole('link', { name: '立即认证' })).toHaveAttribute(
      'href',
      '/account/info/base/auth',
    );
  },
};

export const PendingCertification: Story = {
  name: '待认证提示（子账户）',
  parameters: shell({ user: subAccount, clientOauth: { oauth_status: '待认证' } }),
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('certification-banner', {}, T)).toHaveTextContent(
      '您的认证资料正在审核中，审核通过后才能发送短信',
    );
  },
};

export const CertificationRejected: Story = {
  name: '认证不通过',
  parameters: shell({ baseInfo: { oauth_status: 4, oauth_remark: '营业执照图片不清晰' } }),
  play: async ({ canvas: c }) => {
    const banner = await c.findByTestId('certification-banner', {}, T);
    await expect(banner).toHaveTextContent('原因：营业执照图片不清晰');
    await expect(within(banner).getByRole('link', { name: '重新认证' })).toHaveAttribute(
      'href',
      '/account/info/base/auth/re',
    );
  },
};

export const SupportPanelOpen: Story = {
  name: '在线客服面板',
  play: async ({ canvas: c }) => {
    await c.findByTestId('account', {}, T);
    await userEvent.click(c.getByRole('button', { name: '在线客服' }));
    const page = body();
    await expect(await page.findByText('售前咨询', {}, T)).toBeInTheDocument();
    await expect(page.getByText('技术支持')).toBeInTheDocument();
    await expect(page.getByRole('link', { name: /QQ：800012345/ })).toHaveAttribute(
      'href',
      'tencent://message/?uin=800012345',
    );
    await expect(page.getByText(/手机：13900001111/)).toBeInTheDocument();
    await expect(page.getByRole('link', { name: /sales@yunxun\.example/ })).toHaveAttribute(
      'href',
      'mailto:sales@yunxun.example',
    );
  },
};

const timeoutParameters = {
  app: { path: '/?from=menu' },
  ...msw(http.get('/api/admin/baseinfo', sessionTimeout), ...shellAndHome()),
};

export const SessionTimeout: Story = {
  name: '登录超时遮罩',
  parameters: timeoutParameters,
  play: async ({ canvas: c }) => {
    const overlay = await c.findByRole('alertdialog', { name: '登录超时' }, T);
    await expect(within(overlay).getByText('登录超时')).toBeInTheDocument();
    await expect(within(overlay).getByRole('button', { name: /重新登录/ })).toBeEnabled();
  },
};

export const SessionTimeoutRelogin: Story = {
  name: '登录超时后重新登录',
  parameters: timeoutParameters,
  play: async ({ canvas: c }) => {
    const overlay = await c.findByRole('alertdialog', { name: '登录超时' }, T);
    await userEvent.click(within(overlay).getByRole('button', { name: /重新登录/ }));
    await expect(await c.findByTestId('login-stand-in', {}, T)).toHaveTextContent(
      '登录页 /login?redirect=%2F%3Ffrom%3Dmenu',
    );
  },
};

export const NoSession: Story = {
  name: '未登录时跳转登录页',
  parameters: { app: { path: '/notice/notice?page=2' }, ...shell({ user: null }) },
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('login-stand-in', {}, T)).toHaveTextContent(
      '登录页 /login?redirect=%2Fnotice%2Fnotice%3Fpage%3D2',
    );
  },
};

export const Logout: Story = {
  name: '退出登录',
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByRole('button', { name: /退出登录/ }, T));
    await waitFor(() => expect(c.getByTestId('login-stand-in')).toHaveTextContent('登录页 /login'), T);
  },
};

/** Issue 41 item 1: each browser tab says which screen it shows: "<screen label> - <brand>". */
export const TabTitle: Story = {
  name: '标签页标题：页面名称 - 平台名称',
  parameters: { app: { path: '/customer/deliverlayout/smstask' } },
  play: async ({ canvasElement }) => {
    await within(canvasElement).findByTestId('account', {}, T);
    await waitFor(() => expect(document.title).toBe('发送任务 - 云讯短信平台'), T);
  },
};

/**
 * Issue 41 item 1: until GET /loginInfo answers, the name is the one the server wrote into the
 * page (<meta name="application-name">), not a built-in one: nothing flips once it answers.
 */
export const BrandBeforeLoginInfo: Story = {
  name: '品牌信息加载前：显示页面中服务器写入的平台名称',
  parameters: msw(
    http.get('/api/loginInfo', () => delay('infinite')),
    ...shellAndHome(),
  ),
  beforeEach: () => {
    const meta = document.createElement('meta');
    meta.name = 'application-name';
    meta.content = '优信短信平台';
    document.head.append(meta);
    return () => meta.remove();
  },
  play: async ({ canvas: c }) => {
    await c.findByTestId('account', {}, T);
    await expect(c.getByTestId('platform-name')).toHaveTextContent('优信短信平台');
    await waitFor(() => expect(document.title).toBe('首页 - 优信短信平台'), T);
  },
};

/**
 * Issue 41 item 3: an approval while the console is open shows without a reload: while 待认证 the
 * shell asks again (every 30 s, here 300 ms), and once the status has changed every query is
 * asked again (the identity among them).
 */
let baseInfoCalls = 0;
let identityCalls = 0;
export const CertificationApprovedWhileOpen: Story = {
  name: '待认证期间审核通过：无需刷新即更新',
  args: { certificationPollMs: 300 },
  parameters: msw(
    http.get('/api/admin/baseinfo', () => {
      baseInfoCalls++;
      return ok({
        agent_id: 'a10001',
        agent_name: '深圳市云讯通信有限公司',
        oauth_status: baseInfoCalls <= 2 ? '待认证' : 3,
      });
    }),
    http.get('/api/admin/info', () => {
      identityCalls++;
      return ok(agentPackageMode);
    }),
    ...shellAndHome(),
  ),
  beforeEach: () => {
    baseInfoCalls = 0;
    identityCalls = 0;
  },
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('certification-banner', {}, T)).toHaveTextContent('您的认证资料正在审核中');
    const before = identityCalls;
    await waitFor(() => expect(c.queryByTestId('certification-banner')).not.toBeInTheDocument(), { timeout: 8000 });
    await expect(baseInfoCalls).toBeGreaterThanOrEqual(3);
    // the change refetched the rest: the identity (its oauth_status, the access rules) among them
    await waitFor(() => expect(identityCalls).toBeGreaterThan(before), T);
    // certified: no more polling
    const settled = baseInfoCalls;
    await new Promise((r) => setTimeout(r, 1000));
    await expect(baseInfoCalls).toBeLessThanOrEqual(settled + 1);
  },
};

/**
 * Issue 41 item 4: the certification screen says 未认证 itself (and is where the banner's link
 * goes): the layout's banner stays away, one prompt shows, not two.
 */
export const CertificationScreenOnePrompt: Story = {
  name: '资质认证页：只显示一条未认证提示',
  parameters: {
    app: { path: '/account/info/base/auth' },
    ...msw(...accountApi({ cert: certNone }), ...shellAndHome()),
  },
  render: (args) => (
    <RequireSession>
      <ConsoleLayout {...args}>
        <CertificationPage />
      </ConsoleLayout>
    </RequireSession>
  ),
  play: async ({ canvas: c }) => {
    await c.findByTestId('certification-form', {}, T);
    await expect(c.getAllByText(/您还未进行资质认证/)).toHaveLength(1);
    await expect(c.queryByTestId('certification-banner')).not.toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('资质认证 - 云讯短信平台'), T);
  },
};
