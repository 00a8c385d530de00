import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { businessNow } from '@/lib/businessTime';
import { clearCalls, withApp } from '@/stories/withApp';
import { agentDirectChargeMode, consoleApi, subAccount, msw } from '@/stories/mockApi';
import { noDelivery, reportsApi } from '@/stories/reportsApi';
import type { Calls } from '@/stories/sendApi';
import { ReportPage } from './ReportPage';

const T = { timeout: 15_000 };
const calls: Calls = {};

const meta = {
  title: 'Reports/ReportPage',
  component: ReportPage,
  decorators: [withApp],
  parameters: {
    app: { path: '/customer/deliverlayout/customer/report/pre' },
    ...msw(...consoleApi(), ...reportsApi({ calls })),
  },
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof ReportPage>;
export default meta;
type Story = StoryObj<typeof meta>;

export const PackagePrepaid: Story = {
  name: '产品包模式：子账户(预付费)',
  play: async ({ canvas: c, canvasElement }) => {
    await expect(await c.findByText('苏州好易购电子商务有限公司', {}, T)).toBeInTheDocument();
    await expect(c.getByRole('tab', { name: '子账户(预付费)' })).toHaveAttribute('aria-selected', 'true');
    await expect(c.getByRole('tab', { name: '子账户(后付费)' })).toBeInTheDocument();
    for (const h of ['提交条数', '计费条数', '成功条数', '未知条数', '失败条数', '待发送条数', '拦截条数'])
      await expect(c.getAllByText(h)[0]).toBeInTheDocument();
    await expect(calls.pretotal?.[0]).toMatchObject({
      currentPage: '1',
      start_time_day: businessNow().subtract(89, 'day').format('YYYY-MM-DD'),
      end_time_day: businessNow().format('YYYY-MM-DD'),
    });
    // a daily link per row
    const links = c.getAllByRole('link', { name: '日报表' });
    await expect(links[0]).toHaveAttribute('href', '/customer/report/daily_post?id=b20001&paytype=0');
    // the date pickers cannot be typed into or cleared
    const inputs = canvasElement.querySelectorAll('.ant-picker input');
    await expect(inputs.length).toBe(2);
    for (const i of inputs) await expect(i).toHaveAttribute('readonly');
    await expect(canvasElement.querySelector('.ant-picker-clear')).toBeNull();
  },
};

export const PackagePostpaid: Story = {
  name: '产品包模式：子账户(后付费)',
  parameters: { app: { path: '/customer/deliverlayout/customer/report/post' } },
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('杭州后付费客户', {}, T)).toBeInTheDocument();
    await expect(c.getByRole('tab', { name: '子账户(后付费)' })).toHaveAttribute('aria-selected', 'true');
    await expect(c.getByText('后付费')).toBeInTheDocument();
    await expect(calls.suftotal?.length).toBe(1);
  },
};

export const DirectMode: Story = {
  name: '直充模式：普通短信 / 国际短信',
  parameters: msw(...consoleApi({ user: agentDirectChargeMode }), ...reportsApi({ calls })),
  play: async ({ canvas: c }) => {
    await c.findByText('苏州好易购电子商务有限公司', {}, T);
    await expect(c.getByRole('tab', { name: '普通短信' })).toHaveAttribute('aria-selected', 'true');
    await expect(calls.pretotal?.[0]).toMatchObject({ clickType: 'normal' });
    await expect(c.getAllByRole('link', { name: '日报表' })[0]).toHaveAttribute(
      'href',
      '/customer/report/daily_post?id=b20001&clickType=normal',
    );
    await userEvent.click(c.getByRole('tab', { name: '国际短信' }));
    await waitFor(() => expect(calls.suftotal?.[0]).toMatchObject({ clickType: 'inter' }), T);
  },
};

export const SubAccountOwn: Story = {
  name: '子账户：自己的报表（无子账户筛选）',
  parameters: msw(...consoleApi({ user: subAccount }), ...reportsApi({ calls, pre: [] })),
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('暂无数据', {}, T)).toBeInTheDocument();
    await expect(c.queryByLabelText('子账户')).not.toBeInTheDocument();
  },
};

export const Empty: Story = {
  name: '无数据，导出：无数据',
  parameters: msw(...consoleApi(), ...reportsApi({ calls, pre: [] })),
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('暂无数据', {}, T)).toBeInTheDocument();
    await userEvent.click(c.getByRole('button', { name: /导\s*出/ }));
    await expect(await within(document.body).findByText('当前条件没有数据，无法导出', {}, T)).toBeInTheDocument();
    await expect(calls.totalExport?.[0]).toMatchObject({ paytype: '0' });
  },
};

export const TotalsAndRate: Story = {
  name: '合计行与成功率（今日实时）',
  play: async ({ canvas: c }) => {
    await c.findByText('苏州好易购电子商务有限公司', {}, T);
    await expect(calls.pretotal?.[0]).toMatchObject({ end_time_day: businessNow().format('YYYY-MM-DD') });
    await expect(c.getByText('今日数据为实时统计')).toBeInTheDocument();
    await expect(c.getAllByText('成功率')[0]).toBeInTheDocument();
    // b20001 通知: 1150 / 1200
    await expect(c.getByText('95.83%')).toBeInTheDocument();
    const totals = c.getByTestId('report-totals');
    await expect(totals).toHaveTextContent('合计');
    await expect(totals).toHaveTextContent('5,060');
    await expect(c.getByTestId('report-totals-rate')).toHaveTextContent(`${((100 * 4800) / 5060).toFixed(2)}%`);
  },
};

export const DeliveryAnalysis: Story = {
  name: '投递分析：运营商、省份、失败原因（近7天 / 近30天）',
  play: async ({ canvas: c }) => {
    const card = await c.findByTestId('delivery-analytics', {}, T);
    await waitFor(() => expect(within(card).getByTestId('day-chart')).toBeInTheDocument(), T);
    await expect(calls.delivery?.[0]).toMatchObject({ days: '7' });
    await expect(within(card).getByTestId('carrier-chart')).toBeInTheDocument();
    await expect(within(card).getByTestId('reason-chart')).toBeInTheDocument();
    await expect(within(card).getByText('广东')).toBeInTheDocument();
    await expect(within(card).getByTestId('delivery-totals')).toHaveTextContent('成功率');
    await userEvent.click(within(card).getByText('近30天'));
    await waitFor(() => expect(calls.delivery?.at(-1)).toMatchObject({ days: '30' }), T);
  },
};

export const DeliveryAnalysisEmpty: Story = {
  name: '投递分析：没有发送记录',
  parameters: msw(...consoleApi(), ...reportsApi({ calls, delivery: noDelivery })),
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('近7天没有发送记录', {}, T)).toBeInTheDocument();
  },
};

export const DeliveryAnalysisFailed: Story = {
  name: '投递分析：加载失败（重试）',
  parameters: msw(...consoleApi(), ...reportsApi({ calls, delivery: 'fail' })),
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('投递分析加载失败', {}, T)).toBeInTheDocument();
    const before = calls.delivery?.length ?? 0;
    await userEvent.click(c.getByRole('button', { name: /重\s*试/ }));
    await waitFor(() => expect(calls.delivery?.length ?? 0).toBeGreaterThan(before), T);
  },
};
