import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { clearCalls, withApp } from '@/stories/withApp';
import { agentPackageMode, consoleApi, subAccount, msw } from '@/stories/mockApi';
import type { Calls } from '@/stories/sendApi';
import { payApi, payOrder } from '@/stories/payApi';
import { PayOrderState } from '@/generated/schemas';
import { closedOrder } from '@/resources/pay-orders/payOrders.mock';
import { PayDialog, RechargeButton } from './OnlinePay';

const T = { timeout: 8000 };
const calls: Calls = {};
const body = (el: HTMLElement) => within(el.ownerDocument.body);

const meta = {
  title: 'Finance/OnlinePay',
  component: RechargeButton,
  decorators: [withApp],
  args: { user: agentPackageMode },
  parameters: msw(
    ...consoleApi(),
    ...payApi({
      calls,
      status: (n, id) =>
        n < 2
          ? payOrder({ paymentId: id, paymentState: PayOrderState.Submitted })
          : closedOrder(id, PayOrderState.Paid),
    }),
  ),
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof RechargeButton>;
export default meta;
type Story = StoryObj<typeof meta>;

export const RechargeAndPay: Story = {
  name: '在线充值 → 扫码支付 → 支付成功',
  play: async ({ canvas: c, canvasElement }) => {
    await userEvent.click(await c.findByTestId('online-recharge', {}, T));
    const dialog = within(await body(canvasElement).findByRole('dialog', { name: '在线充值' }, T));
    await userEvent.click(dialog.getByRole('button', { name: '去支付' }));
    await expect(await dialog.findByText('请输入充值金额', {}, T)).toBeInTheDocument();
    const amount = dialog.getByLabelText('充值金额（元）');
    await userEvent.type(amount, '0.5');
    await userEvent.click(dialog.getByRole('button', { name: '去支付' }));
    await expect(await dialog.findByText('充值金额为1元至100万元', {}, T)).toBeInTheDocument();
    await userEvent.clear(amount);
    await userEvent.type(amount, '88.88');
    await userEvent.click(dialog.getByRole('button', { name: '去支付' }));
    await waitFor(() => expect(calls.createPay?.[0]).toMatchObject({ amount: '88.88', paymentMode: '0' }), T);
    const pay = within(await body(canvasElement).findByRole('dialog', { name: '扫码支付' }, T));
    await expect(pay.getByTestId('pay-amount')).toHaveTextContent('¥ 88.88');
    await expect(await pay.findByTestId('pay-qrcode', {}, T)).toBeInTheDocument();
    await expect(pay.getByTestId('pay-countdown')).toHaveTextContent(/剩余支付时间 (15:00|14:5\d)/);
    await expect(pay.getByText('请使用支付宝扫描二维码完成支付')).toBeInTheDocument();
    await expect(pay.getByTestId('pay-link')).toHaveAttribute(
      'href',
      expect.stringContaining('/onlinePay/sandbox/scan?'),
    );
    // polled until paid
    await expect(await pay.findByText('支付成功', {}, { timeout: 12000 })).toBeInTheDocument();
    await expect(pay.queryByTestId('pay-qrcode')).toBeNull();
  },
};

export const Hidden: Story = {
  name: '子账户或未开通（isOpenPay ≠ 1）：无按钮',
  args: { user: subAccount },
  render: (args) => (
    <div data-testid="probe">
      <RechargeButton {...args} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    await new Promise((r) => setTimeout(r, 500));
    await expect(within(canvasElement).getByTestId('probe')).toBeEmptyDOMElement();
  },
};

export const NotOpen: Story = {
  name: '代理商，未开通在线充值：无按钮',
  parameters: msw(...consoleApi(), ...payApi({ calls, isOpenPay: 0 })),
  render: (args) => (
    <div data-testid="probe">
      <RechargeButton {...args} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(calls).toBeDefined(), T);
    await new Promise((r) => setTimeout(r, 800));
    await expect(within(canvasElement).getByTestId('probe')).toBeEmptyDOMElement();
  },
};

export const Expired: Story = {
  name: '扫码支付：订单已超时',
  render: () => <PayDialog order={payOrder({ countDownStr: '0' })} onClose={() => undefined} />,
  parameters: msw(
    ...consoleApi(),
    ...payApi({
      status: (_n, id) => closedOrder(id, PayOrderState.Cancelled, { remark: '超时未支付，订单已关闭' }),
    }),
  ),
  play: async ({ canvasElement }) => {
    const pay = within(await body(canvasElement).findByRole('dialog', { name: '扫码支付' }, T));
    await expect(await pay.findByText('订单已超时', {}, T)).toBeInTheDocument();
    await expect(pay.queryByTestId('pay-qrcode')).toBeNull();
  },
};

