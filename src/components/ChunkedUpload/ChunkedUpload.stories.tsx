import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { useState } from 'react';
import { withApp } from '@/stories/withApp';
import { consoleApi, msw } from '@/stories/mockApi';
import { fileApi, TOKEN } from '@/stories/fileApi';
import { ChunkedUpload, UploadItem } from './ChunkedUpload';
import type { QueueItemView, UploadedFile } from './types';

const T = { timeout: 8000 };
/** the file the interactive stories upload, and its MD5 */
const CONTENT = '13800138000\n13900139000\n123\n';
const CONTENT_MD5 = '71da0be3c15e0424aadd949af605dbc6';
const MB = 1024 * 1024;
const liveCalls: Record<string, unknown[]> = {};
const removeCalls: Record<string, unknown[]> = {};

const item = (patch: Partial<QueueItemView>): QueueItemView => ({
  id: 'u1',
  fileName: '会员号码.txt',
  size: 52 * MB,
  state: 'pending',
  hashing: false,
  percent: 0,
  speed: 0,
  ...patch,
});

/** Each queue state as the item shows it. */
const meta = {
  title: 'Components/ChunkedUpload',
  component: UploadItem,
  decorators: [withApp],
  parameters: { layout: 'padded', ...msw(...consoleApi()) },
  args: { item: item({}), onPause: () => {}, onResume: () => {}, onCancel: () => {} },
} satisfies Meta<typeof UploadItem>;
export default meta;
type Story = StoryObj<typeof meta>;

const shows =
  (text: string | RegExp) =>
  async ({ canvasElement }: { canvasElement: HTMLElement }) => {
    await expect(await within(canvasElement).findByText(text, {}, T)).toBeInTheDocument();
  };

export const Queued: Story = {
  name: '等待上传',
  args: { item: item({}) },
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('upload-note', {}, T)).toHaveTextContent('等待上传');
    await expect(c.getByTestId('upload-item')).toHaveAttribute('data-state', 'pending');
  },
};
export const Hashing: Story = {
  name: '计算MD5',
  args: { item: item({ hashing: true, percent: 42 }) },
  play: shows('加密中（计算文件MD5）42%'),
};
export const Uploading: Story = {
  name: '上传中（进度与速度）',
  args: { item: item({ state: 'uploading', percent: 37, speed: 23.4 * MB }) },
  play: async ({ canvas: c }) => {
    await expect(c.getByText('上传中 23.4 MB/s')).toBeInTheDocument();
    await expect(c.getByRole('button', { name: /暂停/ })).toBeInTheDocument();
  },
};
export const Paused: Story = {
  name: '已暂停',
  args: { item: item({ state: 'paused', percent: 61 }) },
  play: async ({ canvas: c }) => {
    await expect(c.getByTestId('upload-note')).toHaveTextContent('已暂停');
    await expect(c.getByRole('button', { name: /继续/ })).toBeInTheDocument();
  },
};
export const FailedNetwork: Story = {
  name: '失败：网络',
  args: { item: item({ state: 'paused', percent: 12, error: '上传出错，请检查网络连接' }) },
  play: shows('上传出错，请检查网络连接'),
};
export const FailedCode: Story = {
  name: '失败：错误代码',
  args: {
    item: item({
      state: 'paused',
      percent: 100,
      error: '上传出错！请检查后重新上传！错误代码：400 文件校验失败，请重新上传',
    }),
  },
  play: shows('上传出错！请检查后重新上传！错误代码：400 文件校验失败，请重新上传'),
};
export const FailedRetries: Story = {
  name: '失败：重试次数过多',
  args: { item: item({ state: 'paused', percent: 40, error: '尝试上传次数过多，请刷新后重试' }) },
  play: shows('尝试上传次数过多，请刷新后重试'),
};
export const FailedDelete: Story = {
  name: '失败：删除失败',
  args: { item: item({ state: 'paused', percent: 40, error: '删除失败' }) },
  play: shows('删除失败'),
};
export const Reused: Story = {
  name: '秒传（文件已存在）',
  args: { item: item({ state: 'done', percent: 100, reused: true }) },
  play: shows('文件已存在，秒传完成'),
};
export const Done: Story = {
  name: '上传完成',
  args: { item: item({ state: 'done', percent: 100 }) },
  play: async ({ canvas: c }) => {
    await expect(c.getByText('上传完成')).toBeInTheDocument();
    await expect(c.getByRole('button', { name: /移除/ })).toBeInTheDocument();
  },
};

// ------------------------------------------------------------------ the component, against MSW

function Live({ maxSize = 300 * MB }: { maxSize?: number }) {
  const [done, setDone] = useState<UploadedFile | null>(null);
  return (
    <div>
      <ChunkedUpload
        accept={['.txt', '.csv', '.xlsx']}
        maxSize={maxSize}
        maxNameLength={30}
        messages={{ tooLarge: '单个文件大小不能超过250M' }}
        onDone={setDone}
        onRemove={() => setDone(null)}
      />
      {done && (
        <div data-testid="done">{`${done.importFilePath} ${done.fileMd5} ${done.reused ? 'reused' : 'sent'}`}</div>
      )}
    </div>
  );
}

