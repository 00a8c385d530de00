import type { Meta, StoryObj } from '@storybook/react-vite';
import { Route, Routes } from 'react-router';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { T, body, withApp } from '@/stories/withApp';
import PasswordPage from '../PasswordPage';
import SecurityPage from '../SecurityPage';
import { passwordDigest as sha256 } from '@/lib/password';
import { accountApi, subUser } from './accountMocks';

const b = (w: string) => new RegExp(w.split('').join('\\s*'));
const posted: Record<string, Record<string, string>[]> = {};

function Screen() {
  return (
    <Routes>
      <Route path="/account/security" element={<SecurityPage />} />
      <Route path="/account/security/password" element={<PasswordPage />} />
    </Routes>
  );
}

const meta = {
  title: 'Account/Security',
  component: Screen,
  decorators: [withApp],
  parameters: { app: { path: '/account/security' }, msw: { handlers: accountApi({ posted }) } },
} satisfies Meta<typeof Screen>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Loading: Story = {
  name: '账户安全：加载中',
  parameters: { msw: { handlers: accountApi({ loading: true }) } },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('.ant-skeleton')).toBeTruthy();
  },
};

export const Overview: Story = {
  name: '账户安全：登录邮箱、登录手机、密码',
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('wanglei@yunxun.example', {}, T)).toBeInTheDocument();
    await expect(c.getByText('13800138000')).toBeInTheDocument();
    await expect(c.getByText('********')).toBeInTheDocument();
    await userEvent.click(c.getByRole('button', { name: '修改密码' }));
    await expect(await c.findByTestId('password-form', {}, T)).toBeInTheDocument();
  },
};

async function fill(c: ReturnType<typeof within>, o: string, n: string, cf: string) {
  await userEvent.type(await c.findByLabelText('原密码', {}, T), o);
  await userEvent.type(c.getByLabelText('新密码'), n);
  await userEvent.type(c.getByLabelText('确认新密码'), cf);
}

export const PasswordButtonEnabledWhenFilled: Story = {
  name: '修改密码：填写完整才可确认',
  parameters: { app: { path: '/account/security/password' } },
  play: async ({ canvas: c }) => {
    const ok = await c.findByRole('button', { name: b('确认') }, T);
    await expect(ok).toBeDisabled();
    await userEvent.type(c.getByLabelText('原密码'), 'Demo1234');
    await userEvent.type(c.getByLabelText('新密码'), 'Abc12345');
    await expect(ok).toBeDisabled();
    await userEvent.type(c.getByLabelText('确认新密码'), 'Abc12345');
    await waitFor(() => expect(ok).toBeEnabled(), T);
  },
};

export const PasswordRules: Story = {
  name: '修改密码：校验提示',
  parameters: { app: { path: '/account/security/password' } },
  play: async ({ canvas: c }) => {
    await fill(c, 'Demo1234', 'Ab1', 'Ab1');
    await userEvent.click(c.getByRole('button', { name: b('确认') }));
    await expect(await c.findByText('密码长度为8-12位之间', {}, T)).toBeInTheDocument();
    await userEvent.clear(c.getByLabelText('新密码'));
    await userEvent.type(c.getByLabelText('新密码'), 'Abc_12345');
    await userEvent.clear(c.getByLabelText('确认新密码'));
    await userEvent.type(c.getByLabelText('确认新密码'), 'Abc_12345');
    await userEvent.click(c.getByRole('button', { name: b('确认') }));
    await expect(await c.findByText('密码格式为8-12为数字字母组合', {}, T)).toBeInTheDocument();
    await userEvent.clear(c.getByLabelText('新密码'));
    await userEvent.type(c.getByLabelText('新密码'), 'Abc12345');
    await userEvent.click(c.getByRole('button', { name: b('确认') }));
    await expect(await c.findByText('两次输入密码不一致', {}, T)).toBeInTheDocument();
  },
};

export const AgentSendsDigests: Story = {
  name: '修改密码：代理商提交 SHA-256 摘要',
  parameters: { app: { path: '/account/security/password' } },
  play: async ({ canvas: c }) => {
    await new Promise((r) => setTimeout(r, 300));
    await fill(c, 'Demo1234', 'Abc12345', 'Abc12345');
    await userEvent.click(c.getByRole('button', { name: b('确认') }));
    await expect(await body().findByText('密码修改成功', {}, T)).toBeInTheDocument();
    await expect(posted['password/save']?.at(-1)).toEqual({
      oldPassword: sha256('Demo1234'),
      newPassword: sha256('Abc12345'),
      confirmPassword: sha256('Abc12345'),
    });
    await expect(await c.findByText('********', {}, T)).toBeInTheDocument();
  },
};

export const SubAccountSendsPlain: Story = {
  name: '修改密码：子账户提交明文；原密码错误',
  parameters: { app: { path: '/account/security/password' }, msw: { handlers: accountApi({ user: subUser, posted }) } },
  play: async ({ canvas: c }) => {
    await new Promise((r) => setTimeout(r, 300));
    await fill(c, 'Wrong1234', 'Abc12345', 'Abc12345');
    await userEvent.click(c.getByRole('button', { name: b('确认') }));
    await expect(await body().findByText('原密码错误', {}, T)).toBeInTheDocument();
    await expect(posted['password/save']?.at(-1)).toEqual({
      oldPassword: 'Wrong1234',
      newPassword: 'Abc12345',
      confirmPassword: 'Abc12345',
    });
    await expect(c.getByTestId('password-form')).toBeInTheDocument();
  },
};
