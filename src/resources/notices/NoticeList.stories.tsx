import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor } from 'storybook/test';
import { Route, Routes } from 'react-router';
import { T, withApp } from '@/stories/withApp';
import { listStates } from '@/stories/listStates';
import { consoleApi, msw, type Calls } from '@/stories/mockApi';
import { pathOf } from '@/stories/pageRows';
import { resourceApi } from '@/stories/resourceApi';
import NoticeList from './NoticeList';
import NoticeView from './NoticeView';
import { demoNotices } from './fixtures';
import { notices } from './data';

/** the notices' list of `total` notices (its searches kept in calls.noticePage) and their detail */
function noticeApi(total: number, calls?: Calls) {
  const rows = demoNotices(total);
  return resourceApi(notices, {
    rows,
    calls,
    where: (n, { searchContent: term }) => !term || n.noticeName.includes(term) || n.noticeContent!.includes(term),
    one: (p) => rows.find((n) => n.id === Number(p.noticeId)),
  });
}
const [LIST, VIEW] = [pathOf('notice'), pathOf('notice_view')];

const meta = {
  title: 'Notices/NoticeList',
  component: NoticeList,
  decorators: [withApp],
  parameters: { layout: 'padded', app: { path: LIST } },
  render: () => (
    <Routes>
      <Route path={LIST} element={<NoticeList />} />
      <Route path={VIEW} element={<NoticeView />} />
    </Routes>
  ),
} satisfies Meta<typeof NoticeList>;
export default meta;
type Story = StoryObj<typeof meta>;

const calls: Calls = {};

export const Filled: Story = {
  name: '有数据（多页，搜索，点击查看）',
  parameters: msw(...noticeApi(40, calls), ...consoleApi()),
  play: async ({ canvas: c, canvasElement }) => {
    await expect(await c.findByText('2026年12月6日凌晨系统维护公告', {}, T)).toBeInTheDocument();
    await expect(c.getByRole('columnheader', { name: '公告名称' })).toBeInTheDocument();
    await expect(c.getByRole('columnheader', { name: '公告内容' })).toBeInTheDocument();
    await expect(c.getByRole('columnheader', { name: '发布时间' })).toBeInTheDocument();
    await expect(c.getAllByText('[置顶]')).toHaveLength(2);
    // content is shown as a plain-text excerpt, not markup
    await expect(c.getByText('尊敬的客户：第 1 条公告内容，请合理安排发送计划。')).toBeInTheDocument();
    await expect(c.getByText('共 40 条')).toBeInTheDocument();
    await expect(canvasElement.querySelector('.ant-pagination')).not.toBeNull();
    // search with Enter
    const box = c.getByPlaceholderText('公告内容');
    await userEvent.type(box, '割接{Enter}');
    await waitFor(() => expect(calls.noticePage?.map((p) => p.searchContent)).toContain('割接'), T);
    await expect(await c.findByText('中国电信通道割接公告', {}, T)).toBeInTheDocument();
    await waitFor(() => expect(canvasElement.querySelector('.ant-pagination')).toBeNull(), T);
    // row click opens the notice
    await userEvent.click(c.getByText('第 9 条', { exact: false }));
    await expect(await c.findByTestId('notice-title', {}, T)).toHaveTextContent('中国电信通道割接公告');
    await expect(c.getByText('发布时间：2026-11-20 10:08:00')).toBeInTheDocument();
    await userEvent.click(c.getByRole('button', { name: /返\s*回/ }));
    await expect(await c.findByPlaceholderText('公告内容', {}, T)).toBeInTheDocument();
  },
};

export const SearchWithButton: Story = {
  name: '点击查询按钮搜索',
  parameters: msw(...noticeApi(40), ...consoleApi()),
  play: async ({ canvas: c }) => {
    await c.findByText('共 40 条', {}, T);
    await userEvent.type(c.getByPlaceholderText('公告内容'), '国庆');
    await userEvent.click(c.getByRole('button', { name: /查\s*询/ }));
    await expect(await c.findByText('国庆假期期间营销短信暂停发送的通知', {}, T)).toBeInTheDocument();
    await waitFor(() => expect(c.queryByText('2026年12月6日凌晨系统维护公告')).toBeNull(), T);
  },
};

export const Empty: Story = {
  name: '无数据',
  parameters: msw(...noticeApi(0), ...consoleApi()),
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(canvasElement.querySelector('.ant-empty')).not.toBeNull(), T);
    await expect(canvasElement.querySelector('.ant-pagination')).toBeNull();
  },
};

export const OnePage: Story = {
  name: '仅一页（不显示分页）',
  parameters: msw(...noticeApi(6), ...consoleApi()),
  play: async ({ canvas: c, canvasElement }) => {
    await expect(await c.findByText('2026年12月6日凌晨系统维护公告', {}, T)).toBeInTheDocument();
    await expect(canvasElement.querySelectorAll('tbody tr.ant-table-row')).toHaveLength(6);
    await expect(canvasElement.querySelector('.ant-pagination')).toBeNull();
  },
};

const states = listStates(notices, consoleApi());
export const Loading: Story = states.loading;
export const Failed: Story = states.error;
