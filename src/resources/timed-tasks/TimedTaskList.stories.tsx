import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { T, body, clearCalls, withApp } from '@/stories/withApp';
import { pathOf } from '@/stories/pageRows';
import { listStates } from '@/stories/listStates';
import { consoleApi, msw } from '@/stories/mockApi';
import { sendApi, type Calls } from '@/stories/sendApi';
import { TimedTaskList } from './TimedTaskList';
import { timedTasks } from './data';

const calls: Calls = {};

const TIMED = pathOf('sms_timingdeliver');

const meta = {
  title: 'Sending/TimedTaskList',
  component: TimedTaskList,
  decorators: [withApp],
  parameters: {
    app: { path: TIMED, route: TIMED },
    ...msw(...consoleApi(), ...sendApi({ calls })),
  },
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof TimedTaskList>;
export default meta;
type Story = StoryObj<typeof meta>;

const rowOf = async (canvas: HTMLElement, taskId: string) =>
  within((await within(canvas).findByText(taskId, {}, T)).closest('tr') as HTMLElement);

export const Filled: Story = {
  name: '定时任务列表',
  play: async ({ canvas: c, canvasElement }) => {
    await c.findByText('T202611230010', {}, T);
    await expect(calls.timedList?.[0]).toMatchObject({ page: '1', rows: '15' });
    await expect(c.getAllByText('等待发送').length).toBeGreaterThan(0);
    await expect(c.getByText('已取消')).toBeInTheDocument();
    // every filter of filters/timed-task.json
    for (const label of [
      '时间类型',
      '开始日期',
      '结束日期',
      '状态',
      '短信类型',
      '模板类型',
      '签名',
      '短信内容',
      '账户',
    ])
      await expect(c.getAllByText(label).length).toBeGreaterThan(0);
    // a cancelled task has no actions
    const cancelled = await rowOf(canvasElement, 'T202611200001');
    await expect(cancelled.queryByRole('button', { name: /取\s*消/ })).toBeNull();
    // a scheduled international send is waiting but can be neither cancelled nor re-edited
    const intl = await rowOf(canvasElement, 'T202611230011');
    await expect(intl.getByText('等待发送')).toBeInTheDocument();
    await expect(intl.queryByRole('button', { name: /取\s*消/ })).toBeNull();
    await expect(intl.queryByRole('button', { name: /重新编辑/ })).toBeNull();
    await expect(intl.getByRole('button', { name: /查看号码/ })).toBeInTheDocument();
  },
};

export const ViewNumbers: Story = {
  name: '查看号码',
  play: async ({ canvasElement }) => {
    const row = await rowOf(canvasElement, 'T202611230010');
    await userEvent.click(row.getByRole('button', { name: /查看号码/ }));
    await expect(await body().findByText('13012345678', {}, T)).toBeInTheDocument();
    await expect(calls.getAllPhone?.[0]).toMatchObject({ uid: 'T202611230010', page: '1', rows: '15' });
    await expect(calls.getAllPhone?.[0].submitTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  },
};

export const CancelConfirmed: Story = {
  name: '取消（确认后）',
  play: async ({ canvasElement }) => {
    const row = await rowOf(canvasElement, 'T202611230010');
    await userEvent.click(row.getByRole('button', { name: /取\s*消/ }));
    await expect(await body().findByText('确定取消该定时任务吗？', {}, T)).toBeInTheDocument();
    await expect(body().getByRole('button', { name: '不取消' })).toBeInTheDocument();
    await userEvent.click(body().getByRole('button', { name: '取消任务' }));
    await waitFor(() => expect(calls.undoSend?.[0]).toMatchObject({ uid: 'T202611230010' }), T);
    await expect(await body().findByText('取消成功，已退还费用', {}, T)).toBeInTheDocument();
  },
};

export const CancelRefusedAfterTime: Story = {
  name: '已到发送时间，不能取消',
  play: async ({ canvasElement }) => {
    const row = await rowOf(canvasElement, 'T202611230009');
    await userEvent.click(row.getByRole('button', { name: /取\s*消/ }));
    await expect(await body().findByText('已到发送时间，无法取消', {}, T)).toBeInTheDocument();
    await expect(body().queryByText('确定取消该定时任务吗？')).toBeNull();
    await expect(calls.undoSend).toBeUndefined();
  },
};

export const ReEdit: Story = {
  name: '重新编辑（提示后）',
  play: async ({ canvasElement }) => {
    const row = await rowOf(canvasElement, 'T202611230010');
    await userEvent.click(row.getByRole('button', { name: /重新编辑/ }));
    await expect(await body().findByText('重新编辑将删除原定时任务，确定继续吗？', {}, T)).toBeInTheDocument();
    await userEvent.click(body().getByRole('button', { name: /确\s*定/ }));
    await expect(await within(canvasElement).findByTestId('went', {}, T)).toHaveTextContent(
      '/customer/deliverlayout/deliver?id=T202611230010',
    );
  },
};

const states = listStates(timedTasks, [...consoleApi(), ...sendApi()]);
export const Loading: Story = states.loading;
export const LoadError: Story = states.error;
export const Empty: Story = states.empty;
