import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { businessNow } from '@/lib/businessTime';
import { T, clearCalls, withApp } from '@/stories/withApp';
import { pathOf } from '@/stories/pageRows';
import { listStates, NO_EXPORT_DATA, refusedExport } from '@/stories/listStates';
import { consoleApi, msw } from '@/stories/mockApi';
import { sendApi, type Calls } from '@/stories/sendApi';
import { ReplyList } from './ReplyList';
import { moRecords } from './data';

const calls: Calls = {};

const meta = {
  title: 'Sending/ReplyList',
  component: ReplyList,
  decorators: [withApp],
  parameters: {
    app: { path: pathOf('statistics_reply') },
    ...msw(...consoleApi(), ...sendApi({ calls })),
  },
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof ReplyList>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Filled: Story = {
  name: '近一个月的回复',
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('收到，谢谢', {}, T)).toBeInTheDocument();
    await expect(calls.getmologs?.[0]).toMatchObject({
      page: '1',
      rows: '15',
      startReceivedate: businessNow().subtract(1, 'month').add(1, 'day').format('YYYY-MM-DD'),
      endReceivedate: businessNow().format('YYYY-MM-DD'),
    });
  },
};

export const ExportNoData: Story = {
  name: '导出：无数据',
  play: refusedExport(NO_EXPORT_DATA, { after: '收到，谢谢' }),
};

const states = listStates(moRecords, [...consoleApi(), ...sendApi()]);
export const Loading: Story = states.loading;
export const LoadError: Story = states.error;
export const Empty: Story = states.empty;
