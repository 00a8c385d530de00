import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { http } from 'msw';
import ForgetPage from './ForgetPage';
import { PageRouter } from '../../components/PublicLayout/storyRouter';
import { fail, ok, publicHandlers } from '../../components/PublicLayout/mocks';
import { msw } from '@/stories/mockApi';

const handlers = [
  http.post('*/api/password/email', () => ok(undefined, '发送成功')),
  http.post('*/api/password/change', () => ok(undefined, '修改成功')),
  ...publicHandlers,
];

const meta = {
  title: '公共页面/找回密码',
  component: ForgetPage,
  decorators: [
    (Story) => (
      <PageRouter path="/forget">
        <Story />
      </PageRouter>
    ),
  ],
  parameters: { msw: { handlers } },
} satisfies Meta<typeof ForgetPage>;
export default meta;
type Story = StoryObj<typeof meta>;

export const ByEmail: Story = {
  play: async ({ canvas: c }) => {
    await expect(await c.findByRole('heading', { name: '找回密码' })).toBeVisible();
    await expect(await c.findByRole('radio', { name: '邮箱找回' })).toBeChecked();
    await expect(c.getByLabelText('邮箱')).toBeVisible();
    await expect(c.queryByLabelText('国家代码')).toBeNull();
    await expect(c.getByRole('img', { name: '图形验证码' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^\/api\/captcha\.jpg\?t=\d+$/),
    );
    await expect(c.getByRole('link', { name: '返回登录' })).toHaveAttribute('href', '/login');
  },
};

export const ByPhone: Story = {
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByRole('radio', { name: '手机找回' }));
    await expect(await c.findByLabelText('国家代码')).toBeVisible();
    await expect(await c.findByText('+86 中国')).toBeVisible();
    await expect(c.getByLabelText('手机号')).toBeVisible();
    await userEvent.type(c.getByLabelText('手机号'), '138-0013');
    await userEvent.click(c.getByRole('button', { name: /获取验证码/ }));
    await waitFor(() => expect(c.getByText('请输入有效的手机号')).toBeVisible());
  },
};

export const CodeSent: Story = {
  play: async ({ canvas: c }) => {
    await userEvent.type(await c.findByLabelText('邮箱'), 'agent@example.com');
    await userEvent.type(c.getByPlaceholderText('图形验证码'), '7K3P');
    await userEvent.click(c.getByRole('button', { name: /获取验证码/ }));
    await waitFor(() => expect(within(document.body).getByText('发送成功')).toBeVisible());
    await expect(await c.findByRole('button', { name: /[1-6]秒后重新发送/ })).toBeDisabled();
  },
};

export const SendFailed: Story = {
  parameters: msw(
    http.post('*/api/password/email', () => fail(400, '图形验证码错误')),
    ...handlers,
  ),
  play: async ({ canvas: c }) => {
    await userEvent.type(await c.findByLabelText('邮箱'), 'agent@example.com');
    await userEvent.type(c.getByPlaceholderText('图形验证码'), 'XXXX');
    await userEvent.click(c.getByRole('button', { name: /获取验证码/ }));
    await waitFor(() => expect(within(document.body).getByText('发送失败：图形验证码错误')).toBeVisible());
    await waitFor(() => expect(c.getByRole('button', { name: /获取验证码/ })).toBeEnabled());
  },
};

export const ValidationErrors: Story = {
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByRole('button', { name: /获取验证码/ }));
    await waitFor(() => expect(c.getByText('请输入有效的邮箱')).toBeVisible());
    await waitFor(() => expect(c.getByText('验证码不可为空')).toBeVisible());
    await userEvent.type(c.getByLabelText('新密码'), '12345678');
    await userEvent.type(c.getByLabelText('确认密码'), '1234567');
    await userEvent.click(c.getByRole('button', { name: /重置密码/ }));
    await waitFor(() => expect(c.getByText('密码不能全为数字')).toBeVisible());
    await waitFor(() => expect(c.getByText('两次密码不一致')).toBeVisible());
    await userEvent.clear(c.getByLabelText('新密码'));
    await userEvent.type(c.getByLabelText('新密码'), 'abc');
    await waitFor(() => expect(c.getByText('密码的长度必须是8-16位！')).toBeVisible());
  },
};
