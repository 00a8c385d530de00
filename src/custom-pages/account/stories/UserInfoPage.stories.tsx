import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor } from 'storybook/test';
import { T, body, withApp } from '@/stories/withApp';
import UserInfoPage from '../UserInfoPage';
import { accountApi, subUser } from './accountMocks';

const posted: Record<string, Record<string, string>[]> = {};

const meta = {
  title: 'Account/UserInfoPage',
  component: UserInfoPage,
  decorators: [withApp],
  parameters: { app: { path: '/account/userinfo' }, msw: { handlers: accountApi({ posted }) } },
} satisfies Meta<typeof UserInfoPage>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Loading: Story = {
  name: '加载中',
  parameters: { msw: { handlers: accountApi({ loading: true }) } },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('.ant-skeleton')).toBeTruthy();
  },
};

export const Filled: Story = {
  name: '代理商：邮箱和手机号',
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('wanglei@yunxun.example', {}, T)).toBeInTheDocument();
    await expect(c.getByText('13800138000')).toBeInTheDocument();
    await expect(c.getByRole('button', { name: /修\s*改/ })).toBeInTheDocument();
  },
};

export const SubAccount: Story = {
  name: '子账户',
  parameters: { msw: { handlers: accountApi({ user: subUser }) } },
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('lina@youpin.example', {}, T)).toBeInTheDocument();
    await expect(c.getByText('b20001')).toBeInTheDocument();
  },
};

export const EditMode: Story = {
  name: '修改：编辑状态与取消',
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByRole('button', { name: /修\s*改/ }, T));
    await expect(c.getByLabelText('新手机号')).toBeInTheDocument();
    await expect(c.getByRole('button', { name: /获取验证码/ })).toBeEnabled();
    await expect(c.getByRole('button', { name: /确\s*认/ })).toBeInTheDocument();
    await userEvent.click(c.getByRole('button', { name: /取\s*消/ }));
    await expect(await c.findByRole('button', { name: /修\s*改/ }, T)).toBeInTheDocument();
  },
};

export const ValidationMessages: Story = {
  name: '校验提示',
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByRole('button', { name: /修\s*改/ }, T));
    // no mobile: the code is not sent
    await userEvent.click(c.getByRole('button', { name: /获取验证码/ }));
    await expect(await c.findByText('请输入正确的手机号', {}, T)).toBeInTheDocument();
    await userEvent.type(c.getByLabelText('新手机号'), '139abc');
    await userEvent.click(c.getByRole('button', { name: /获取验证码/ }));
    await expect(await c.findByText('请输入有效的手机号', {}, T)).toBeInTheDocument();
    await userEvent.clear(c.getByLabelText('新手机号'));
    await userEvent.type(c.getByLabelText('新手机号'), '13912345678');
    await userEvent.click(c.getByRole('button', { name: /确\s*认/ }));
    await expect(await c.findByText('验证码不为空', {}, T)).toBeInTheDocument();
  },
};

export const CodeCountdown: Story = {
  name: '发送验证码：60秒倒计时',
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByRole('button', { name: /修\s*改/ }, T));
    await userEvent.type(c.getByLabelText('新手机号'), '13912345678');
    await userEvent.click(c.getByRole('button', { name: /获取验证码/ }));
    const btn = await c.findByRole('button', { name: /秒后重新发送/ }, T);
    await expect(btn).toBeDisabled();
    await expect(btn.textContent).toMatch(/^(60|59)秒后重新发送$/);
    await expect(await body().findByText('验证码已发送', {}, T)).toBeInTheDocument();
    await expect(posted.sendNoPicCode?.at(-1)).toEqual({ mobile: '13912345678', countryCode: '86' });
  },
};

export const CodeRefused: Story = {
  name: '发送验证码：手机号码已存在（按钮立即恢复）',
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByRole('button', { name: /修\s*改/ }, T));
    await userEvent.type(c.getByLabelText('新手机号'), '13800138001');
    await userEvent.click(c.getByRole('button', { name: /获取验证码/ }));
    await expect(await body().findByText('手机号码已存在', {}, T)).toBeInTheDocument();
    await waitFor(() => expect(c.getByRole('button', { name: /获取验证码/ })).toBeEnabled(), T);
  },
};

export const Saved: Story = {
  name: '确认保存',
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByRole('button', { name: /修\s*改/ }, T));
    await userEvent.type(c.getByLabelText('新手机号'), '13912345678');
    await userEvent.type(c.getByLabelText('验证码'), '123456');
    await userEvent.click(c.getByRole('button', { name: /确\s*认/ }));
    await expect(await body().findByText('保存成功', {}, T)).toBeInTheDocument();
    await expect(posted['info/save']?.at(-1)).toEqual({
      email: 'wanglei@yunxun.example',
      countryCode: '86',
      mobile: '13912345678',
      valcode: '123456',
    });
  },
};
