import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { withApp } from '@/stories/withApp';
import { consoleApi, subAccount } from '@/stories/mockApi';
import { remainRows, reportsApi } from '@/stories/reportsApi';
import type { Calls } from '@/stories/sendApi';
import { RemainPage } from './RemainPage';

const T = { timeout: 15_000 };
const calls: Calls = {};

const meta = {
  title: 'Reports/RemainPage',
  component: RemainPage,
  decorators: [withApp],
  parameters: { app: { path: '/remain' }, msw: { handlers: [...consoleApi(), ...reportsApi({ calls })] } },
  beforeEach: () => {
    for (const k of Object.keys(calls)) delete calls[k];
  },
} satisfies Meta<typeof RemainPage>;
export default meta;
type Story = StoryObj<typeof meta>;

export const AgentWithExpiring: Story = {
  name: '代理商：即将过期标记与合计行',
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(await c.findByText('即将过期', {}, T)).toBeInTheDocument();
    await expect(c.getAllByText('即将过期')).toHaveLength(1);
    await expect(c.getByText('苏州好易购电子商务有限公司')).toBeInTheDocument();
    const summary = within(c.getByTestId('table-totals'));
    await expect(summary.getByText('合计')).toBeInTheDocument();
    await expect(summary.getByText(remainRows.reduce((s, r) => s + r.account_balance, 0).toLocaleString('zh-CN'))).toBeInTheDocument();
    await expect(c.getByRole('button', { name: /返回首页/ })).toBeInTheDocument();
  },
};

export const ByType: Story = {
  name: '按产品类型（/remain?type=3）',
  parameters: { app: { path: '/remain?type=3' } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect((await c.findAllByText('12000', {}, T)).length).toBeGreaterThan(0);
    await expect(calls.remain?.[0]).toMatchObject({ product_type: '3' });
    await expect(canvasElement.querySelectorAll('.ant-table-tbody tr.ant-table-row')).toHaveLength(1);
    await expect(c.queryByText('即将过期')).not.toBeInTheDocument();
  },
};

export const SubAccountNoSummary: Story = {
  name: '子账户：无合计行、无账户列',
  parameters: { msw: { handlers: [...consoleApi({ user: subAccount }), ...reportsApi({ calls, remain: remainRows.slice(0, 2) })] } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(await c.findByText('即将过期', {}, T)).toBeInTheDocument();
    await expect(c.queryByTestId('table-totals')).not.toBeInTheDocument();
    await expect(c.queryByText('上海优品电商有限公司')).not.toBeInTheDocument();
  },
};

export const Empty: Story = {
  name: '无数据',
  parameters: { msw: { handlers: [...consoleApi(), ...reportsApi({ calls, remain: [] })] } },
  play: async ({ canvasElement }) => expect(await within(canvasElement).findByText('暂无数据', {}, T)).toBeInTheDocument(),
};
