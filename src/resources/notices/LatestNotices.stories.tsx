import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { http } from 'msw';
import { T, withApp } from '@/stories/withApp';
import { consoleApi, fail, ok, msw } from '@/stories/mockApi';
import Home from '@/pages/Home';
import { LatestNotices } from './LatestNotices';
import { demoNotices } from './fixtures';

const meta = {
  title: 'Notices/LatestNotices',
  component: LatestNotices,
  decorators: [withApp],
  parameters: { layout: 'padded' },
} satisfies Meta<typeof LatestNotices>;
export default meta;
type Story = StoryObj<typeof meta>;

export const AtMostTen: Story = {
  name: '最多 10 条',
  parameters: msw(
    http.get('/api/agent/notice', () => ok(demoNotices(12))),
    ...consoleApi(),
  ),
  play: async ({ canvas: c, canvasElement }) => {
    await expect(await c.findByText('2026年12月6日凌晨系统维护公告', {}, T)).toBeInTheDocument();
    await expect(canvasElement.querySelectorAll('.ant-list-item')).toHaveLength(10);
    await expect(c.getByRole('link', { name: /2026年12月6日凌晨系统维护公告/ }).getAttribute('href')).toBe(
      '/notice/view?noticeId=100',
    );
    await expect(c.getByRole('link', { name: '更多' }).getAttribute('href')).toBe('/notice/notice');
  },
};

export const Empty: Story = {
  name: '暂无公告',
  parameters: { msw: { handlers: consoleApi() } },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText('暂无公告', {}, T)).toBeInTheDocument();
  },
};

export const Failed: Story = {
  name: '加载失败',
  parameters: msw(
    http.get('/api/agent/notice', () => fail(500, '服务器繁忙，请稍后再试')),
    ...consoleApi(),
  ),
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText('公告加载失败', {}, T)).toBeInTheDocument();
  },
};

export const OnHome: Story = {
  name: '首页中的最新公告',
  render: () => <Home />,
  parameters: msw(
    http.get('/api/agent/notice', () => ok(demoNotices(3))),
    ...consoleApi(),
  ),
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('欢迎您，深圳市云讯通信有限公司', {}, T)).toBeInTheDocument();
    const card = await c.findByTestId('latest-notices', {}, T);
    await waitFor(() => expect(within(card).getAllByRole('link').length).toBe(4), T); // 3 notices + 更多
    await expect(within(card).getByText('最新公告')).toBeInTheDocument();
  },
};
