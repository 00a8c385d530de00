import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { T, withApp } from '@/stories/withApp';
import { msw } from '@/stories/mockApi';
import { operations, opsApi, opsAt } from '@/stories/opsApi';
import Monitor from './Monitor';
import { emptySeries, monitorApi, monitorSeries } from './monitor.mock';

const shell = opsApi({ operator: operations });
const calls: Record<string, string>[] = [];

const meta = {
  title: 'Ops/监控',
  component: Monitor,
  decorators: [withApp],
  parameters: { app: opsAt('ops_monitor'), ...msw(...monitorApi({ calls }), ...shell) },
  beforeEach: () => {
    calls.length = 0;
  },
} satisfies Meta<typeof Monitor>;
export default meta;
type Story = StoryObj<typeof meta>;

const hour = monitorSeries('hour');

export const Hour: Story = {
  name: '最近一小时',
  play: async ({ canvas: c }) => {
    const flow = await c.findByRole('img', { name: '最近一小时每分钟受理、提交、成功、失败条数' }, T);
    await expect(flow).toHaveAttribute('data-points', '60');
    await expect(flow).toHaveAttribute('data-accepted', String(hour.totals.accepted));
    await expect(calls[0]).toEqual({ range: 'hour' });
    await expect(c.getByTestId('monitor-range')).toHaveTextContent('最近一小时：2026-11-24 09:16 至 2026-11-24 10:15');
    const totals = within(c.getByTestId('monitor-totals'));
    await expect(totals.getByText('受理条数')).toBeInTheDocument();
    await expect(c.getByTestId('total-accepted')).toHaveTextContent(hour.totals.accepted.toLocaleString('zh-CN'));
    await expect(c.getByTestId('total-deliveryRate')).toHaveTextContent(`${hour.totals.deliveryRate!.toFixed(2)}%`);
    // the doors' sessions now: the last minute's samples added up
    await expect(c.getByTestId('total-sessions')).toHaveTextContent('6');
    for (const name of [
      '最近一小时每分钟等待发送与未确认的短信',
      '最近一小时各协议已登录的接入会话',
      '最近一小时各运营商每分钟成功率',
      '最近一小时各通道每分钟成功率',
    ])
      await expect(c.getByRole('img', { name })).toBeInTheDocument();
    await expect(c.getByTestId('carriers-chart').dataset.rates).toContain(
      `移动 ${hour.carriers[0].deliveryRate!.toFixed(2)}%`,
    );
    await expect(within(c.getByTestId('channel-totals')).getByText('cmcc-main').closest('tr')).toHaveTextContent(
      `${hour.channels[0].deliveryRate!.toFixed(2)}%`,
    );
    // refusals: the chart and the table, most first
    const refused = hour.refusals.reduce((n, r) => n + r.total, 0);
    await expect(c.getByRole('img', { name: '最近一小时每分钟被拒绝的提交' })).toHaveAttribute(
      'data-total',
      String(refused),
    );
    const table = within(c.getByTestId('refusal-table'));
    const rows = table.getAllByRole('row').slice(1);
    await expect(rows[0]).toHaveTextContent('SMPP0x58超过账户的发送速率');
    // the HTTP API's and the console's refused sends, in words (the server's messages)
    await expect(table.getByText('短信内容须以【签名】开头或结尾').closest('tr')).toHaveTextContent('HTTP 接口40003');
    await expect(table.getByText('账户余额不足，无法发送').closest('tr')).toHaveTextContent('控制台500');
    await expect(c.getByTestId('monitor-updated')).toHaveTextContent(/每分钟自动刷新，更新于 \d\d:\d\d:\d\d/);
  },
};

/** Today's budgets: the credit alarms' SMS and the verification codes against their caps. */
export const Budgets: Story = {
  name: '今日预算（额度提醒、验证码）',
  play: async ({ canvas: c }) => {
    const alarms = within(await c.findByTestId('budget-alarms', {}, T));
    await expect(alarms.getByText('额度提醒短信（2026-11-24）')).toBeInTheDocument();
    await expect(alarms.getByTestId('alarm-usage')).toHaveTextContent('412 / 500');
    await expect(alarms.getByTestId('alarm-skippedCooldown')).toHaveTextContent('57');
    await expect(alarms.getByText('超预算未发')).toBeInTheDocument();
    const codes = within(c.getByTestId('budget-codes'));
    await expect(codes.getByTestId('code-usage')).toHaveTextContent('1,284 / 20,000');
    await expect(codes.getByTestId('code-targetsAtCap')).toHaveTextContent('2（单个号码/邮箱最多 10）');
    await expect(codes.getByTestId('code-ipsAtCap')).toHaveTextContent('1（单个IP最多 23）');
    await expect(within(codes.getByTestId('code-countries')).getByText('+852').closest('tr')).toHaveTextContent(
      '14 / 200',
    );
  },
};

