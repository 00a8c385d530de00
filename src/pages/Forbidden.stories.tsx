import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { T, withApp } from '@/stories/withApp';
import { consoleApi, subAccount } from '@/stories/mockApi';
import ConsoleLayout from '@/layout/ConsoleLayout';
import { RequireSession } from '@/layout/ConsoleRoot';
import Forbidden from './Forbidden';

const meta = {
  title: 'Pages/Forbidden',
  component: Forbidden,
  decorators: [withApp],
  parameters: { layout: 'padded', msw: { handlers: consoleApi() } },
} satisfies Meta<typeof Forbidden>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  name: '无权访问',
  parameters: { app: { path: '/customer/finance' } },
  play: async ({ canvas: c }) => {
    await expect(c.getByText('无权访问')).toBeInTheDocument();
    await expect(c.getByRole('button', { name: /返回首页/ })).toBeInTheDocument();
  },
};

/**
 * What a sub-account gets at an agent's screen: the shell with the route guard's answer in the
 * content area (the layout's own route outlet, guarded as in the app), and the way home.
 */
export const InTheShell: Story = {
  name: '子账户打开代理商页面（在控制台内）',
  parameters: { app: { path: '/customer/finance' }, msw: { handlers: consoleApi({ user: subAccount }) } },
  render: () => (
    <RequireSession>
      <ConsoleLayout />
    </RequireSession>
  ),
  play: async ({ canvas: c }) => {
    const page = await c.findByTestId('forbidden', {}, T);
    await expect(within(page).getByText('无权访问')).toBeInTheDocument();
    await expect(within(c.getByTestId('account')).getByText('子账户')).toBeInTheDocument();
    // the menu offers only what this account may open
    await expect(within(c.getByRole('menu')).queryByText('客户管理')).not.toBeInTheDocument();
    await userEvent.click(within(page).getByRole('button', { name: /返回首页/ }));
    await expect(c.queryByTestId('forbidden')).not.toBeInTheDocument();
  },
};

/** A direct-charge agent at a package screen: why (it pays per message) and where to go instead. */
export const Explained: Story = {
  name: '说明原因并给出去处（直充账户）',
  args: {
    reason:
      '直充账户按条计费：每次发送从账户余额直接扣款，不购买短信套餐，因此没有购买短信、剩余条数、短信账单和返点账单。',
    go: { label: '前往自有账单', link: '/finance/own' },
  },
  play: async ({ canvas: c }) => {
    await expect(c.getByTestId('forbidden-reason')).toHaveTextContent('直充账户按条计费');
    await expect(c.getByRole('button', { name: '前往自有账单' })).toBeInTheDocument();
    await expect(c.getByRole('button', { name: /返回首页/ })).toBeInTheDocument();
  },
};
