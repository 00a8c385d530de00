import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fireEvent, userEvent, waitFor, within } from 'storybook/test';
import { T, body, clearCalls, withApp } from '@/stories/withApp';
import { consoleApi, msw } from '@/stories/mockApi';
import { listStates } from '@/stories/listStates';
import type { Calls } from '@/stories/sendApi';
import { pathOf } from '@/stories/pageRows';
import { accountApi, certCertified, certNone } from '@/custom-pages/account/stories/accountMocks';
import { PurchasePage } from './PurchasePage';
import { purchaseHandlers } from './purchase.mock';
import { products } from './data';

const calls: Calls = {};
const handlers = (o: Parameters<typeof purchaseHandlers>[0] = {}, cert = certCertified) => [
  ...purchaseHandlers({ calls, ...o }),
  ...accountApi({ cert }),
  ...consoleApi(),
];

const meta = {
  title: 'Purchase/PurchasePage',
  component: PurchasePage,
  decorators: [withApp],
  parameters: { app: { path: pathOf('service_purchase') }, ...msw(...handlers()) },
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof PurchasePage>;
export default meta;
type Story = StoryObj<typeof meta>;

const row = (c: ReturnType<typeof within>, name: string) => c.getByRole('row', { name: new RegExp(name) });
/** 提交订单, then the 确认订单 dialog */
const confirmOrder = async (c: ReturnType<typeof within>) => {
  await userEvent.click(c.getByTestId('submit-order'));
  return within(await body().findByRole('dialog', { name: '确认订单' }, T));
};
async function pick(c: ReturnType<typeof within>, name: string, num: string) {
  await userEvent.click(within(row(c, name)).getByRole('checkbox'));
  const input = c.getByLabelText(`${name} 购买数量`);
  await userEvent.clear(input);
  if (num) await userEvent.type(input, num);
}

export const Catalogue: Story = {
  name: '产品列表（折后单价、可用返点）',
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('行业短信 1万条', {}, T)).toBeInTheDocument();
    await expect(within(row(c, '行业短信 1万条')).getByText('0.0428')).toBeInTheDocument();
    await waitFor(() => expect(c.getByTestId('purchase-summary')).toHaveTextContent('50.00'), T);
  },
};

export const Empty: Story = {
  name: '无产品',
  parameters: msw(...handlers({ products: [] })),
  play: async ({ canvasElement }) =>
    expect(await within(canvasElement).findByText('暂无数据', {}, T)).toBeInTheDocument(),
};

export const Loading: Story = listStates(products, handlers()).loading;

export const NothingSelected: Story = {
  name: '未选择：请选择要购买的短信',
  play: async ({ canvas: c }) => {
    await c.findByText('行业短信 1万条', {}, T);
    await userEvent.click(c.getByTestId('submit-order'));
    await expect(await body().findByText('请选择要购买的短信', {}, T)).toBeInTheDocument();
  },
};

export const QuantityRules: Story = {
  name: '购买数量的校验提示',
  play: async ({ canvas: c }) => {
    await c.findByText('行业短信 1万条', {}, T);
    await userEvent.click(within(row(c, '行业短信 1万条')).getByRole('checkbox'));
    const input = c.getByLabelText('行业短信 1万条 购买数量');
    for (const [v, msg] of [
      ['012', '输入的数字格式不正确'],
      ['0', '购买数量为大于0的整数'],
      ['1.5', '购买数量为大于0的整数'],
      ['1000001', '购买数量不能超过100万'],
    ]) {
      await userEvent.clear(input);
      await userEvent.type(input, v);
      await expect(await within(row(c, '行业短信 1万条')).findByText(msg, {}, T)).toBeInTheDocument();
    }
    // a cleared quantity unselects its row; selected again by its box, it still needs a quantity
    await userEvent.clear(input);
    await waitFor(() => expect(within(row(c, '行业短信 1万条')).getByRole('checkbox')).not.toBeChecked(), T);
    await userEvent.click(within(row(c, '行业短信 1万条')).getByRole('checkbox'));
    await userEvent.click(c.getByTestId('submit-order'));
    await expect(await within(row(c, '行业短信 1万条')).findByText('购买数量不能为空', {}, T)).toBeInTheDocument();
    await expect(body().queryByRole('dialog')).not.toBeInTheDocument();
  },
};