export const Cancelled: Story = {
  name: '扫码支付：取消订单',
  render: () => <PayDialog order={payOrder({ countDownStr: '600' })} onClose={() => undefined} pollMs={60_000} />,
  parameters: msw(
    ...consoleApi(),
    ...payApi({
      calls,
      status: (n, id) =>
        n < 2
          ? payOrder({ paymentId: id, countDownStr: '600' })
          : closedOrder(id, PayOrderState.Cancelled, { remark: '用户取消' }),
    }),
  ),
  play: async ({ canvasElement }) => {
    const b = body(canvasElement);
    const pay = within(await b.findByRole('dialog', { name: '扫码支付' }, T));
    await userEvent.click(await pay.findByTestId('pay-cancel', {}, T));
    await userEvent.click(await b.findByRole('button', { name: /^确\s*定$/ }, T));
    await waitFor(() => expect(calls.cancelPay?.[0]).toMatchObject({ paymentId: 'P2026112510000012345678' }), T);
    await expect(await pay.findByText('用户取消', {}, T)).toBeInTheDocument();
  },
};

// the dialogs below: one order object (a new one handed in would reset the dialog, as a new order does)
const openOrder = payOrder({ countDownStr: '600' });
// PaidOnConfirm: the payer pays between two polls
let paidNow = false;

export const NotReceived: Story = {
  name: '扫码支付：未付款点击我已完成支付 → 尚未收到付款，弹窗保留',
  render: () => <PayDialog order={openOrder} onClose={() => calls.closed?.push({})} pollMs={60_000} />,
  parameters: msw(
    ...consoleApi(),
    ...payApi({ calls, status: (_n, id) => payOrder({ paymentId: id, countDownStr: '590' }) }),
  ),
  play: async ({ canvasElement }) => {
    calls.closed = [];
    const pay = within(await body(canvasElement).findByRole('dialog', { name: '扫码支付' }, T));
    await expect(await pay.findByTestId('pay-qrcode', {}, T)).toBeInTheDocument();
    await waitFor(() => expect(calls.payStatus?.length).toBeGreaterThan(0), T);
    const polls = calls.payStatus.length;
    await expect(pay.queryByTestId('pay-not-received')).toBeNull();
    await userEvent.click(pay.getByRole('button', { name: '我已完成支付' }));
    // asked the server at once (not at the next poll, a minute away), which says still unpaid
    await waitFor(() => expect(calls.payStatus).toHaveLength(polls + 1), T);
    await expect(await pay.findByTestId('pay-not-received', {}, T)).toHaveTextContent('尚未收到付款');
    await expect(pay.getByTestId('pay-qrcode')).toBeInTheDocument();
    await expect(pay.getByTestId('pay-countdown')).toBeInTheDocument();
    // the button can be clicked again (its loading spinner gone)
    await waitFor(() => expect(pay.getByRole('button', { name: '我已完成支付' })).toBeEnabled(), T);
    await expect(calls.closed).toHaveLength(0);
  },
};

export const PaidOnConfirm: Story = {
  name: '扫码支付：付款后点击我已完成支付 → 支付成功并关闭',
  render: () => (
    <PayDialog
      order={openOrder}
      onClose={() => calls.closed?.push({})}
      onChanged={(o) => calls.changed?.push(o)}
      pollMs={60_000}
    />
  ),
  parameters: msw(
    ...consoleApi(),
    ...payApi({
      calls,
      status: (_n, id) =>
        paidNow
          ? closedOrder(id, PayOrderState.Paid, { paidTimeStr: '2026-11-25 10:01:00' })
          : payOrder({ paymentId: id, countDownStr: '600' }),
    }),
  ),
  beforeEach: () => {
    paidNow = false;
  },
  play: async ({ canvasElement }) => {
    calls.closed = [];
    calls.changed = [];
    const b = body(canvasElement);
    const pay = within(await b.findByRole('dialog', { name: '扫码支付' }, T));
    await waitFor(() => expect(calls.payStatus?.length).toBeGreaterThan(0), T);
    await expect(await pay.findByTestId('pay-qrcode', {}, T)).toBeInTheDocument();
    paidNow = true;
    await userEvent.click(pay.getByRole('button', { name: '我已完成支付' }));
    await expect(await b.findByText('支付成功', {}, T)).toBeInTheDocument();
    await waitFor(() => expect(calls.closed).toHaveLength(1), T);
    await expect(calls.changed).toEqual([expect.objectContaining({ paymentState: 2 })]);
    await expect(b.queryByTestId('pay-not-received')).toBeNull();
  },
};
