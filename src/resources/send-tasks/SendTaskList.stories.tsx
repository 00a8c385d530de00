import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { T, body, clearCalls, withApp } from '@/stories/withApp';
import { pathOf } from '@/stories/pageRows';
import { labelled } from '@/stories/rows';
import { listStates } from '@/stories/listStates';
import { consoleApi, subAccount, msw } from '@/stories/mockApi';
import { sendApi, taskRows, type Calls } from '@/stories/sendApi';
import { SendTaskList } from './SendTaskList';
import { sendTasks } from './data';
import { TaskStatus } from '@/generated/schemas';

const calls: Calls = {};

const meta = {
  title: 'Sending/SendTaskList',
  component: SendTaskList,
  decorators: [withApp],
  parameters: {
    app: { path: pathOf('sms_smstask') },
    ...msw(...consoleApi(), ...sendApi({ calls })),
  },
  beforeEach: () => {
    clearCalls(calls)();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: async () => undefined }, configurable: true });
  },
} satisfies Meta<typeof SendTaskList>;
export default meta;
type Story = StoryObj<typeof meta>;
type Canvas = ReturnType<typeof within>;

export const Filled: Story = {
  name: '代理商：任务列表',
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('T202611230002', {}, T)).toBeInTheDocument();
    await expect(calls.sendTask?.[0]).toMatchObject({ page: '1', rows: '15' });
    // spec 02 §9: the list starts on the last 90 days (filters/send-task x-default-days), today included
    const { createTimeStart, createTimeEnd } = calls.sendTask?.[0] ?? {};
    await expect((Date.parse(createTimeEnd) - Date.parse(createTimeStart)) / 86_400_000).toBe(89);
    await expect(c.getByText('发送中')).toBeInTheDocument();
    await expect(c.getByText('已完成')).toBeInTheDocument();
    await expect(c.getAllByTestId('task-progress')).toHaveLength(3);
    await expect(c.getByTestId('client-select')).toBeInTheDocument();
    await expect(c.getByTestId('refresh-countdown')).toHaveTextContent('自动刷新中（180）');
  },
};

export const SubAccount: Story = {
  name: '子账户：无账户筛选',
  parameters: msw(
    ...consoleApi({ user: subAccount }),
    ...sendApi({ calls, tasks: taskRows.filter((t) => t.clientId === 'b20001') }),
  ),
  play: async ({ canvas: c }) => {
    await c.findByText('T202611230002', {}, T);
    await expect(c.queryByTestId('client-select')).toBeNull();
    await expect(c.getAllByRole('columnheader').map((h) => h.textContent)).not.toContain('账户');
  },
};

/**
 * A task held for the platform's review: its progress column (a key column, issue 41 item 2: in
 * view at 1440 px) says so under the bar, inside its own cell.
 */
export const AwaitingReview: Story = {
  name: '任务待平台审核：进度下方提示',
  parameters: msw(
    ...consoleApi(),
    ...sendApi({
      calls,
      tasks: [
        labelled(sendTasks.entity, { ...taskRows[0], status: TaskStatus.Processing, taskSchedule: 0, auditNum: 3 }),
      ],
    }),
  ),
  play: async ({ canvas: c }) => {
    const note = await c.findByTestId('task-awaiting-review', {}, T);
    await expect(note).toHaveTextContent('3 条待平台审核');
    await expect(c.getByRole('columnheader', { name: '发送进度' })).toHaveClass('schema-table-key');
    const bar = c.getByTestId('task-progress').getBoundingClientRect();
    const cell = note.closest('td')!.getBoundingClientRect();
    const box = note.getBoundingClientRect();
    await expect(box.top).toBeGreaterThanOrEqual(bar.bottom - 1);
    await expect(box.right).toBeLessThanOrEqual(cell.right);
  },
};