const pick = async (canvas: HTMLElement, file: File) => {
  const input = canvas.querySelector('input[type=file]') as HTMLInputElement;
  await userEvent.upload(input, file);
};
const txt = () => new File([CONTENT], '号码.txt', { type: 'text/plain' });

export const LiveUpload: Story = {
  name: '上传（MD5 在 Worker 中计算，分片，合并）',
  render: () => <Live />,
  parameters: msw(...consoleApi(), ...fileApi()),
  play: async ({ canvasElement }) => {
    await pick(canvasElement, txt());
    const c = within(canvasElement);
    await expect(await c.findByTestId('done', {}, T)).toHaveTextContent(`${TOKEN}.txt ${CONTENT_MD5} sent`);
    await expect(c.getByTestId('upload-item')).toHaveAttribute('data-state', 'done');
  },
};

export const LiveRemoveDone: Story = {
  name: '移除已上传的文件（服务器保留，再选同一文件可秒传）',
  render: () => <Live />,
  parameters: msw(...consoleApi(), ...fileApi({ calls: removeCalls })),
  play: async ({ canvasElement }) => {
    await pick(canvasElement, txt());
    const c = within(canvasElement);
    await waitFor(() => expect(c.getByTestId('upload-item')).toHaveAttribute('data-state', 'done'), T);
    await userEvent.click(within(c.getByTestId('upload-item')).getByRole('button', { name: /移\s*除/ }));
    await waitFor(() => expect(c.queryByTestId('upload-item')).toBeNull(), T);
    await expect(removeCalls.deleteFile).toBeUndefined();
    await expect(removeCalls.deleteChunks).toBeUndefined();
  },
};

export const LiveReuse: Story = {
  name: '秒传：服务器已有完整文件',
  render: () => <Live />,
  parameters: msw(...consoleApi(), ...fileApi({ complete: [CONTENT_MD5] })),
  play: async ({ canvasElement }) => {
    await pick(canvasElement, txt());
    const c = within(canvasElement);
    await expect(await c.findByTestId('done', {}, T)).toHaveTextContent('reused');
    await expect(c.getByText('文件已存在，秒传完成')).toBeInTheDocument();
  },
};

export const LiveTooManyTries: Story = {
  name: '分片失败 3 次',
  render: () => <Live />,
  parameters: msw(...consoleApi(), ...fileApi({ chunkFails: 'network' })),
  play: async ({ canvasElement }) => {
    await pick(canvasElement, txt());
    const c = within(canvasElement);
    await expect(await c.findByText('尝试上传次数过多，请刷新后重试', {}, T)).toBeInTheDocument();
    await expect(c.getByTestId('upload-item')).toHaveAttribute('data-state', 'paused');
  },
};

export const LiveCheckNetwork: Story = {
  name: '网络错误',
  render: () => <Live />,
  parameters: msw(...consoleApi(), ...fileApi({ checkFails: true })),
  play: async ({ canvasElement }) => {
    await pick(canvasElement, txt());
    await expect(await within(canvasElement).findByText('上传出错，请检查网络连接', {}, T)).toBeInTheDocument();
  },
};

export const LiveMergeRefused: Story = {
  name: '合并被拒（错误代码）',
  render: () => <Live />,
  parameters: msw(...consoleApi(), ...fileApi({ mergeRefusal: { code: 400, msg: '文件校验失败，请重新上传' } })),
  play: async ({ canvasElement }) => {
    await pick(canvasElement, txt());
    await expect(
      await within(canvasElement).findByText(
        '上传出错！请检查后重新上传！错误代码：400 文件校验失败，请重新上传',
        {},
        T,
      ),
    ).toBeInTheDocument();
  },
};

export const LivePauseResumeCancel: Story = {
  name: '暂停、继续、取消（删除分片）',
  render: () => <Live />,
  parameters: msw(...consoleApi(), ...fileApi({ chunkDelay: 400, calls: liveCalls })),
  play: async ({ canvas: c, canvasElement }) => {
    // 3 MB: 3 chunks, slow
    await pick(canvasElement, new File([new Uint8Array(3 * MB - 5).fill(49)], 'big.txt', { type: 'text/plain' }));
    await userEvent.click(await c.findByRole('button', { name: /暂停/ }, T));
    await waitFor(() => expect(c.getByTestId('upload-item')).toHaveAttribute('data-state', 'paused'), T);
    await userEvent.click(c.getByRole('button', { name: /继续/ }));
    await waitFor(() => expect(c.getByTestId('upload-item')).toHaveAttribute('data-state', 'uploading'), T);
    await userEvent.click(c.getByRole('button', { name: /取消/ }));
    await waitFor(() => expect(c.queryByTestId('upload-item')).toBeNull(), T);
    await expect(liveCalls.deleteChunks).toHaveLength(1);
  },
};

export const LiveLimits: Story = {
  name: '文件类型、大小、名称限制',
  render: () => <Live maxSize={10} />,
  parameters: msw(...consoleApi(), ...fileApi()),
  play: async ({ canvasElement }) => {
    await pick(canvasElement, new File(['x'.repeat(20)], 'n.txt'));
    await expect(await within(document.body).findByText('单个文件大小不能超过250M', {}, T)).toBeInTheDocument();
    await expect(within(canvasElement).queryByTestId('upload-item')).toBeNull();
  },
};
