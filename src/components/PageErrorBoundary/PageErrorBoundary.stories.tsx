import type { Meta, StoryObj } from '@storybook/react-vite';
import { lazy, Suspense, useState } from 'react';
import { expect, fn, userEvent } from 'storybook/test';
import { PAGE_ERROR_TEXTS, PageErrorBoundary, PageErrorView } from './PageErrorBoundary';

/** a page whose chunk cannot be fetched, as Chromium reports it */
const Unreachable = lazy(() =>
  Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/SendRecords-x1.js')),
);

function Thrower(): never {
  throw new Error('render failed');
}

/** the boundary, a failing page and a way to another path (which tries again) */
function Harness({ failing }: { failing: 'chunk' | 'crash' }) {
  const [path, setPath] = useState('/customer/sendlayout/sendrecord');
  return (
    <div>
      <button type="button" onClick={() => setPath('/remain')}>
        去余量页
      </button>
      <PageErrorBoundary resetKey={path}>
        {path === '/remain' ? (
          <div>余量页内容</div>
        ) : (
          <Suspense fallback={<div>加载中</div>}>{failing === 'chunk' ? <Unreachable /> : <Thrower />}</Suspense>
        )}
      </PageErrorBoundary>
    </div>
  );
}

const meta = {
  title: 'Components/PageErrorBoundary',
  component: PageErrorView,
  args: { chunk: true, onReload: fn() },
} satisfies Meta<typeof PageErrorView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const ChunkFailed: Story = {
  name: '页面加载失败（网络或新版本）',
  play: async ({ canvas: c, args }) => {
    await expect(c.getByRole('alert')).toHaveTextContent(PAGE_ERROR_TEXTS.chunkTitle);
    await expect(c.getByText(PAGE_ERROR_TEXTS.chunkDetail)).toBeVisible();
    await userEvent.click(c.getByRole('button', { name: PAGE_ERROR_TEXTS.reload }));
    await expect(args.onReload).toHaveBeenCalledOnce();
  },
};

export const Crashed: Story = {
  name: '页面出错',
  args: { chunk: false },
  play: async ({ canvas: c }) => {
    await expect(c.getByRole('alert')).toHaveTextContent(PAGE_ERROR_TEXTS.crashTitle);
    await expect(c.getByRole('button', { name: PAGE_ERROR_TEXTS.reload })).toBeVisible();
  },
};

export const CatchesAFailedChunk: Story = {
  name: '捕获分包加载失败，换页后恢复',
  render: () => <Harness failing="chunk" />,
  play: async ({ canvas: c }) => {
    await expect(await c.findByRole('alert')).toHaveTextContent(PAGE_ERROR_TEXTS.chunkTitle);
    await userEvent.click(c.getByRole('button', { name: '去余量页' }));
    await expect(await c.findByText('余量页内容')).toBeVisible();
    await expect(c.queryByRole('alert')).toBeNull();
  },
};

export const CatchesARenderError: Story = {
  name: '捕获页面渲染异常',
  render: () => <Harness failing="crash" />,
  play: async ({ canvas: c }) => {
    await expect(await c.findByRole('alert')).toHaveTextContent(PAGE_ERROR_TEXTS.crashTitle);
  },
};
