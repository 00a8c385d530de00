import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { consoleApi, subAccount, msw } from '@/stories/mockApi';
import { never, type Calls } from '@/stories/sendApi';
import { body, clearCalls, withApp } from '@/stories/withApp';
import { pathOf } from '@/stories/pageRows';
import InvoiceApply from './InvoiceApply';
import { initFor, invoiceApi } from './storyMocks';

const T = { timeout: 10000 };
const APPLY = pathOf('finance_invoice_add');
const calls: Calls = {};

const meta = {
  title: 'Finance/InvoiceApply',
  component: InvoiceApply,
  decorators: [withApp],
  parameters: {
    app: { path: APPLY, route: APPLY },
    ...msw(...consoleApi(), ...invoiceApi({ calls })),
  },
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof InvoiceApply>;
export default meta;
type Story = StoryObj<typeof meta>;

const submit = (c: ReturnType<typeof within>) => userEvent.click(c.getByRole('button', { name: /提交申请/ }));
const amount = async (c: ReturnType<typeof within>, v: string) => {
  const input = await c.findByLabelText('发票金额', {}, T);
  await userEvent.clear(input);
  if (v) await userEvent.type(input, v);
};
const vat = async (c: ReturnType<typeof within>) =>
  userEvent.click(await c.findByLabelText('增值税专用电子发票', {}, T));

export const Ordinary: Story = {
  name: '普通电子发票（已保存的信息）',
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('can-amount', {}, T)).toHaveTextContent('50,000.00');
    await expect(c.getByText('信息服务费')).toBeInTheDocument();
    await expect(await c.findByLabelText('发票抬头', {}, T)).toHaveValue('上海云讯通信科技有限公司');
    await expect(c.getByLabelText('电子邮箱')).toHaveValue('finance@demo.local');
    await expect(c.getByLabelText('纳税人识别号')).toBeInTheDocument();
    // the VAT-only fields are hidden
    await expect(c.queryByLabelText('开户银行')).toBeNull();
  },
};

export const AmountMessages: Story = {
  name: '金额校验',
  play: async ({ canvas: c }) => {
    await amount(c, 'abc');
    await submit(c);
    await expect(await c.findByText('发票金额必须为数字,最多保留两位小数', {}, T)).toBeInTheDocument();
    await amount(c, '1.234');
    await submit(c);
    await expect(await c.findByText('发票金额必须为数字,最多保留两位小数', {}, T)).toBeInTheDocument();
    await amount(c, '0');
    await submit(c);
    await expect(await c.findByText('发票金额不能为0', {}, T)).toBeInTheDocument();
    await amount(c, '50000.01');
    await submit(c);
    await expect(await c.findByText('发票金额不能大于可开票金额（可开票金额 50000.00 元）', {}, T)).toBeInTheDocument();
    await expect(calls.check).toBeUndefined();
  },
};

export const OrdinaryMessages: Story = {
  name: '普通发票：抬头、邮箱、手机号码、纳税人识别号',
  parameters: msw(...consoleApi(), ...invoiceApi({ calls, init: initFor({ ordinary: { invoiceType: 1 } }) })),
  play: async ({ canvas: c }) => {
    await amount(c, '100');
    await submit(c);
    for (const m of ['发票抬头不能为空', '邮箱不能为空', '手机号码不能为空', '纳税人识别号不能为空'])
      await expect(await c.findByText(m, {}, T)).toBeInTheDocument();
    await userEvent.type(c.getByLabelText('发票抬头'), '抬'.repeat(51));
    await userEvent.type(c.getByLabelText('电子邮箱'), 'not-mail');
    await userEvent.type(c.getByLabelText('手机号码'), '123');
    await submit(c);
    for (const m of ['发票抬头不能超过50个字符', '邮箱格式不正确', '手机号码格式不正确'])
      await expect(await c.findByText(m, {}, T)).toBeInTheDocument();
    // a person needs no tax number
    await userEvent.click(c.getByLabelText('个人'));
    await waitFor(() => expect(c.queryByLabelText('纳税人识别号')).toBeNull(), T);
  },
};

