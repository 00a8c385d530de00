import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { businessNow } from '@/lib/businessTime';
import { withApp } from '@/stories/withApp';
import { consoleApi } from '@/stories/mockApi';
import { never, sendApi, type Calls } from '@/stories/sendApi';
import { ReplyList } from './ReplyList';

const T = { timeout: 5000 };
const calls: Calls = {};

const meta = {
  title: 'Sending/ReplyList',
  component: ReplyList,
  decorators: [withApp],
  parameters: {
    app: { path: '/customer/sendlayout/sendrecord/reply' },
    msw: { handlers: [...consoleApi(), ...sendApi({ calls })] },
  },
  beforeEach: () => {
    for (const k of Object.keys(calls)) delete calls[k];
  },
} satisfies Meta<typeof ReplyList>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Filled: Story = {
  name: '近一个月的回复',
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(await c.findByText('收到，谢谢', {}, T)).toBeInTheDocument();
    await expect(calls.getmologs?.[0]).toMatchObject({
      page: '1',
      rows: '15',
      startReceivedate: businessNow().subtract(1, 'month').add(1, 'day').format('YYYY-MM-DD'),
      endReceivedate: businessNow().format('YYYY-MM-DD'),
    });
  },
};

export const Empty: Story = {
  name: '无数据',
  parameters: { msw: { handlers: [...consoleApi(), ...sendApi({ mo: [] })] } },
  play: async ({ canvasElement }) =>
    expect(await within(canvasElement).findByText('暂无数据', {}, T)).toBeInTheDocument(),
};

export const Loading: Story = {
  name: '加载中',
  parameters: { msw: { handlers: [never('send/getmologs'), ...consoleApi(), ...sendApi()] } },
  play: async ({ canvasElement }) =>
    waitFor(() => expect(canvasElement.querySelector('.ant-spin-spinning')).not.toBeNull(), T),
};

export const ExportNoData: Story = {
  name: '导出：无数据',
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await c.findByText('收到，谢谢', {}, T);
    await userEvent.click(c.getByRole('button', { name: /导\s*出/ }));
    await expect(await within(document.body).findByText('当前条件没有数据，无法导出', {}, T)).toBeInTheDocument();
  },
};
