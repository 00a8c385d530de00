import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { withApp } from '@/stories/withApp';
import { msw } from '@/stories/mockApi';
import { listStates } from '@/stories/listStates';
import { columns, rowWith } from '@/stories/play';
import { operations, opsApi, opsAt } from '@/stories/opsApi';
import ArchiveList from './ArchiveList';
import { recordArchives } from './data';
import { archiveRows, archivesApi } from './archives.mock';

const shell = opsApi({ operator: operations });
const calls = { list: 0 };

const meta = {
  title: 'Ops/发送记录归档',
  component: ArchiveList,
  decorators: [withApp],
  parameters: { app: opsAt('ops_archives'), ...msw(...archivesApi({ calls }), ...shell) },
  beforeEach: () => {
    calls.list = 0;
  },
} satisfies Meta<typeof ArchiveList>;
export default meta;
type Story = StoryObj<typeof meta>;

export const List: Story = {
  name: '列表（一个月份的文件缺失）',
  play: async ({ canvas: c }) => {
    const newest = await rowWith(c, '2026-05');
    await expect(columns(c)).toEqual(['月份', '文件状态', '分区', '条数', '大小', '归档时间', '文件', 'SHA-256']);
    // newest month first, figures readable: rows grouped, size in MB
    await expect(
      c
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.querySelector('td')?.textContent),
    ).toEqual(['2026-05', '2026-04', '2026-03']);
    await expect(newest).toHaveTextContent('sms_messages_202605');
    await expect(newest).toHaveTextContent('287,412,930');
    await expect(newest).toHaveTextContent(`${(archiveRows[0].bytes / 1048576).toFixed(1)} MB`);
    await expect(newest).toHaveTextContent('正常');
    const missing = c.getByText('2026-03').closest('tr') as HTMLElement;
    await expect(within(missing).getByText('文件缺失或大小不符')).toBeVisible();
    // how a month is read back
    await expect(c.getByTestId('archive-help')).toHaveTextContent('npm run cli -- archive-restore 分区');
    await expect(calls.list).toBe(1);
  },
};

const states = listStates(recordArchives, shell);
export const Loading: Story = states.loading;
export const LoadError: Story = states.error;
export const Empty: Story = { ...states.empty, name: '暂无归档' };
