import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { businessNow } from '@/lib/businessTime';
import { clearCalls, withApp } from '@/stories/withApp';
import { consoleApi, msw } from '@/stories/mockApi';
import { reportsApi } from '@/stories/reportsApi';
import type { Calls } from '@/stories/sendApi';
import { DailyReportPage } from './DailyReportPage';

const T = { timeout: 15_000 };
const calls: Calls = {};

const meta = {
  title: 'Reports/DailyReportPage',
  component: DailyReportPage,
  decorators: [withApp],
  parameters: {
    app: { path: '/customer/report/daily_post?id=b20001&clickType=normal' },
    ...msw(...consoleApi(), ...reportsApi({ calls })),
  },
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof DailyReportPage>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Filled: Story = {
  name: '每天一行',
  play: async ({ canvas: c }) => {
    await expect(await c.findByText(businessNow().subtract(1, 'day').format('YYYY-MM-DD'), {}, T)).toBeInTheDocument();
    await expect(c.getByText('日报表 b20001')).toBeInTheDocument();
    await expect(calls.preday?.[0]).toMatchObject({ id: 'b20001', clickType: 'normal' });
    await expect(c.getByRole('button', { name: /返\s*回/ })).toBeInTheDocument();
  },
};

export const International: Story = {
  name: '国际短信（sufday）',
  parameters: { app: { path: '/customer/report/daily_post?id=b20001&clickType=inter' } },
  play: async ({ canvasElement }) => {
    await within(canvasElement).findByText('日报表 b20001', {}, T);
    await expect(
      await within(canvasElement).findByText(businessNow().subtract(2, 'day').format('YYYY-MM-DD'), {}, T),
    ).toBeInTheDocument();
    await expect(calls.sufday?.[0]).toMatchObject({ id: 'b20001', clickType: 'inter' });
  },
};

export const Empty: Story = {
  name: '无数据',
  parameters: msw(...consoleApi(), ...reportsApi({ calls, days: [] })),
  play: async ({ canvasElement }) =>
    expect(await within(canvasElement).findByText('暂无数据', {}, T)).toBeInTheDocument(),
};

export const Postpaid: Story = {
  name: '后付费（paytype=1 → sufday）',
  parameters: { app: { path: '/customer/report/daily_post?id=b20003&paytype=1' } },
  play: async ({ canvas: c }) => {
    await c.findByText('日报表 b20003', {}, T);
    await waitFor(() => expect(calls.sufday?.[0]).toMatchObject({ id: 'b20003' }), T);
    await expect(calls.preday).toBeUndefined();
  },
};
