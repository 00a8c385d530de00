import type { Meta, StoryObj } from '@storybook/react-vite';
import { http, HttpResponse } from 'msw';
import { expect, userEvent, within } from 'storybook/test';
import { T, withApp } from '@/stories/withApp';
import { consoleApi, msw } from '@/stories/mockApi';
import { pathOf } from '@/stories/pageRows';
import { InternationalPrices } from './InternationalPrices';
import { purchaseHandlers } from './purchase.mock';

const meta = {
  title: 'Purchase/InternationalPrices',
  component: InternationalPrices,
  decorators: [withApp],
  parameters: { app: { path: pathOf('service_international') }, ...msw(...purchaseHandlers(), ...consoleApi()) },
} satisfies Meta<typeof InternationalPrices>;
export default meta;
type Story = StoryObj<typeof meta>;

export const List: Story = {
  name: '国际价格与搜索',
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('日本', {}, T)).toBeInTheDocument();
    await userEvent.type(c.getByLabelText('搜索国家/地区'), '新加坡{enter}');
    await expect(await c.findByText('0.2800', {}, T)).toBeInTheDocument();
    await expect(c.queryByText('日本')).not.toBeInTheDocument();
  },
};

export const Empty: Story = {
  name: '无数据',
  parameters: msw(...purchaseHandlers({ prices: [] }), ...consoleApi()),
  play: async ({ canvasElement }) =>
    expect(await within(canvasElement).findByText('暂无数据', {}, T)).toBeInTheDocument(),
};

export const Unavailable: Story = {
  name: '接口不存在',
  parameters: msw(
    http.get('/api/sms/gj/prices', () => HttpResponse.json({ code: 404, msg: '接口不存在' }, { status: 404 })),
    ...consoleApi(),
  ),
  play: async ({ canvasElement }) =>
    expect(await within(canvasElement).findByText('暂无数据', {}, T)).toBeInTheDocument(),
};
