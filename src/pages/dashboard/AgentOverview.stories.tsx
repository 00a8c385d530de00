import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { withApp } from '@/stories/withApp';
import { AgentOverviewView } from './AgentOverview';

const data = {
  days: 30,
  expiringDays: 7,
  lowBalanceDefault: '10.00',
  topConsumers: [
    { clientid: 'b20002', name: '苏州好易购电子商务有限公司', chargeNum: 128450, sendNum: 120000, successNum: 118000 },
    { clientid: 'b20001', name: '上海优品电商有限公司', chargeNum: 20496, sendNum: 20000, successNum: 19800 },
  ],
  lowBalance: [{ clientid: 'b20003', name: '温州瓯越鞋业有限公司', balance: '3.20', threshold: '50.00' }],
  expiringPools: [
    {
      clientid: 'b20001',
      name: '上海优品电商有限公司',
      productType: 0 as const,
      remaining: 19996,
      dueTime: '2026-12-02 23:59:59',
    },
  ],
};

const meta = {
  title: 'Home/AgentOverview',
  component: AgentOverviewView,
  decorators: [withApp],
  parameters: { app: { path: '/' } },
} satisfies Meta<typeof AgentOverviewView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const WithAlerts: Story = {
  name: '有消费、余额不足与即将过期',
  args: { data },
  play: async ({ canvas: c }) => {
    await expect(c.getByTestId('top-consumers')).toHaveTextContent('128,450 条');
    await expect(c.getByTestId('low-balance')).toHaveTextContent('余额 3.20 元（提醒线 50.00 元）');
    await expect(c.getByTestId('expiring-pools')).toHaveTextContent('19,996 条，2026-12-02 到期');
    await expect(c.getAllByRole('link', { name: /去充值|续费充值/ }).length).toBe(2);
  },
};

/** Issue 41 item 3: long names at a narrow card never run under the figure or the 续费充值 action. */
export const LongNamesNoOverlap: Story = {
  name: '长名称：数字与操作不压住名称',
  args: {
    data: {
      ...data,
      topConsumers: [{ ...data.topConsumers[0], name: '苏州好易购电子商务有限公司华东区域营销推广中心' }],
      expiringPools: [{ ...data.expiringPools[0], name: '上海优品电商有限公司华东区域营销推广中心' }],
    },
  },
  play: async ({ canvas: c }) => {
    const apart = (a: Element, b: Element) => {
      const x = a.getBoundingClientRect();
      const y = b.getBoundingClientRect();
      return x.right <= y.left + 1 || y.right <= x.left + 1 || x.bottom <= y.top + 1 || y.bottom <= x.top + 1;
    };
    const top = c.getByTestId('top-consumers');
    await expect(apart(within(top).getByText(/苏州好易购/), within(top).getByText('128,450 条'))).toBe(true);
    const expiring = c.getByTestId('expiring-pools');
    const action = within(expiring).getByRole('button', { name: '续费充值' });
    await expect(apart(within(expiring).getByText(/上海优品/), action)).toBe(true);
    await expect(apart(within(expiring).getByText(/2026-12-02 到期/), action)).toBe(true);
  },
};

export const NothingToReport: Story = {
  name: '无消费、无提醒',
  args: { data: { ...data, topConsumers: [], lowBalance: [], expiringPools: [] } },
  play: async ({ canvas: c }) => {
    await expect(c.getByText('近期没有子账户消费')).toBeInTheDocument();
    await expect(c.getByText('没有余额不足的子账户')).toBeInTheDocument();
    await expect(c.getByText('没有即将过期的产品')).toBeInTheDocument();
  },
};

export const Loading: Story = {
  name: '加载中',
  args: { loading: true },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('.ant-skeleton')).not.toBeNull();
  },
};

export const LoadError: Story = {
  name: '加载失败',
  args: { error: '服务器繁忙，请稍后再试' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByTestId('agent-overview-error')).toHaveTextContent('服务器繁忙，请稍后再试');
  },
};
