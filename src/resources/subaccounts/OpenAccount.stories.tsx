import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { withApp } from '@/stories/withApp';
import OpenAccount from './OpenAccount';
import { subAccountHandlers } from './storyMocks';

const T = { timeout: 10000 };

const meta = {
  title: 'SubAccounts/OpenAccount',
  component: OpenAccount,
  decorators: [withApp],
  parameters: { msw: { handlers: subAccountHandlers() }, app: { path: '/customer/selfsevicelayout/manager/open' } },
} satisfies Meta<typeof OpenAccount>;
export default meta;
type Story = StoryObj<typeof meta>;

const submit = (c: ReturnType<typeof within>) => userEvent.click(c.getByRole('button', { name: /确认开户/ }));

export const Validation: Story = {
  name: '校验信息',
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await c.findByLabelText('账户名称', {}, T);
    await submit(c);
    await expect(await c.findByText('账户名称不能为空', {}, T)).toBeInTheDocument();
    await userEvent.type(c.getByLabelText('邮箱'), 'not-an-email');
    await userEvent.type(c.getByLabelText('手机号'), '123');
    await userEvent.type(c.getByLabelText('备注'), 'x'.repeat(51));
    await submit(c);
    await expect(await c.findByText('邮箱格式不正确', {}, T)).toBeInTheDocument();
    await expect(await c.findByText('手机号码格式不正确', {}, T)).toBeInTheDocument();
    await expect(await c.findByText('备注最大长度不超过50个字符', {}, T)).toBeInTheDocument();
  },
};

export const PushUrls: Story = {
  name: '推送时需填写回调地址',
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.type(await c.findByLabelText('账户名称', {}, T), '杭州测试公司');
    await expect(c.queryByLabelText('状态报告回调地址')).toBeNull();
    await userEvent.click(c.getByLabelText('状态报告'));
    await userEvent.click(await within(document.body).findByTitle('简单状态报告（推送）', {}, T));
    await userEvent.click(c.getByLabelText('上行'));
    await userEvent.click(await within(document.body).findByTitle('需要（推送）', {}, T));
    await submit(c);
    await expect(await c.findByText('状态报告回调地址不能为空', {}, T)).toBeInTheDocument();
    await expect(await c.findByText('上行回调地址不能为空', {}, T)).toBeInTheDocument();
  },
};

export const Qualification: Story = {
  name: '客户账户需上传资质',
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.type(await c.findByLabelText('账户名称', {}, T), '杭州测试公司');
    await userEvent.click(c.getByLabelText('客户'));
    await expect(await c.findByLabelText('证件类型', {}, T)).toBeInTheDocument();
    await expect(c.getByText(/最多五张/)).toBeInTheDocument();
    await submit(c);
    await expect(await c.findByText('请选择证件类型', {}, T)).toBeInTheDocument();
    await expect(await c.findByText('证件号码不能为空', {}, T)).toBeInTheDocument();
    await expect(await c.findByText('请上传图片', {}, T)).toBeInTheDocument();
  },
};

export const MobileExists: Story = {
  name: '手机号码已存在',
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.type(await c.findByLabelText('手机号', {}, T), '13900139001');
    await userEvent.tab();
    await expect(await c.findByText('手机号码已存在', {}, T)).toBeInTheDocument();
  },
};

export const Opened: Story = {
  name: '开户成功（密码只显示一次）',
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.type(await c.findByLabelText('账户名称', {}, T), '杭州测试公司');
    await userEvent.type(c.getByLabelText('手机号'), '13911112222');
    await submit(c);
    await expect(await c.findByText('开户成功', {}, T)).toBeInTheDocument();
    await expect(c.getByTestId('new-password')).toHaveTextContent('Xk7pR2mW9a');
    await expect(c.getByText('q8m3vd')).toBeInTheDocument();
  },
};

export const NotCertified: Story = {
  name: '未认证：请先认证再开户',
  parameters: { msw: { handlers: subAccountHandlers({ certified: false }) } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(await c.findByTestId('not-certified', {}, T)).toHaveTextContent('请先认证再开户');
    await expect(c.getByRole('button', { name: /确认开户/ })).toBeDisabled();
  },
};
