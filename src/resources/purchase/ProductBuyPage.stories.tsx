import type { Meta, StoryObj } from '@storybook/react-vite';
import { Route, Routes } from 'react-router';
import { expect, userEvent, within } from 'storybook/test';
import { T, body, clearCalls, withApp } from '@/stories/withApp';
import { consoleApi, msw } from '@/stories/mockApi';
import type { Calls } from '@/stories/sendApi';
import { pathOf } from '@/stories/pageRows';
import { accountApi, certCertified, certNone } from '@/custom-pages/account/stories/accountMocks';
import { ProductBuyPage } from './ProductBuyPage';
import { purchaseHandlers } from './purchase.mock';

const calls: Calls = {};
const handlers = (cert = certCertified) => [...purchaseHandlers({ calls }), ...accountApi({ cert }), ...consoleApi()];

const PATH = pathOf('sms_purchase');
const Screen = () => (
  <Routes>
    <Route path={PATH} element={<ProductBuyPage />} />
  </Routes>
);

const meta = {
  title: 'Purchase/ProductBuyPage',
  component: Screen,
  decorators: [withApp],
  parameters: { app: { path: PATH.replace(':id', '2') }, ...msw(...handlers()) },
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof Screen>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Buy: Story = {
  name: '单个产品：购买',
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('营销短信 1万条', {}, T)).toBeInTheDocument();
    await expect(c.getByRole('button', { name: /返\s*回/ })).toBeInTheDocument();
    await userEvent.type(c.getByLabelText('购买数量'), '1000');
    await userEvent.click(c.getByRole('button', { name: /购\s*买/ }));
    const dialog = await body().findByRole('dialog', { name: '确认订单' }, T);
    // 1000 × 0.0550 × 90 % = 49.50 > 10: the 50.00 rebate pays 49.50
    await expect(within(dialog).getByTestId('order-total')).toHaveTextContent('49.50');
    await expect(within(dialog).getByTestId('order-rebate')).toHaveTextContent('-49.50');
    await expect(within(dialog).getByTestId('order-paid')).toHaveTextContent('0.00');
    await userEvent.click(within(dialog).getByRole('button', { name: /确认购买/ }));
    await expect(await body().findByText('购买成功', {}, T)).toBeInTheDocument();
    await expect(calls.add?.[0]).toMatchObject({ product_id: '2', num: '1000' });
  },
};

export const Invalid: Story = {
  name: '单个产品：数量校验',
  play: async ({ canvas: c }) => {
    await c.findByText('营销短信 1万条', {}, T);
    await userEvent.click(c.getByRole('button', { name: /购\s*买/ }));
    await expect((await c.findAllByText('购买数量不能为空', {}, T)).length).toBeGreaterThan(0);
    await userEvent.type(c.getByLabelText('购买数量'), '1000001');
    await expect((await c.findAllByText('购买数量不能超过100万', {}, T)).length).toBeGreaterThan(0);
  },
};

export const NotFound: Story = {
  name: '产品不存在',
  parameters: { app: { path: PATH.replace(':id', '99') } },
  play: async ({ canvasElement }) =>
    expect(await within(canvasElement).findByText('产品不存在', {}, T)).toBeInTheDocument(),
};

export const Uncertified: Story = {
  name: '单个产品：未认证提示',
  parameters: msw(...handlers(certNone)),
  play: async ({ canvas: c }) => {
    await c.findByText('营销短信 1万条', {}, T);
    await userEvent.type(c.getByLabelText('购买数量'), '100');
    await userEvent.click(c.getByRole('button', { name: /购\s*买/ }));
    await expect(await body().findByText('您尚未通过系统认证，是否前往资质认证？', {}, T)).toBeInTheDocument();
  },
};
