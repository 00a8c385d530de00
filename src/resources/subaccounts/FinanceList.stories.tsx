import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { body, withApp } from '@/stories/withApp';
import { pathOf } from '@/stories/pageRows';
import { listStates } from '@/stories/listStates';
import FinanceList from './FinanceList';
import { confirmTransfer, subAccountHandlers } from './storyMocks';
import { subAccountFinance } from './data';

const T = { timeout: 10000 };
const OK = /确\s*定|OK/;

const meta = {
  title: 'SubAccounts/FinanceList',
  component: FinanceList,
  decorators: [withApp],
  parameters: { msw: { handlers: subAccountHandlers() }, app: { path: pathOf('customer_finance') } },
} satisfies Meta<typeof FinanceList>;
export default meta;
type Story = StoryObj<typeof meta>;

const rowOf = async (c: ReturnType<typeof within>, id: string) =>
  (await c.findByText(id, {}, T)).closest('tr') as HTMLElement;

export const Filled: Story = {
  name: '客户财务列表',
  play: async ({ canvas: c }) => {
    const postpaid = await rowOf(c, 'w9hx3p');
    await expect(within(postpaid).getByText('使用主账户余额')).toBeInTheDocument();
    await expect(within(postpaid).queryByRole('button', { name: '充值' })).toBeNull();
    await expect(within(postpaid).queryByRole('button', { name: '提醒' })).toBeNull();
    const prepaid = await rowOf(c, 'c7k2mq');
    await expect(within(prepaid).getByRole('button', { name: '充值' })).toBeInTheDocument();
    await expect(within(prepaid).getByText('0.0400 元')).toBeInTheDocument();
    await expect(await c.findByText('48,499.50 元')).toBeInTheDocument();
    await expect(c.queryByRole('columnheader', { name: '短信类型' })).toBeNull();
  },
};

export const DirectChargeMode: Story = {
  name: '直充模式',
  parameters: { msw: { handlers: subAccountHandlers({ mode: '0' }) } },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('columnheader', { name: '短信类型' }, T)).toBeInTheDocument();
  },
};

export const Empty: Story = {
  name: '空列表',
  parameters: { msw: { handlers: subAccountHandlers({ list: [] }) } },
  play: async ({ canvasElement }) => waitFor(() => expect(canvasElement.querySelector('.ant-empty')).not.toBeNull(), T),
};

export const InsufficientBalance: Story = {
  name: '充值：余额不足',
  parameters: { msw: { handlers: subAccountHandlers({ recharge: 'insufficient' }) } },
  play: async ({ canvasElement }) => {
    await userEvent.click(within(await rowOf(within(canvasElement), 'c7k2mq')).getByRole('button', { name: '充值' }));
    const dialog = await body().findByRole('dialog', {}, T);
    await userEvent.type(within(dialog).getByLabelText('充值金额(元)'), '60000');
    await userEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await confirmTransfer('充值 60,000.00 元？');
    await expect(await within(dialog).findByTestId('transfer-error', {}, T)).toHaveTextContent('可用余额不足');
  },
};

export const Price: Story = {
  name: '价格设置',
  play: async ({ canvasElement }) => {
    await userEvent.click(within(await rowOf(within(canvasElement), 'c7k2mq')).getByRole('button', { name: '价格' }));
    const dialog = await body().findByRole('dialog', {}, T);
    const mobile = within(dialog).getByLabelText('移动(元/条)');
    await userEvent.clear(mobile);
    await userEvent.type(mobile, '0.123456');
    await userEvent.click(within(dialog).getByRole('button', { name: OK }));
    await expect(await within(dialog).findByText('单价必须为数字,最多保留四位小数', {}, T)).toBeInTheDocument();
    await userEvent.clear(mobile);
    await userEvent.type(mobile, '0.0390');
    await userEvent.click(within(dialog).getByRole('button', { name: OK }));
    await expect(await body().findByText('价格设置成功', {}, T)).toBeInTheDocument();
  },
};

export const Reminder: Story = {
  name: '余额提醒',
  play: async ({ canvasElement }) => {
    await userEvent.click(within(await rowOf(within(canvasElement), 'c7k2mq')).getByRole('button', { name: '提醒' }));
    const dialog = await body().findByRole('dialog', {}, T);
    const m = within(dialog).getByLabelText('提醒手机号');
    await userEvent.clear(m);
    await userEvent.type(m, '123');
    await userEvent.click(within(dialog).getByRole('button', { name: OK }));
    await expect(await within(dialog).findByText('手机号码格式不正确', {}, T)).toBeInTheDocument();
    await userEvent.clear(m);
    await userEvent.type(m, '13900139001');
    await userEvent.click(within(dialog).getByRole('button', { name: OK }));
    await expect(await body().findByText('提醒设置成功', {}, T)).toBeInTheDocument();
  },
};

export const Expiration: Story = {
  name: '到期时间',
  play: async ({ canvasElement }) => {
    await userEvent.click(within(await rowOf(within(canvasElement), 'n4tb8w')).getByRole('button', { name: '到期' }));
    const dialog = await body().findByRole('dialog', {}, T);
    await expect(within(dialog).getByText('到期日期（不填为长期有效）')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: OK }));
    await expect(await body().findByText('到期时间设置成功', {}, T)).toBeInTheDocument();
  },
};

const states = listStates(subAccountFinance, subAccountHandlers());
export const Loading: Story = states.loading;
export const LoadError: Story = states.error;
