import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { withApp } from '@/stories/withApp';
import { agentPackageMode, consoleApi, subAccount } from '@/stories/mockApi';
import Home from './Home';

const T = { timeout: 5000 };

const meta = {
  title: 'Pages/Home',
  component: Home,
  decorators: [withApp],
  parameters: { layout: 'padded', msw: { handlers: consoleApi() } },
} satisfies Meta<typeof Home>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Agent: Story = {
  name: '代理商',
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(await c.findByText(`欢迎您，${agentPackageMode.name}`, {}, T)).toBeInTheDocument();
    await expect(c.getByText('a10001')).toBeInTheDocument();
    await expect(c.getByText('代理商')).toBeInTheDocument();
    await expect(c.getByText('产品包账户')).toBeInTheDocument();
    await expect(c.getByText('已认证')).toBeInTheDocument();
    // quick links of the screen table this agent (package mode) may open
    const links = within(c.getByTestId('quick-links'));
    for (const l of ['子账户管理', '自助开户', '客户财务', '公告', '资质认证']) await expect(links.getByText(l)).toBeInTheDocument();
    await expect(links.queryByText('账户余额')).not.toBeInTheDocument();
  },
};

export const SubAccount: Story = {
  name: '子账户（未认证）',
  parameters: { msw: { handlers: consoleApi({ user: { ...subAccount, oauth_status: 1 }, clientOauth: { oauth_status: '未认证' } }) } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(await c.findByText(`欢迎您，${subAccount.name}`, {}, T)).toBeInTheDocument();
    await expect(c.getByText('子账户')).toBeInTheDocument();
    await expect(c.getByText('直充账户')).toBeInTheDocument();
    await expect(c.getByText('未认证')).toBeInTheDocument();
    const links = within(c.getByTestId('quick-links'));
    await expect(links.getByText('账户余额')).toBeInTheDocument();
    await expect(links.queryByText('子账户管理')).not.toBeInTheDocument();
  },
};
