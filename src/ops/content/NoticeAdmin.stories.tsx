import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { T, body, clearCalls, withApp } from '@/stories/withApp';
import { msw } from '@/stories/mockApi';
import { listStates } from '@/stories/listStates';
import { columns, dialogNamed, expectNoRows, popconfirmButton, rowWith } from '@/stories/play';
import { operations, opsApi, opsAt } from '@/stories/opsApi';
import NoticeAdmin from './NoticeAdmin';
import { contentApi } from './content.mock';
import { operatorNotices } from './data';

const calls: Record<string, Record<string, unknown>[]> = {};
const shell = opsApi({ operator: operations });

const meta = {
  title: 'Ops/内容/平台公告',
  component: NoticeAdmin,
  decorators: [withApp],
  parameters: { app: opsAt('ops_content_notices'), ...msw(...contentApi({ calls }), ...shell) },
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof NoticeAdmin>;
export default meta;
type Story = StoryObj<typeof meta>;

export const List: Story = {
  name: '列表',
  play: async ({ canvas: c }) => {
    const row = await rowWith(c, '关于元旦期间短信发送的通知');
    await expect(within(row).getByTestId('notice-top')).toHaveTextContent('置顶');
    await expect(
      c.getByText('平台系统升级维护公告').closest('tr')!.querySelector('[data-testid=notice-top]'),
    ).toBeNull();
    await expect(columns(c)).toEqual(['标题', '发布时间', '内容', '操作']);
  },
};

export const Publish: Story = {
  name: '发布',
  play: async ({ canvas: c }) => {
    await c.findByText('平台系统升级维护公告', {}, T);
    const before = calls['notices/list']?.length ?? 0;
    await userEvent.click(c.getByRole('button', { name: /发布公告/ }));
    const dialog = await dialogNamed('发布公告');
    await userEvent.type(await waitFor(() => dialog.getByLabelText(/标题/), T), '  春节放假安排  ');
    await userEvent.type(
      dialog.getByLabelText(/内容/, { selector: 'textarea' }),
      '<p>春节期间客服值班时间为 9:00-18:00。</p>',
    );
    await userEvent.click(dialog.getByRole('checkbox', { name: /置顶/ }));
    await userEvent.click(dialog.getByRole('button', { name: /发\s*布/ }));
    // the title trimmed (x-trim)
    await waitFor(
      () =>
        expect(calls['notices/publish']?.[0]).toEqual({
          name: '春节放假安排',
          html: '<p>春节期间客服值班时间为 9:00-18:00。</p>',
          top: true,
        }),
      T,
    );
    await expect(await body().findByText('发布成功', {}, T)).toBeInTheDocument();
    await waitFor(() => expect(calls['notices/list']?.length).toBeGreaterThan(before), T);
  },
};

export const PublishEmpty: Story = {
  name: '发布：未填写',
  play: async ({ canvas: c }) => {
    await c.findByText('平台系统升级维护公告', {}, T);
    await userEvent.click(c.getByRole('button', { name: /发布公告/ }));
    const dialog = await dialogNamed('发布公告');
    await waitFor(() => dialog.getByLabelText(/标题/), T);
    await userEvent.click(dialog.getByRole('button', { name: /发\s*布/ }));
    await expect(await dialog.findByText('公告标题不能为空', {}, T)).toBeInTheDocument();
    await expect(dialog.getByText('公告内容不能为空')).toBeInTheDocument();
    await expect(calls['notices/publish']).toBeUndefined();
  },
};

/** Content that is nothing but what the allow-list removes: the server's refusal shows in the dialog. */
export const PublishRefused: Story = {
  name: '发布被拒绝（内容被清除后为空）',
  parameters: msw(...contentApi({ calls, refuse: { code: 400, msg: '公告内容不能为空' } }), ...shell),
  play: async ({ canvas: c }) => {
    await c.findByText('平台系统升级维护公告', {}, T);
    await userEvent.click(c.getByRole('button', { name: /发布公告/ }));
    const dialog = await dialogNamed('发布公告');
    await userEvent.type(await waitFor(() => dialog.getByLabelText(/标题/), T), '测试');
    await userEvent.type(dialog.getByLabelText(/内容/, { selector: 'textarea' }), '<script>alert(1)</script>');
    await userEvent.click(dialog.getByRole('button', { name: /发\s*布/ }));
    await expect(await dialog.findByTestId('notice-refusal', {}, T)).toHaveTextContent('公告内容不能为空');
  },
};

export const Delete: Story = {
  name: '删除',
  play: async ({ canvas: c }) => {
    const row = await rowWith(c, '平台系统升级维护公告');
    await userEvent.click(within(row).getByRole('button', { name: /删\s*除/ }));
    await expect(await body().findByText('确定删除公告“平台系统升级维护公告”吗？', {}, T)).toBeInTheDocument();
    await userEvent.click(await popconfirmButton(/删\s*除/));
    await waitFor(() => expect(calls['notices/delete']?.[0]).toEqual({ id: 18 }), T);
    await expect(await body().findByText('删除成功', {}, T)).toBeInTheDocument();
  },
};

export const Empty: Story = {
  name: '无数据',
  parameters: msw(...contentApi({ notices: [] }), ...shell),
  play: ({ canvasElement }) => expectNoRows(canvasElement),
};

const states = listStates(operatorNotices, [...contentApi(), ...shell]);
export const Loading: Story = states.loading;
export const LoadError: Story = states.error;
