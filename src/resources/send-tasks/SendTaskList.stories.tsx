import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { withApp } from '@/stories/withApp';
import { consoleApi, subAccount } from '@/stories/mockApi';
import { never, sendApi, taskRows, type Calls } from '@/stories/sendApi';
import { SendTaskList } from './SendTaskList';

const T = { timeout: 5000 };
const calls: Calls = {};

const meta = {
  title: 'Sending/SendTaskList',
  component: SendTaskList,
  decorators: [withApp],
  parameters: { app: { path: '/customer/deliverlayout/smstask' }, msw: { handlers: [...consoleApi(), ...sendApi({ calls })] } },
  beforeEach: () => {
    for (const k of Object.keys(calls)) delete calls[k];
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: async () => undefined }, configurable: true });
  },
} satisfies Meta<typeof SendTaskList>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Filled: Story = {
  name: '代理商：任务列表',
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(await c.findByText('T202611230002', {}, T)).toBeInTheDocument();
    await expect(calls.sendTask?.[0]).toMatchObject({ page: '1', rows: '15' });
    await expect(c.getByText('发送中')).toBeInTheDocument();
    await expect(c.getByText('已完成')).toBeInTheDocument();
    await expect(c.getAllByTestId('task-progress')).toHaveLength(3);
    await expect(c.getByTestId('client-select')).toBeInTheDocument();
    await expect(c.getByTestId('refresh-countdown')).toHaveTextContent('自动刷新中（180）');
  },
};

export const SubAccount: Story = {
  name: '子账户：无账户筛选',
  parameters: { msw: { handlers: [...consoleApi({ user: subAccount }), ...sendApi({ calls, tasks: taskRows.filter((t) => t.clientId === 'b20001') })] } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await c.findByText('T202611230002', {}, T);
    await expect(c.queryByTestId('client-select')).toBeNull();
    await expect(c.getAllByRole('columnheader').map((h) => h.textContent)).not.toContain('账户');
  },
};

export const Refreshing: Story = {
  name: '自动刷新（倒计时）',
  args: { refreshEveryMs: 300 },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await c.findByText('T202611230002', {}, T);
    await waitFor(() => expect((calls.sendTask ?? []).length).toBeGreaterThanOrEqual(3), T);
    // 180, less 2 a refresh
    const left = Number(/（(\d+)）/.exec(c.getByTestId('refresh-countdown').textContent ?? '')?.[1]);
    await expect(left).toBeLessThan(180);
    await expect(left % 2).toBe(0);
    // the rows stay on screen during a background refresh
    await expect(canvasElement.querySelector('.ant-spin-spinning')).toBeNull();
  },
};

export const Empty: Story = {
  name: '无数据',
  parameters: { msw: { handlers: [...consoleApi(), ...sendApi({ tasks: [] })] } },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText('暂无数据', {}, T)).toBeInTheDocument();
  },
};

export const Loading: Story = {
  name: '加载中',
  parameters: { msw: { handlers: [never('send/sendTask'), ...consoleApi(), ...sendApi()] } },
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(canvasElement.querySelector('.ant-spin-spinning')).not.toBeNull(), T);
  },
};

export const DetailExportWithoutState: Story = {
  name: '详情：未选状态导出',
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const body = within(document.body);
    const row = (await c.findByText('T202611230002', {}, T)).closest('tr')!;
    await userEvent.click(within(row as HTMLElement).getByRole('button', { name: /详\s*情/ }));
    await expect(await body.findByText('任务详情', {}, T)).toBeInTheDocument();
    await waitFor(() => expect(calls.queryTaskInfo?.[0]).toEqual({ id: '9002' }), T);
    await expect((await body.findAllByText('待发送', {}, T)).length).toBe(2); // the figure and the checkbox
    await waitFor(() => expect(document.querySelector('.ant-modal .ant-spin-spinning')).toBeNull(), T);
    await userEvent.click(body.getByRole('button', { name: /导出号码/ }));
    await expect(await body.findByText('请选择需要导出号码状态！', {}, T)).toBeInTheDocument();
    await expect(calls.exportTaskInfoPhones).toBeUndefined();
  },
};

export const DetailExportStates: Story = {
  name: '详情：按状态导出号码',
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const body = within(document.body);
    const row = (await c.findByText('T202611230002', {}, T)).closest('tr')!;
    await userEvent.click(within(row as HTMLElement).getByRole('button', { name: /详\s*情/ }));
    const states = await body.findByTestId('export-states', {}, T);
    await waitFor(() => expect(body.getAllByText('待发送')).toHaveLength(2), T); // loaded: the spinner is gone
    await waitFor(() => expect(document.querySelector('.ant-modal .ant-spin-spinning')).toBeNull(), T);
    await userEvent.click(within(states).getByText('失败'));
    await userEvent.click(within(states).getByText('成功'));
    await userEvent.click(body.getByRole('button', { name: /导出号码/ }));
    await waitFor(() => expect(calls.exportTaskInfoPhones?.[0]).toEqual({ id: '9002', sendTypes: '1,2' }), T);
  },
};

export const CopyLongContent: Story = {
  name: '长内容复制',
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const body = within(document.body);
    await c.findByText('T202611230003', {}, T);
    await userEvent.click(c.getAllByTestId('long-text')[0]);
    await expect(await body.findByTestId('long-text-full', {}, T)).toHaveTextContent('双十二大促提前购');
    await userEvent.click(body.getByRole('button', { name: /复\s*制/ }));
    await expect(await body.findByText('复制成功', {}, T)).toBeInTheDocument();
  },
};

export const CopyFails: Story = {
  name: '复制失败',
  beforeEach: () => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: async () => Promise.reject(new Error('denied')) }, configurable: true });
    const exec = document.execCommand;
    document.execCommand = () => false;
    return () => {
      document.execCommand = exec;
    };
  },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const body = within(document.body);
    await c.findByText('T202611230003', {}, T);
    await userEvent.click(c.getAllByTestId('long-text')[0]);
    await userEvent.click(await body.findByRole('button', { name: /复\s*制/ }, T));
    await expect(await body.findByText('复制失败，请使用支持剪贴板的浏览器', {}, T)).toBeInTheDocument();
  },
};
