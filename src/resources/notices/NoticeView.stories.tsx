import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor } from 'storybook/test';
import { T, withApp } from '@/stories/withApp';
import { consoleApi, fail, msw } from '@/stories/mockApi';
import { pathOf } from '@/stories/pageRows';
import { endpointHandler } from '@/stories/resourceApi';
import NoticeView from './NoticeView';
import { demoNotices, xssNotice } from './fixtures';
import { notices } from './data';

/** the handlers of the notice's detail answering `answer` (and the shell's); the page's path asking for notice `id` */
const detail = (answer: () => unknown) => msw(endpointHandler(notices.one, undefined, answer), ...consoleApi());
const viewing = (id?: number) => ({ path: pathOf('notice_view', id ? `?noticeId=${id}` : '') });

const meta = {
  title: 'Notices/NoticeView',
  component: NoticeView,
  decorators: [withApp],
  parameters: { layout: 'padded', app: viewing(100) },
} satisfies Meta<typeof NoticeView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Normal: Story = {
  name: '正常',
  parameters: detail(() => demoNotices(1)[0]),
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('notice-title', {}, T)).toHaveTextContent('2026年12月6日凌晨系统维护公告');
    await expect(c.getByText(`发布时间：${demoNotices(1)[0].releaseTimeToStr}`)).toBeInTheDocument();
    const body = c.getByTestId('notice-body');
    await expect(body.querySelector('strong')).toHaveTextContent('第 1 条'); // formatting kept
    await expect(c.getByRole('button', { name: /返\s*回/ })).toBeInTheDocument();
  },
};

export const XssRenderedHarmless: Story = {
  name: '恶意内容被无害化',
  parameters: { app: viewing(666), ...detail(() => xssNotice) },
  play: async ({ canvas: c }) => {
    const body = await c.findByTestId('notice-body', {}, T);
    await expect(body).toHaveTextContent('正文文字');
    await expect(body.querySelectorAll('script, iframe, style, svg')).toHaveLength(0);
    await expect(body.querySelectorAll('[onclick], [onerror], [onload]')).toHaveLength(0);
    const imgs = [...body.querySelectorAll('img')];
    await expect(imgs.map((i) => i.getAttribute('src'))).toEqual([null, 'https://cdn.example.com/banner.png']);
    const links = [...body.querySelectorAll('a')];
    await expect(links.find((a) => a.textContent === '危险链接')?.getAttribute('href')).toBeNull();
    const ok = links.find((a) => a.textContent === '查看详情')!;
    await expect(ok.getAttribute('href')).toBe('https://docs.example.com/notice');
    await expect(ok.getAttribute('rel')).toBe('noopener noreferrer');
    await expect(body.querySelector('td')).toHaveTextContent('移动');
    await new Promise((r) => setTimeout(r, 300));
    await expect((window as any).__pwned).toBeUndefined();
  },
};

export const NotFound: Story = {
  name: '公告不存在',
  parameters: { app: viewing(999999), ...detail(() => fail(404, '公告不存在')) },
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('公告不存在', { selector: '.ant-result-title' }, T)).toBeInTheDocument();
    await expect(c.getByRole('button', { name: /返\s*回/ })).toBeInTheDocument();
  },
};

export const MissingId: Story = {
  name: '缺少公告编号',
  parameters: { app: viewing(), ...msw(...consoleApi()) },
  play: async ({ canvas: c }) => {
    await waitFor(() => expect(c.getByText('公告不存在')).toBeInTheDocument(), T);
  },
};