export const VatMessages: Story = {
  name: '增值税专用发票：每项必填',
  play: async ({ canvas: c }) => {
    await vat(c);
    await expect(await c.findByLabelText('开户银行', {}, T)).toBeInTheDocument();
    await expect(c.queryByLabelText('电子邮箱')).toBeNull();
    await expect(c.getByText('收件人电话')).toBeInTheDocument();
    await amount(c, '100');
    await submit(c);
    for (const m of [
      '注册地址不能为空',
      '注册电话不能为空',
      '开户银行不能为空',
      '银行账号不能为空',
      '收件人不能为空',
      '所在地区不能为空',
      '详细地址不能为空',
    ]) {
      await expect(await c.findByText(m, {}, T)).toBeInTheDocument();
    }
  },
};

export const ConfirmAndSubmit: Story = {
  name: '确认后提交，转到申请记录',
  play: async ({ canvas: c }) => {
    await amount(c, '1234.5');
    await submit(c);
    const dialog = await body().findByTestId('invoice-confirm', {}, T);
    await expect(within(dialog).getByText('信息服务费')).toBeInTheDocument();
    await expect(within(dialog).getByText('finance@demo.local')).toBeInTheDocument();
    await expect(calls.check?.[0]).toMatchObject({
      invoiceType: 1,
      invoiceAmount: '1234.5',
      email: 'finance@demo.local',
      creditCode: '91310115MA1K4ABCD1',
    });
    await expect(calls.check?.[0].bank).toBeUndefined();
    await userEvent.click(body().getByRole('button', { name: /确认提交/ }));
    await expect(await c.findByTestId('went', {}, T)).toHaveTextContent('/finance/invoice/add/list');
    await expect(calls.add?.[0]).toMatchObject({ invoiceType: 1, invoiceAmount: '1234.5' });
  },
};

export const ServerRefusal: Story = {
  name: '服务器拒绝（显示在字段上）',
  parameters: msw(
    ...consoleApi(),
    ...invoiceApi({
      calls,
      check: {
        code: 400,
        msg: '发票金额不能大于可开票金额（可开票金额 10.00 元）',
        data: {
          errors: [{ field: 'invoiceAmount', message: '发票金额不能大于可开票金额（可开票金额 10.00 元）' }],
        },
      },
    }),
  ),
  play: async ({ canvas: c }) => {
    await amount(c, '20');
    await submit(c);
    await expect(await c.findByText('发票金额不能大于可开票金额（可开票金额 10.00 元）', {}, T)).toBeInTheDocument();
    await expect(body().queryByTestId('invoice-confirm')).toBeNull();
  },
};

export const SubAccount: Story = {
  name: '子账户：不选择发票类型和开票账户',
  parameters: msw(
    ...consoleApi({ user: subAccount }),
    ...invoiceApi({
      calls,
      init: initFor({
        clientId: 'b20001',
        accountStr: 'b20001-上海优品电商有限公司',
        canChooseType: false,
        canChooseAccount: false,
        invoiceTypes: [1],
        canAmount: '1200.00',
      }),
    }),
  ),
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('can-amount', {}, T)).toHaveTextContent('1,200.00');
    await expect(c.queryByLabelText('增值税专用电子发票')).toBeNull();
    await expect(c.getByLabelText('电子邮箱')).toBeInTheDocument();
    await expect(c.queryByTestId('invoice-account')).toBeNull();
    await expect(c.queryByText('开票账户')).toBeNull();
    await expect(calls.getclients).toBeUndefined();
  },
};

/** picks 开票账户 by its option text */
const pickAccount = async (c: ReturnType<typeof within>, label: string) => {
  const select = await c.findByTestId('invoice-account', {}, T);
  await userEvent.click(select.querySelector('.ant-select-selector') as HTMLElement);
  await userEvent.click(await body().findByText(label, { selector: '.ant-select-item-option-content' }, T));
};