export const Confirm: Story = {
  name: '确认订单：总额、返点抵扣、余额支付',
  play: async ({ canvas: c }) => {
    await c.findByText('行业短信 1万条', {}, T);
    await waitFor(() => expect(c.getByTestId('purchase-summary')).toHaveTextContent('50.00'), T);
    await pick(c, '行业短信 1万条', '10000');
    await pick(c, '营销短信 1万条', '500');
    const dialog = await confirmOrder(c);
    // 10000 × 0.0450 × 95 % = 427.50; 500 × 0.0550 × 90 % = 24.75; the discounted price shown is the one computed with
    await expect(dialog.getByTestId('confirm-price-1')).toHaveTextContent('0.04275');
    await expect(dialog.getByTestId('confirm-price-2')).toHaveTextContent('0.0495');
    await expect(dialog.getByTestId('order-total')).toHaveTextContent('452.25');
    await expect(dialog.getByTestId('order-rebate')).toHaveTextContent('-50.00');
    await expect(dialog.getByTestId('order-paid')).toHaveTextContent('402.25');
    await userEvent.click(dialog.getByRole('button', { name: /确认购买/ }));
    await expect(await body().findByText('购买成功', {}, T)).toBeInTheDocument();
    await expect(calls.jsmsAdd?.[0]).toMatchObject({
      list: [
        { productId: 1, purchaseNum: 10000 },
        { productId: 2, purchaseNum: 500 },
      ],
    });
    await expect(String(calls.jsmsAdd?.[0].requestId)).toMatch(/^buy-/);
  },
};

export const SmallOrderNoRebate: Story = {
  name: '确认订单：不超过10元不抵扣返点',
  play: async ({ canvas: c }) => {
    await c.findByText('行业短信 1万条', {}, T);
    await waitFor(() => expect(c.getByTestId('purchase-summary')).toHaveTextContent('50.00'), T);
    await pick(c, '行业短信 1万条', '100');
    const dialog = await confirmOrder(c);
    await expect(dialog.getByTestId('order-total')).toHaveTextContent('4.28');
    await expect(dialog.queryByTestId('order-rebate')).not.toBeInTheDocument();
    await expect(dialog.getByTestId('order-paid')).toHaveTextContent('4.28');
  },
};

export const Refused: Story = {
  name: '余额不足：服务器拒绝',
  parameters: msw(...handlers({ buyAnswer: { code: 500, msg: '余额不足，当前余额 10.00 元，本次需支付 402.25 元' } })),
  play: async ({ canvas: c }) => {
    await c.findByText('行业短信 1万条', {}, T);
    await pick(c, '行业短信 1万条', '10000');
    const dialog = await confirmOrder(c);
    await userEvent.click(dialog.getByRole('button', { name: /确认购买/ }));
    await expect(
      await body().findByText('余额不足，当前余额 10.00 元，本次需支付 402.25 元', {}, T),
    ).toBeInTheDocument();
    await expect(body().getByRole('dialog', { name: '确认订单' })).toBeInTheDocument();
  },
};

export const Uncertified: Story = {
  name: '未认证：提示前往资质认证',
  parameters: msw(...handlers({}, certNone)),
  play: async ({ canvas: c }) => {
    await c.findByText('行业短信 1万条', {}, T);
    await pick(c, '行业短信 1万条', '100');
    await userEvent.click(c.getByTestId('submit-order'));
    const dialog = await body().findByRole('dialog', {}, T);
    await expect(dialog).toHaveTextContent('您尚未通过系统认证，是否前往资质认证？');
    await expect(within(dialog).getByRole('button', { name: '是' })).toBeInTheDocument();
    await expect(within(dialog).getByRole('button', { name: '否' })).toBeInTheDocument();
    await expect(body().queryByRole('dialog', { name: '确认订单' })).not.toBeInTheDocument();
  },
};

