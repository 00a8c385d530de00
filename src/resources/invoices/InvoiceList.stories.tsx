import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { consoleApi, subAccount, msw } from '@/stories/mockApi';
import { type Calls } from '@/stories/sendApi';
import { body, clearCalls, withApp } from '@/stories/withApp';
import { listStates } from '@/stories/listStates';
import { pathOf } from '@/stories/pageRows';
import InvoiceList from './InvoiceList';
import { invoiceApi } from './storyMocks';
import { invoices } from './data';

const T = { timeout: 10000 };
const LIST = pathOf('finance_invoice_list');
const calls: Calls = {};

const meta = {
  title: 'Finance/InvoiceList',
  component: InvoiceList,
  decorators: [withApp],
  parameters: {
    app: { path: LIST, route: LIST },
    ...msw(...consoleApi(), ...invoiceApi({ calls })),
  },
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof InvoiceList>;
export default meta;
type Story = StoryObj<typeof meta>;

/** the row of invoice FP20261120000`id` */
const rowOf = async (canvas: HTMLElement, id: number) =>
  within((await within(canvas).findByText(`FP20261120000${id}`, {}, T)).closest('tr') as HTMLElement);

export const EveryState: Story = {
  name: '每种状态',
  play: async ({ canvas: c, canvasElement }) => {
    await c.findByText('FP20261120000106', {}, T);
    await expect(calls.invoiceList?.[0]).toMatchObject({ page: '1', rows: '15' });
    for (const s of ['待审核', '已取消', '审核不通过', '开票中', '已邮寄', '已退回'])
      await expect(c.getAllByText(s).length).toBeGreaterThan(0);
    for (const label of ['发票类型', '状态', '开始日期', '结束日期'])
      await expect(c.getAllByText(label).length).toBeGreaterThan(0);
    // cancel only at 0; express info only for the mailed VAT invoice
    const cancelButtons = c.getAllByRole('button', { name: /取\s*消/ });
    await expect(cancelButtons).toHaveLength(1);
    await expect((await rowOf(canvasElement, 106)).getByRole('button', { name: /取\s*消/ })).toBeInTheDocument();
    await expect(c.getAllByRole('button', { name: /快递信息/ })).toHaveLength(1);
    await expect((await rowOf(canvasElement, 102)).getByRole('button', { name: /快递信息/ })).toBeInTheDocument();
  },
};

export const AccountColumn: Story = {
  name: '代理商：开票账户列（代子账户申请的发票）',
  play: async ({ canvas: c, canvasElement }) => {
    await expect(await c.findByRole('columnheader', { name: '开票账户' }, T)).toBeInTheDocument();
    await expect((await rowOf(canvasElement, 105)).getByText('b20001-上海优品电商有限公司')).toBeInTheDocument();
    await expect((await rowOf(canvasElement, 106)).getByText('agent1-上海云讯通信科技有限公司')).toBeInTheDocument();
  },
};

export const SubAccountNoAccountColumn: Story = {
  name: '子账户：无开票账户列',
  parameters: msw(...consoleApi({ user: subAccount }), ...invoiceApi({ calls })),
  play: async ({ canvas: c }) => {
    await c.findByText('FP20261120000106', {}, T);
    await expect(c.queryByRole('columnheader', { name: '开票账户' })).toBeNull();
  },
};

export const RejectedDetail: Story = {
  name: '详情：审核不通过原因',
  play: async ({ canvasElement }) => {
    const row = await rowOf(canvasElement, 104);
    await userEvent.click(row.getByRole('button', { name: /详\s*情/ }));
    const d = within(await body().findByTestId('invoice-detail', {}, T));
    await expect(d.getByText('审核不通过原因')).toBeInTheDocument();
    await expect(d.getByText('纳税人识别号与抬头不符')).toBeInTheDocument();
    await expect(calls.invoiceDetailed?.[0]).toMatchObject({ id: '104', invoiceType: '1' });
  },
};

export const ReturnedDetail: Story = {
  name: '详情：退回原因',
  play: async ({ canvasElement }) => {
    const row = await rowOf(canvasElement, 101);
    await userEvent.click(row.getByRole('button', { name: /详\s*情/ }));
    const d = within(await body().findByTestId('invoice-detail', {}, T));
    await expect(d.getByText('退回原因')).toBeInTheDocument();
    await expect(d.getByText('收件人拒收')).toBeInTheDocument();
    await expect(d.getByText('上海市/市辖区/浦东新区')).toBeInTheDocument();
  },
};

export const Express: Story = {
  name: '快递信息（已邮寄的增值税专用发票）',
  play: async ({ canvasElement }) => {
    const row = await rowOf(canvasElement, 102);
    await userEvent.click(row.getByRole('button', { name: /快递信息/ }));
    const info = within(await body().findByTestId('express-info', {}, T));
    await expect(info.getByText(/顺丰速运/)).toBeInTheDocument();
    await expect(info.getByText('SF1234567890')).toBeInTheDocument();
  },
};

export const CancelConfirmed: Story = {
  name: '取消（确认后）',
  play: async ({ canvasElement }) => {
    const row = await rowOf(canvasElement, 106);
    await userEvent.click(row.getByRole('button', { name: /取\s*消/ }));
    await expect(await body().findByText('确定取消该发票申请吗？', {}, T)).toBeInTheDocument();
    await userEvent.click(body().getByRole('button', { name: /确\s*定/ }));
    await expect(await body().findByText('发票申请已取消', {}, T)).toBeInTheDocument();
    await expect(calls.cancel?.[0]).toMatchObject({
      id: 106,
      invoiceId: 'FP20261120000106',
      status: 0,
      updateTime: Date.UTC(2026, 10, 20),
    });
    await waitFor(() => expect(calls.invoiceList?.length).toBeGreaterThan(1), T);
  },
};

export const ApplyButton: Story = {
  name: '申请发票',
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByRole('button', { name: /申请发票/ }, T));
    await expect(await c.findByTestId('went', {}, T)).toHaveTextContent('/finance/invoice/add');
  },
};

const states = listStates(invoices, [...consoleApi(), ...invoiceApi()]);
export const Loading: Story = states.loading;
export const LoadError: Story = states.error;
export const Empty: Story = states.empty;