export const Refreshing: Story = {
  name: '自动刷新（倒计时）',
  args: { refreshEveryMs: 300 },
  play: async ({ canvas: c, canvasElement }) => {
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

/** the 任务详情 dialog of task `uid`'s row, loaded (its spinner gone); the page's body */
const openDetail = async (c: Canvas, uid = 'T202611230002') => {
  const row = (await c.findByText(uid, {}, T)).closest('tr')!;
  await userEvent.click(within(row as HTMLElement).getByRole('button', { name: /详\s*情/ }));
  await body().findByText('任务详情', {}, T);
  await waitFor(() => expect(document.querySelector('.ant-modal .ant-spin-spinning')).toBeNull(), T);
  return body();
};

export const DetailExportWithoutState: Story = {
  name: '详情：未选状态导出',
  play: async ({ canvas: c }) => {
    const body = await openDetail(c);
    await expect(body.getByText('任务详情')).toBeInTheDocument();
    await waitFor(() => expect(calls.queryTaskInfo?.[0]).toEqual({ id: '9002' }), T);
    await expect((await body.findAllByText('待发送', {}, T)).length).toBe(2); // the figure and the checkbox
    await userEvent.click(body.getByRole('button', { name: /导出号码/ }));
    await expect(await body.findByText('请选择需要导出号码状态！', {}, T)).toBeInTheDocument();
    await expect(calls.exportTaskInfoPhones).toBeUndefined();
  },
};

export const DetailExportStates: Story = {
  name: '详情：按状态导出号码',
  play: async ({ canvas: c }) => {
    const body = await openDetail(c);
    const states = await body.findByTestId('export-states', {}, T);
    await waitFor(() => expect(body.getAllByText('待发送')).toHaveLength(2), T);
    await userEvent.click(within(states).getByText('失败'));
    await userEvent.click(within(states).getByText('成功'));
    await userEvent.click(body.getByRole('button', { name: /导出号码/ }));
    await waitFor(() => expect(calls.exportTaskInfoPhones?.[0]).toEqual({ id: '9002', sendTypes: '1,2' }), T);
  },
};

export const CopyLongContent: Story = {
  name: '长内容复制',
  play: async ({ canvas: c }) => {
    const b = body();
    await c.findByText('T202611230003', {}, T);
    await userEvent.click(c.getAllByTestId('long-text')[0]);
    await expect(await b.findByTestId('long-text-full', {}, T)).toHaveTextContent('双十二大促提前购');
    await userEvent.click(b.getByRole('button', { name: /复\s*制/ }));
    await expect(await b.findByText('复制成功', {}, T)).toBeInTheDocument();
  },
};

export const CopyFails: Story = {
  name: '复制失败',
  beforeEach: () => {
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: async () => Promise.reject(new Error('denied')) },
      configurable: true,
    });
    const exec = document.execCommand;
    document.execCommand = () => false;
    return () => {
      document.execCommand = exec;
    };
  },
  play: async ({ canvas: c }) => {
    const b = body();
    await c.findByText('T202611230003', {}, T);
    await userEvent.click(c.getAllByTestId('long-text')[0]);
    await userEvent.click(await b.findByRole('button', { name: /复\s*制/ }, T));
    await expect(await b.findByText('复制失败，请使用支持剪贴板的浏览器', {}, T)).toBeInTheDocument();
  },
};

export const DetailRecordsLink: Story = {
  name: '详情：查看该任务的发送记录',
  play: async ({ canvas: c }) => {
    const body = await openDetail(c);
    const link = await body.findByTestId('task-records-link', {}, T);
    await expect(link).toHaveAttribute(
      'href',
      '/customer/sendlayout/sendrecord?taskId=T202611230002&beginDate=2026-11-23',
    );
  },
};

export const DetailResendFailed: Story = {
  name: '详情：重发失败号码（确认后创建新任务）',
  play: async ({ canvas: c }) => {
    const body = await openDetail(c);
    const button = await body.findByTestId('resend-failed', {}, T);
    await waitFor(() => expect(button).toHaveTextContent('（1）'), T);
    await userEvent.click(button);
    await expect(
      await body.findByText('将失败号码作为新任务重新发送，按正常发送扣费，确定继续吗？', {}, T),
    ).toBeInTheDocument();
    await userEvent.click(body.getByRole('button', { name: /^重\s*发$/ }));
    await waitFor(() => expect(calls.resendFailed?.[0]).toEqual({ id: 'T202611230002' }), T);
    await expect(await body.findByTestId('resent', {}, T)).toHaveTextContent('已创建重发任务 T202611230100');
    await expect(body.getByTestId('resend-failed')).toBeDisabled();
    // the list reloads to show the new task
    await waitFor(() => expect(calls.sendTask?.length).toBeGreaterThan(1), T);
  },
};

export const DetailResendRefused: Story = {
  name: '详情：重发被拒绝（余量不足，提示一次）',
  parameters: msw(...consoleApi(), ...sendApi({ calls, resendRefusal: '短信余量不足，无法发送' })),
  play: async ({ canvas: c }) => {
    const body = await openDetail(c);
    await userEvent.click(await body.findByTestId('resend-failed', {}, T));
    await userEvent.click(await body.findByRole('button', { name: /^重\s*发$/ }, T));
    await expect(await body.findByText('短信余量不足，无法发送', {}, T)).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 400));
    await expect(body.getAllByText('短信余量不足，无法发送')).toHaveLength(1);
    await expect(body.queryByTestId('resent')).toBeNull();
  },
};

export const DetailNoFailures: Story = {
  name: '详情：没有失败号码时不能重发',
  parameters: msw(...consoleApi(), ...sendApi({ calls, failNum: 0 })),
  play: async ({ canvas: c }) => {
    const body = await openDetail(c);
    const button = await body.findByTestId('resend-failed', {}, T);
    await waitFor(() => expect(button).toHaveTextContent('（0）'), T);
    await expect(button).toBeDisabled();
    await expect(body.getByTestId('task-records-link')).toBeInTheDocument();
  },
};

const states = listStates(sendTasks, [...consoleApi(), ...sendApi()]);
export const Loading: Story = states.loading;
export const LoadError: Story = states.error;
export const Empty: Story = states.empty;
