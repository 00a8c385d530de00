import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { http } from 'msw';
import { T, withApp } from '@/stories/withApp';
import { consoleApi, ok, msw } from '@/stories/mockApi';
import ContentTestPage from './ContentTestPage';

/** The server's answer for a small word list, computed like the server does (UTF-16 offsets). */
const WORDS = ['刷单', '赌博', '<script>'];
const contentTest = http.post('/api/content/content/test', async ({ request }) => {
  const content = new URLSearchParams(await request.text()).get('content') ?? '';
  const ranges: [number, number][] = [];
  for (const w of WORDS)
    for (let i = content.indexOf(w); i >= 0; i = content.indexOf(w, i + 1)) ranges.push([i, i + w.length]);
  ranges.sort((a, b) => a[0] - b[0]);
  if (!ranges.length) return ok({ 200: 'ok' }, '未检测到敏感词');
  return ok(Object.fromEntries(ranges.map((r, i) => [String(500 + i), `${r[0]},${r[1]}`])), '检测到敏感内容');
});

const meta = {
  title: 'Content/ContentTestPage',
  component: ContentTestPage,
  decorators: [withApp],
  parameters: { layout: 'padded', app: { path: '/content/test' }, ...msw(contentTest, ...consoleApi()) },
} satisfies Meta<typeof ContentTestPage>;
export default meta;
type Story = StoryObj<typeof meta>;

const textarea = (el: HTMLElement) => within(el).getByRole('textbox', { name: '短信内容' });
const dialog = () => within(document.body).findByRole('dialog', {}, T);

export const EmptyForm: Story = {
  name: '初始',
  play: async ({ canvas: c, canvasElement }) => {
    await expect(c.getByText('敏感内容绝对拦截')).toBeInTheDocument();
    await expect(c.getByText(/将被绝对拦截/)).toBeInTheDocument();
    await expect(textarea(canvasElement)).toHaveValue('');
    await expect(c.getByText('0 / 500')).toBeInTheDocument();
    await expect(c.getByRole('button', { name: /开始检测/ })).toBeInTheDocument();
    await expect(c.getByRole('button', { name: /清\s*空/ })).toBeInTheDocument();
  },
};

export const RequiredMessage: Story = {
  name: '校验：未输入',
  play: async ({ canvas: c }) => {
    await userEvent.click(c.getByRole('button', { name: /开始检测/ }));
    await expect(await c.findByText('请输入短信内容', {}, T)).toBeInTheDocument();
    await expect(document.body.querySelector('.ant-modal')).toBeNull();
  },
};

export const TooLongMessage: Story = {
  name: '校验：超过500个字符',
  play: async ({ canvas: c, canvasElement }) => {
    await userEvent.click(textarea(canvasElement));
    await userEvent.paste('字'.repeat(501));
    await expect(c.getByText('501 / 500')).toBeInTheDocument();
    await userEvent.click(c.getByRole('button', { name: /开始检测/ }));
    await expect(await c.findByText('短信内容不能超过500个字符', {}, T)).toBeInTheDocument();
  },
};

export const Clean: Story = {
  name: '未检测到敏感词',
  play: async ({ canvas: c, canvasElement }) => {
    await userEvent.type(textarea(canvasElement), '【云讯通】您的验证码是 123456，5 分钟内有效。');
    await userEvent.click(c.getByRole('button', { name: /开始检测/ }));
    const d = await dialog();
    await expect(within(d).getByText('检测结果')).toBeInTheDocument();
    await expect(within(d).getByText('未检测到敏感词')).toBeInTheDocument();
    await expect(within(d).getByText(/no sensitive words/)).toBeInTheDocument();
  },
};

export const HitsHighlighted: Story = {
  name: '命中内容高亮',
  play: async ({ canvas: c, canvasElement }) => {
    await userEvent.type(textarea(canvasElement), '高薪招聘刷单兼职，网上赌博日赚千元');
    await userEvent.click(c.getByRole('button', { name: /开始检测/ }));
    const d = await dialog();
    await expect(within(d).getByText('检测到 2 处敏感内容')).toBeInTheDocument();
    const box = within(d).getByTestId('content-test-highlight');
    await expect([...box.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['刷单', '赌博']);
    await expect(box).toHaveTextContent('高薪招聘刷单兼职，网上赌博日赚千元');
    // 清空 resets the text
    await userEvent.click(within(d).getByRole('button', { name: /确\s*定/ }));
    await userEvent.click(c.getByRole('button', { name: /清\s*空/ }));
    await expect(textarea(canvasElement)).toHaveValue('');
  },
};

export const ScriptShownAsText: Story = {
  name: '含 <script> 的内容显示为文字',
  play: async ({ canvas: c, canvasElement }) => {
    const text = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">刷单';
    await userEvent.click(textarea(canvasElement));
    await userEvent.paste(text);
    await userEvent.click(c.getByRole('button', { name: /开始检测/ }));
    const d = await dialog();
    const box = within(d).getByTestId('content-test-highlight');
    await waitFor(() => expect(box.textContent).toBe(text));
    await expect(box.querySelectorAll('script, img')).toHaveLength(0);
    await expect([...box.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['<script>', '刷单']);
    await expect((window as any).__pwned).toBeUndefined();
  },
};
