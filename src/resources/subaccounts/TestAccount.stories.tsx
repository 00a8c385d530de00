/** 创建测试账户 / 转为正式账户 in 子账户管理 (docs/api-subaccounts.md "Test accounts"). */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { body, withApp } from '@/stories/withApp';
import { pathOf } from '@/stories/pageRows';
import SubAccountList from './SubAccountList';
import { subAccountHandlers } from './storyMocks';

const T = { timeout: 10000 };
const OK = /确\s*定|OK/;

const meta = {
  title: 'SubAccounts/TestAccount',
  component: SubAccountList,
  decorators: [withApp],
  parameters: { msw: { handlers: subAccountHandlers() }, app: { path: pathOf('service_manager') } },
} satisfies Meta<typeof SubAccountList>;
export default meta;
type Story = StoryObj<typeof meta>;

const rowOf = async (c: ReturnType<typeof within>, id: string) =>
  (await c.findByText(id, {}, T)).closest('tr') as HTMLElement;

async function openDialog(canvasElement: HTMLElement) {
  const c = within(canvasElement);
  await userEvent.click(await c.findByRole('button', { name: /创建测试账户/ }, T));
  return body().findByRole('dialog', {}, T);
}

export const Hidden: Story = {
  name: '创建测试账户：不可创建时不显示',
  parameters: { msw: { handlers: subAccountHandlers({ testAccount: 'hidden' }) } },
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('苏州好易购电子商务有限公司', {}, T)).toBeInTheDocument();
    await expect(await c.findByRole('button', { name: /自助开户/ }, T)).toBeInTheDocument();
    // /index/data answered (canCreateTestAccount false): still no button
    await new Promise((r) => setTimeout(r, 300));
    await expect(c.queryByRole('button', { name: /创建测试账户/ })).toBeNull();
    // ordinary accounts: no tag, no conversion
    await expect(c.queryByTestId('test-account-tag')).toBeNull();
    await expect(c.queryByRole('button', { name: '转为正式账户' })).toBeNull();
  },
};

export const Dialog: Story = {
  name: '创建测试账户：说明与表单规则',
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    const terms = within(dialog).getByTestId('test-account-terms');
    await expect(terms).toHaveTextContent('平台赠送 20 条行业短信');
    await expect(terms).toHaveTextContent('只能发送到您本人已注册的手机号码（13800138000）');
    await expect(terms).toHaveTextContent('创建后 7 天到期');
    await expect(terms).toHaveTextContent('转为正式账户前不能充值、购买，也不能使用接口');
    await expect(terms).toHaveTextContent('每个代理商30天内最多创建 3 个测试账户');
    // the form's own rule, before any call
    await userEvent.click(within(dialog).getByRole('button', { name: OK }));
    await expect(await within(dialog).findByText('账户名称不能为空', {}, T)).toBeInTheDocument();
  },
};

export const Created: Story = {
  name: '创建测试账户：密码只显示一次',
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    await userEvent.type(within(dialog).getByLabelText(/账户名称/), '试用客户');
    await userEvent.click(within(dialog).getByRole('button', { name: OK }));
    const result = await body().findByTestId('test-account-created', {}, T);
    await expect(result).toHaveTextContent('t8wz4k');
    await expect(within(result).getByTestId('test-account-password')).toHaveTextContent('Tq4mZ8vR2n');
    await expect(result).toHaveTextContent('2026-12-04 10:00:00');
    await expect(result).toHaveTextContent('20');
    await expect(body().getByText('请妥善保存以下账户信息，密码只显示这一次')).toBeInTheDocument();
    await userEvent.click(body().getByRole('button', { name: '我已保存' }));
    await waitFor(() => expect(body().queryByTestId('test-account-created')).toBeNull(), T);
  },
};

export const Refused: Story = {
  name: '创建测试账户：服务器拒绝',
  parameters: { msw: { handlers: subAccountHandlers({ testAccount: 'refused' }) } },
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    await userEvent.type(within(dialog).getByLabelText(/账户名称/), '试用客户');
    await userEvent.click(within(dialog).getByRole('button', { name: OK }));
    await expect(await within(dialog).findByTestId('test-account-error', {}, T)).toHaveTextContent(
      '每个代理商30天内最多创建3个测试账户',
    );
    await expect(body().queryByTestId('test-account-created')).toBeNull();
  },
};

export const Convert: Story = {
  name: '转为正式账户',
  parameters: { msw: { handlers: subAccountHandlers({ testAccount: 'listed' }) } },
  play: async ({ canvas: c }) => {
    const row = await rowOf(c, 't6qv2n');
    await expect(within(row).getByTestId('test-account-tag')).toHaveTextContent('测试');
    // only the test account's row offers it
    await expect(within(await rowOf(c, 'c7k2mq')).queryByRole('button', { name: '转为正式账户' })).toBeNull();
    await userEvent.click(within(row).getByRole('button', { name: '转为正式账户' }));
    await userEvent.click(await body().findByRole('button', { name: OK }, T));
    await expect(await body().findByText('已转为正式账户', {}, T)).toBeInTheDocument();
    // the list is read again: an ordinary account now
    await waitFor(() => expect(c.queryByTestId('test-account-tag')).toBeNull(), T);
    await expect(within(await rowOf(c, 't6qv2n')).queryByRole('button', { name: '转为正式账户' })).toBeNull();
  },
};

export const ConvertRefused: Story = {
  name: '转为正式账户：服务器拒绝',
  parameters: { msw: { handlers: subAccountHandlers({ testAccount: 'convertRefused' }) } },
  play: async ({ canvas: c }) => {
    await userEvent.click(within(await rowOf(c, 't6qv2n')).getByRole('button', { name: '转为正式账户' }));
    await userEvent.click(await body().findByRole('button', { name: OK }, T));
    await expect(await body().findByText('该账户不是测试账户', {}, T)).toBeInTheDocument();
    await expect(body().queryByText('已转为正式账户')).toBeNull();
    await expect(within(await rowOf(c, 't6qv2n')).getByTestId('test-account-tag')).toBeInTheDocument();
  },
};