export const AgentForSubAccount: Story = {
  name: '代理商：代子账户申请（子账户的可开票金额和开票信息）',
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('can-amount', {}, T)).toHaveTextContent('50,000.00');
    // the agent's own account first
    await expect(await c.findByTestId('invoice-account', {}, T)).toHaveTextContent('本账户');
    await expect(c.getByLabelText('发票抬头')).toHaveValue('上海云讯通信科技有限公司');
    await pickAccount(c, 'b20001-上海优品电商有限公司');
    await waitFor(() => expect(calls.init?.at(-1)).toEqual({ clientId: 'b20001' }), T);
    // that account's amount and saved information
    await waitFor(() => expect(c.getByTestId('can-amount')).toHaveTextContent('1,200.00'), T);
    await waitFor(() => expect(c.getByLabelText('发票抬头')).toHaveValue('上海优品电商有限公司'), T);
    await expect(c.getByLabelText('电子邮箱')).toHaveValue('fp@youpin.local');
    await expect(c.getByTestId('invoice-account')).toHaveTextContent('b20001-上海优品电商有限公司');
    // its amount is the limit
    await amount(c, '1200.01');
    await submit(c);
    await expect(await c.findByText('发票金额不能大于可开票金额（可开票金额 1200.00 元）', {}, T)).toBeInTheDocument();
    await expect(calls.check).toBeUndefined();
    await amount(c, '1000');
    await submit(c);
    const dialog = await body().findByTestId('invoice-confirm', {}, T);
    await expect(within(dialog).getByText('b20001-上海优品电商有限公司')).toBeInTheDocument();
    await expect(calls.check?.[0]).toMatchObject({
      clientId: 'b20001',
      invoiceAmount: '1000',
      invoiceHead: '上海优品电商有限公司',
    });
    await userEvent.click(body().getByRole('button', { name: /确认提交/ }));
    await expect(await c.findByTestId('went', {}, T)).toHaveTextContent('/finance/invoice/add/list');
    await expect(calls.add?.[0]).toMatchObject({ clientId: 'b20001', invoiceAmount: '1000', email: 'fp@youpin.local' });
  },
};

export const AgentBackToOwn: Story = {
  name: '代理商：选回本账户',
  play: async ({ canvas: c }) => {
    await pickAccount(c, 'b20001-上海优品电商有限公司');
    await waitFor(() => expect(c.getByTestId('can-amount')).toHaveTextContent('1,200.00'), T);
    await pickAccount(c, '本账户');
    await waitFor(() => expect(c.getByTestId('can-amount')).toHaveTextContent('50,000.00'), T);
    await waitFor(() => expect(c.getByLabelText('发票抬头')).toHaveValue('上海云讯通信科技有限公司'), T);
    await expect(calls.init?.at(-1)).toEqual({});
    await amount(c, '10');
    await submit(c);
    await body().findByTestId('invoice-confirm', {}, T);
    await expect(calls.check?.[0].clientId).toBeUndefined();
  },
};

export const AgentAccountRefused: Story = {
  name: '代理商：所选账户被拒（无权访问），仍为原账户',
  parameters: msw(...consoleApi(), ...invoiceApi({ calls, accounts: {} })),
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('can-amount', {}, T)).toHaveTextContent('50,000.00');
    await pickAccount(c, 'b20002-苏州好易购电子商务有限公司');
    await expect(await body().findByText('无权访问', {}, T)).toBeInTheDocument();
    await waitFor(() => expect(c.getByTestId('invoice-account')).toHaveTextContent('本账户'), T);
    await expect(c.getByTestId('can-amount')).toHaveTextContent('50,000.00');
  },
};

export const NoAmount: Story = {
  name: '没有可开票金额',
  parameters: msw(...consoleApi(), ...invoiceApi({ calls, init: initFor({ canAmount: '0.00' }) })),
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('no-amount', {}, T)).toBeInTheDocument();
    await expect(c.getByRole('button', { name: /提交申请/ })).toBeDisabled();
  },
};

export const Loading: Story = {
  name: '加载中',
  parameters: msw(never('invoice/initInvoice'), ...consoleApi(), ...invoiceApi({ calls })),
  play: async ({ canvasElement }) =>
    waitFor(() => expect(canvasElement.querySelector('.ant-card-loading')).not.toBeNull(), T),
};
