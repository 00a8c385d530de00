import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { clearCalls, withApp } from '@/stories/withApp';
import { listStates } from '@/stories/listStates';
import { consoleApi, msw } from '@/stories/mockApi';
import { PayOrderState } from '@/generated/schemas';
import type { Calls } from '@/stories/sendApi';
import { pathOf } from '@/stories/pageRows';
import { payApi, payOrder } from '@/stories/payApi';
import { PayOrderList } from './PayOrderList';
import { payOrders } from './data';
import { closedOrder } from './payOrders.mock';

const T = { timeout: 8000 };
const calls: Calls = {};

const meta = {
  title: 'Finance/PayOrderList',
  component: PayOrderList,
  decorators: [withApp],
  parameters: { app: { path: pathOf('finance_payorder') }, ...msw(...consoleApi(), ...payApi({ calls })) },
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof PayOrderList>;
export default meta;
type Story = StoryObj<typeof meta>;

/** order n's id (P20261125100000000000nn) and its row */
const order = (n: number) => `P20261125100000000000${String(n).padStart(2, '0')}`;
const rowOf = (el: HTMLElement, n: number) => within(el).getByText(order(n)).closest('tr') as HTMLElement;

export const EveryState: Story = {
  name: '各状态的订单',
  play: async ({ canvas: c, canvasElement }) => {
    await c.findByText(order(6), {}, T);
    await expect(calls.queryPayOrder?.[0]).toMatchObject({ page: '1', rows: '15' });
    for (const label of ['待支付', '已提交支付', '支付失败', '已取消'])
      await expect(c.getByText(label, { selector: '.ant-tag' })).toBeInTheDocument();
    // 2 and 5 are both 支付成功
    await expect(c.getAllByText('支付成功', { selector: '.ant-tag' })).toHaveLength(2);
    // unpaid orders count down with 支付 / 取消; the others have neither
    const unpaid = rowOf(canvasElement, 6);
    await expect(within(unpaid).getByTestId('row-countdown')).toHaveTextContent(/^(10:00|09:5\d)$/);
    await expect(within(unpaid).getByTestId('row-pay')).toBeEnabled();
    await expect(within(rowOf(canvasElement, 4)).queryByTestId('row-pay')).toBeNull();
    await expect(within(rowOf(canvasElement, 2)).getByText('超时未支付，订单已关闭')).toBeInTheDocument();
  },
};

/** a sandbox order (PAY_SANDBOX: the demo's provider) is marked 沙箱; a real one shows - */
export const SandboxMarked: Story = {
  name: '沙箱订单标记',
  parameters: msw(
    ...consoleApi(),
    ...payApi({
      calls,
      orders: [
        closedOrder(order(21), PayOrderState.Paid, { rowNum: 1, sandbox: 1 }),
        closedOrder(order(20), PayOrderState.PaidAlt, { rowNum: 2, sandbox: 0 }),
      ],
    }),
  ),
  play: async ({ canvas: c, canvasElement }) => {
    await c.findByText(order(21), {}, T);
    await expect(within(rowOf(canvasElement, 21)).getByText('沙箱', { selector: '.ant-tag' })).toBeInTheDocument();
    await expect(within(rowOf(canvasElement, 20)).queryByText('沙箱')).toBeNull();
  },
};

export const CountdownAtZero: Story = {
  name: '倒计时到 0：按钮禁用，列表重新加载',
  parameters: msw(
    ...consoleApi(),
    ...payApi({
      calls,
      orders: (n) =>
        n === 1
          ? [payOrder({ paymentId: order(9), countDownStr: '2' })]
          : [closedOrder(order(9), PayOrderState.Cancelled, { remark: '超时未支付，订单已关闭' })],
    }),
  ),
  play: async ({ canvas: c }) => {
    await c.findByText(order(9), {}, T);
    await waitFor(() => expect((calls.queryPayOrder ?? []).length).toBeGreaterThanOrEqual(2), T);
    await expect(await c.findByText('超时未支付，订单已关闭', {}, T)).toBeInTheDocument();
    await expect(c.queryByTestId('row-pay')).toBeNull();
  },
};

export const ZeroDisablesButtons: Story = {
  name: '倒计时为 0 的未支付订单：支付、取消不可用',
  parameters: msw(
    ...consoleApi(),
    ...payApi({ calls, orders: [payOrder({ paymentId: order(10), countDownStr: '0' })] }),
  ),
  play: async ({ canvas: c }) => {
    await c.findByText(order(10), {}, T);
    await expect(c.getByTestId('row-countdown')).toHaveTextContent('已超时');
    await expect(c.getByTestId('row-pay')).toBeDisabled();
    await expect(c.getByTestId('row-cancel')).toBeDisabled();
  },
};

export const Cancel: Story = {
  name: '取消待支付订单',
  play: async ({ canvas: c, canvasElement }) => {
    await c.findByText(order(6), {}, T);
    await userEvent.click(within(rowOf(canvasElement, 6)).getByTestId('row-cancel'));
    const body = within(canvasElement.ownerDocument.body);
    await expect(await body.findByText('确定取消该支付订单吗？', {}, T)).toBeInTheDocument();
    await userEvent.click(body.getByRole('button', { name: /^确\s*定$/ }));
    await waitFor(() => expect(calls.cancelPay?.[0]).toMatchObject({ paymentId: order(6) }), T);
    await waitFor(() => expect((calls.queryPayOrder ?? []).length).toBeGreaterThanOrEqual(2), T);
  },
};

export const PayAgain: Story = {
  name: '支付：重新打开扫码支付',
  play: async ({ canvas: c, canvasElement }) => {
    await c.findByText(order(6), {}, T);
    await userEvent.click(within(rowOf(canvasElement, 6)).getByTestId('row-pay'));
    const dialog = within(await within(canvasElement.ownerDocument.body).findByRole('dialog', { name: '扫码支付' }, T));
    await expect(dialog.getByTestId('pay-qrcode')).toBeInTheDocument();
    await expect(dialog.getByTestId('pay-countdown')).toHaveTextContent(/剩余支付时间 (10:00|09:5\d)/);
  },
};

const states = listStates(payOrders, [...consoleApi(), ...payApi()]);
export const Loading: Story = states.loading;
export const LoadError: Story = states.error;
export const Empty: Story = states.empty;