/** 最近一天: asked with range=day, 1,440 minutes; the range is kept in the address. */
export const Day: Story = {
  name: '最近一天（切换范围）',
  play: async ({ canvas: c }) => {
    await c.findByRole('img', { name: '最近一小时每分钟受理、提交、成功、失败条数' }, T);
    await userEvent.click(c.getByText('最近一天'));
    const flow = await c.findByRole('img', { name: '最近一天每分钟受理、提交、成功、失败条数' }, T);
    await expect(flow).toHaveAttribute('data-points', '1440');
    await expect(calls.at(-1)).toEqual({ range: 'day' });
    await expect(c.getByTestId('monitor-range')).toHaveTextContent('最近一天：2026-11-23 10:16 至 2026-11-24 10:15');
  },
};

export const DayFromAddress: Story = {
  name: '最近一天（地址中的范围）',
  parameters: { app: opsAt('ops_monitor', '?range=day') },
  play: async ({ canvasElement }) => {
    await expect(
      await within(canvasElement).findByRole('img', { name: '最近一天每分钟受理、提交、成功、失败条数' }, T),
    ).toHaveAttribute('data-points', '1440');
    await expect(calls[0]).toEqual({ range: 'day' });
  },
};

/** A fresh platform: nothing happened yet, every chart says so instead of drawing empty axes. */
export const Empty: Story = {
  name: '无数据（新平台）',
  parameters: msw(...monitorApi({ calls, series: emptySeries }), ...shell),
  play: async ({ canvas: c, canvasElement }) => {
    await expect(await c.findByText('最近一小时没有受理或发送的短信', {}, T)).toBeInTheDocument();
    for (const text of [
      '最近一小时尚无采样',
      '最近一小时没有接入会话（SMPP、CMPP、SMGP、SGIP）',
      '最近一小时没有发送结果',
      '最近一小时没有通道提交',
      '最近一小时没有被拒绝的提交',
    ])
      await expect(c.getByText(text)).toBeInTheDocument();
    await expect(canvasElement.querySelectorAll('[data-testid$="-chart"]')).toHaveLength(0);
    await expect(c.getByTestId('total-accepted')).toHaveTextContent('0');
    await expect(c.getByTestId('total-deliveryRate')).toHaveTextContent('-');
    await expect(c.getByTestId('total-waiting')).toHaveTextContent('-');
    // the budgets read well with nothing used
    await expect(c.getByTestId('alarm-usage')).toHaveTextContent('0 / 500');
    await expect(c.getByTestId('code-usage')).toHaveTextContent('0 / 20,000');
    await expect(c.queryByTestId('code-countries')).toBeNull();
  },
};

/** 刷新 asks again (as the minute's timer does). */
export const Refresh: Story = {
  name: '刷新',
  play: async ({ canvas: c }) => {
    await c.findByRole('img', { name: '最近一小时每分钟受理、提交、成功、失败条数' }, T);
    await userEvent.click(c.getByRole('button', { name: /刷\s*新/ }));
    await waitFor(() => expect(calls).toHaveLength(2), T);
    await expect(calls[1]).toEqual({ range: 'hour' });
  },
};

export const Loading: Story = {
  name: '加载中',
  parameters: msw(...monitorApi({ series: 'loading' }), ...shell),
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByTestId('monitor-loading', {}, T)).toBeInTheDocument();
  },
};

export const LoadError: Story = {
  name: '加载失败',
  parameters: msw(...monitorApi({ calls, series: 'error' }), ...shell),
  play: async ({ canvas: c, canvasElement }) => {
    await expect(await c.findByTestId('monitor-error', {}, T)).toHaveTextContent('服务器繁忙，请稍后再试');
    await expect(canvasElement.querySelectorAll('[data-testid$="-chart"]')).toHaveLength(0);
    await userEvent.click(c.getByRole('button', { name: /重\s*试/ }));
    await waitFor(() => expect(calls).toHaveLength(2), T);
  },
};
