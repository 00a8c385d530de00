import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { T, withApp } from '@/stories/withApp';
import { admin, operations, opsApi, opsAt } from '@/stories/opsApi';
import { enumLabel } from '@/schema';
import { OperatorRole } from '@/generated/schemas';
import { RequireSession } from '@/layout/RequireSession';
import OpsHome from './home/OpsHome';
import OpsLayout from './OpsLayout';

/** The protected composition as the app uses it: session check, the shell, 工作台 inside. */
const meta = {
  title: 'Ops/Shell/OpsLayout',
  component: OpsLayout,
  decorators: [withApp],
  render: (args) => (
    <RequireSession>
      <OpsLayout {...args}>
        <OpsHome />
      </OpsLayout>
    </RequireSession>
  ),
  // the menu open, as at 1440 px (the test browser's window is narrower than 1280 px)
  args: { menuCollapsed: false },
  parameters: { app: opsAt('ops_home'), msw: { handlers: opsApi() } },
} satisfies Meta<typeof OpsLayout>;
export default meta;
type Story = StoryObj<typeof meta>;

const menuOf = (c: ReturnType<typeof within>) => within(c.getByRole('menu', { name: '主菜单' }));

export const Reviewer: Story = {
  name: '审核员',
  play: async ({ canvas: c }) => {
    const header = await c.findByTestId('operator', {}, T);
    await expect(within(header).getByText(enumLabel('operator-role', OperatorRole.Reviewer)!)).toBeInTheDocument();
    await expect(within(header).getByText('reviewer1')).toBeInTheDocument();
    await expect(within(header).getByRole('button', { name: /退出登录/ })).toBeInTheDocument();
    await expect(c.getByTestId('platform-name')).toHaveTextContent('云讯短信平台');
    await expect(c.getByText('运营后台')).toBeInTheDocument();
    const menu = menuOf(c);
    for (const label of ['工作台', '审核', '资质认证', '签名', '模板', '发票'])
      await expect(menu.getByText(label)).toBeInTheDocument();
    await expect(menu.queryByText('审计日志')).toBeNull();
    await expect(menu.queryByText('客户')).toBeNull();
    await expect(menu.queryByText('运营人员')).toBeNull();
    // the pending counts beside the entries, their sum beside the group
    await expect(await menu.findByTestId('menu-count-ops_review_certifications', {}, T)).toHaveTextContent('3');
    await expect(menu.getByTestId('menu-count-ops_review_invoices')).toHaveTextContent('1');
    await expect(menu.getByTestId('menu-count-review')).toHaveTextContent('10');
    await expect(await c.findByText('Copyright © 2026 深圳市云讯通信有限公司 版权所有', {}, T)).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('工作台 - 云讯短信平台'), T);
  },
};

export const Operations: Story = {
  name: '运营：审计日志',
  parameters: { msw: { handlers: opsApi({ operator: operations }) } },
  play: async ({ canvas: c }) => {
    await expect(
      within(await c.findByTestId('operator', {}, T)).getByText(enumLabel('operator-role', OperatorRole.Operations)!),
    ).toBeInTheDocument();
    await expect(menuOf(c).getByText('审计日志')).toBeInTheDocument();
    await expect(menuOf(c).getByText('客户')).toBeInTheDocument();
    await expect(menuOf(c).queryByText('运营人员')).toBeNull();
  },
};

export const Admin: Story = {
  name: '管理员：全部',
  parameters: { msw: { handlers: opsApi({ operator: admin }) } },
  play: async ({ canvas: c }) => {
    await expect(
      within(await c.findByTestId('operator', {}, T)).getByText(enumLabel('operator-role', OperatorRole.Admin)!),
    ).toBeInTheDocument();
    await expect(menuOf(c).getByText('审计日志')).toBeInTheDocument();
    await expect(menuOf(c).getByText('运营人员')).toBeInTheDocument();
  },
};

/** Nothing waits: no badge. */
export const NothingPending: Story = {
  name: '无待审核：无角标',
  parameters: { msw: { handlers: opsApi({ counts: { certifications: 0, signs: 0, templates: 0, invoices: 0 } }) } },
  play: async ({ canvas: c }) => {
    await c.findByTestId('operator', {}, T);
    await expect(await c.findAllByText('暂无待审核', {}, T)).toHaveLength(4);
    await expect(menuOf(c).queryByTestId('menu-count-review')).toBeNull();
  },
};

/** The counts cannot be had: the menu shows no badge, no toast. */
export const CountsFailed: Story = {
  name: '待审核数量获取失败',
  parameters: { msw: { handlers: opsApi({ counts: 'error' }) } },
  play: async ({ canvas: c }) => {
    await c.findByTestId('operator', {}, T);
    await new Promise((r) => setTimeout(r, 500));
    await expect(menuOf(c).queryByTestId('menu-count-review')).toBeNull();
    await expect(within(document.body).queryByText('服务器繁忙，请稍后再试')).toBeNull();
  },
};

/** A 审核员 at 审计日志: the route guard's answer in the shell, why, and the way home. */
export const Refused: Story = {
  name: '审核员打开审计日志：无权访问',
  parameters: { app: opsAt('ops_audit') },
  render: (args) => (
    <RequireSession>
      <OpsLayout {...args} />
    </RequireSession>
  ),
  play: async ({ canvas: c }) => {
    const page = await c.findByTestId('forbidden', {}, T);
    await expect(within(page).getByTestId('forbidden-reason')).toHaveTextContent('此页面仅供运营、管理员使用。');
    await expect(within(page).getByRole('button', { name: /返回首页/ })).toBeInTheDocument();
  },
};

export const Logout: Story = {
  name: '退出登录',
  play: async ({ canvas: c }) => {
    await userEvent.click(within(await c.findByTestId('operator', {}, T)).getByRole('button', { name: /退出登录/ }));
    await expect(await c.findByTestId('login-stand-in', {}, T)).toHaveTextContent('登录页 /login');
  },
};

export const NoSession: Story = {
  name: '未登录：去登录页',
  parameters: { app: opsAt('ops_review_signs'), msw: { handlers: opsApi({ operator: null }) } },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByTestId('login-stand-in', {}, T)).toHaveTextContent(
      '登录页 /login?redirect=%2Fops%2Freview%2Fsigns',
    );
  },
};