export const TypedQuantitySelectsRow: Story = {
  name: '输入数量即选中该行（abc 被拒绝）',
  play: async ({ canvas: c }) => {
    await c.findByText('营销短信 1万条', {}, T);
    const input = c.getByLabelText('营销短信 1万条 购买数量');
    await fireEvent.change(input, { target: { value: 'abc' } });
    await expect(await within(row(c, '营销短信 1万条')).findByText('购买数量为大于0的整数', {}, T)).toBeInTheDocument();
    await expect(within(row(c, '营销短信 1万条')).getByRole('checkbox')).toBeChecked();
    await fireEvent.change(input, { target: { value: '2000' } });
    await expect(within(row(c, '营销短信 1万条')).getByRole('checkbox')).toBeChecked();
    const dialog = await confirmOrder(c);
    // 2000 × 0.0550 = 110.00 at list price; × 90 % = 99.00
    await expect(dialog.getByTestId('order-list-total')).toHaveTextContent('110.00');
    await expect(dialog.getByTestId('order-total')).toHaveTextContent('99.00');
    await expect(dialog.getByText('0.0550')).toBeInTheDocument();
    await expect(dialog.getByText('90.00%')).toBeInTheDocument();
  },
};

export const PackageMultiple: Story = {
  name: '套餐产品：数量须为每份数量的整数倍',
  play: async ({ canvas: c }) => {
    await c.findByText('国际短信余额 100元', {}, T);
    const input = c.getByLabelText('国际短信余额 100元 购买数量');
    await expect(input).toHaveAttribute('placeholder', '100.00元 的整数倍');
    await fireEvent.change(input, { target: { value: '150' } });
    const multiple = '该产品为 100.00元 的套餐，购买数量须为 100.00元 的整数倍';
    await expect(await within(row(c, '国际短信余额 100元')).findByText(multiple, {}, T)).toBeInTheDocument();
    await userEvent.click(c.getByTestId('submit-order'));
    await expect(body().queryByRole('dialog', { name: '确认订单' })).not.toBeInTheDocument();
    await fireEvent.change(input, { target: { value: '200' } });
    await waitFor(() => expect(within(row(c, '国际短信余额 100元')).queryByText(/整数倍/)).not.toBeInTheDocument(), T);
  },
};

export const RebateChoiceAndWayOn: Story = {
  name: '返点抵扣可选；购买后可前往剩余条数、短信账单',
  play: async ({ canvas: c }) => {
    await c.findByText('行业短信 1万条', {}, T);
    await waitFor(() => expect(c.getByTestId('purchase-summary')).toHaveTextContent('50.00'), T);
    await fireEvent.change(c.getByLabelText('行业短信 1万条 购买数量'), { target: { value: '10000' } });
    const dialog = await confirmOrder(c);
    await expect(dialog.getByTestId('order-paid')).toHaveTextContent('377.50');
    await userEvent.click(dialog.getByTestId('use-rebate'));
    await expect(dialog.getByTestId('order-paid')).toHaveTextContent('427.50');
    await userEvent.click(dialog.getByRole('button', { name: /确认购买/ }));
    const done = await c.findByTestId('purchase-done', {}, T);
    await expect(calls.jsmsAdd?.[0]).toMatchObject({ useRebate: false, list: [{ productId: 1, purchaseNum: 10000 }] });
    await expect(done).toHaveTextContent('订单号 20261125100000123456');
    await expect(within(done).getByRole('button', { name: '查看剩余条数' })).toBeInTheDocument();
    await expect(within(done).getByRole('button', { name: '查看短信账单' })).toBeInTheDocument();
  },
};
