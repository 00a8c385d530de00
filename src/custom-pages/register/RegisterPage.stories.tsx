import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { http } from 'msw';
import RegisterPage from './RegisterPage';
import { PageRouter } from '../../components/PublicLayout/storyRouter';
import { fail, ok, publicHandlers } from '../../components/PublicLayout/mocks';
import { msw } from '@/stories/mockApi';

/** The last sendCode body the mock received (the page must send the slider's server and token). */
const sent: { body?: Record<string, string> } = {};
const lastSendCode = () => sent.body;
const sendCodeOk = http.post('*/api/userCenter/sendCode', async ({ request }) => {
  sent.body = Object.fromEntries(new URLSearchParams(await request.text()));
  return ok(undefined, '发送成功');
});

const meta = {
  title: '公共页面/注册',
  component: RegisterPage,
  decorators: [
    (Story) => (
      <PageRouter path="/register">
        <Story />
      </PageRouter>
    ),
  ],
  parameters: msw(sendCodeOk, ...publicHandlers),
} satisfies Meta<typeof RegisterPage>;
export default meta;
type Story = StoryObj<typeof meta>;

type Canvas = ReturnType<typeof within>;

/** Passes the slider with the keyboard (End glides the handle to the end) and waits for 验证通过. */
async function passSlider(c: Canvas) {
  const slider = await c.findByRole('slider', { name: '滑块验证' });
  slider.focus();
  await userEvent.keyboard('{End}');
  await waitFor(() => expect(slider).toHaveAttribute('aria-valuetext', '验证通过'));
}

async function fillAll(c: Canvas) {
  await userEvent.type(await c.findByLabelText('个人/公司名称'), '上海示例科技有限公司');
  await userEvent.type(c.getByLabelText('登录邮箱'), 'agent@example.com');
  await userEvent.type(c.getByLabelText('手机号'), '13800138000');
  await userEvent.type(c.getByLabelText('手机验证码'), '123456');
  await userEvent.type(c.getByLabelText('密码'), 'abc12345');
  await userEvent.type(c.getByLabelText('确认密码'), 'abc12345');
  await userEvent.click(c.getByRole('checkbox'));
  await userEvent.click(c.getByRole('button', { name: /^注\s*册$/ }));
}

const registerAnswer = (answer: () => Response) => ({
  ...msw(http.post('*/api/userCenter/agentRegister', answer), sendCodeOk, ...publicHandlers),
});

export const Form: Story = {
  play: async ({ canvas: c }) => {
    await expect(await c.findByRole('heading', { name: '注册账户' })).toBeVisible();
    for (const label of ['个人/公司名称', '登录邮箱', '国家代码', '手机号', '手机验证码', '密码', '确认密码']) {
      await expect(c.getByLabelText(label)).toBeInTheDocument();
    }
    await expect(await c.findByText('+86 中国')).toBeVisible();
    await expect(c.getByRole('link', { name: '立即登录' })).toHaveAttribute('href', '/login');
    await userEvent.click(c.getByText('《服务协议》'));
    await waitFor(() => expect(within(document.body).getByText('三、发送内容规范')).toBeVisible());
  },
};

export const ValidationErrors: Story = {
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByRole('button', { name: /获取验证码/ }));
    await waitFor(() => expect(c.getByText('请输入手机号')).toBeVisible());
    await expect(c.getByText('请先完成滑块验证')).toBeVisible();
    await userEvent.click(c.getByRole('button', { name: /^注\s*册$/ }));
    for (const msg of [
      '请输入个人/公司名称',
      '请输入您的登陆邮箱',
      '请输入手机验证码',
      '密码格式为8-12为数字字母组合',
      '请阅读并同意《服务协议》',
    ]) {
      await waitFor(() => expect(c.getByText(msg)).toBeVisible());
    }
    await userEvent.type(c.getByLabelText('手机号'), '138abc');
    await waitFor(() => expect(c.getByText('请输入正确的手机号')).toBeVisible());
  },
};

export const SliderBeforeCode: Story = {
  play: async ({ canvas: c }) => {
    sent.body = undefined;
    await userEvent.type(await c.findByLabelText('手机号'), '13800138000');
    await userEvent.click(c.getByRole('button', { name: /获取验证码/ }));
    await waitFor(() => expect(c.getByText('请先完成滑块验证')).toBeVisible());
    await expect(lastSendCode()).toBeUndefined();
    await passSlider(c);
    await waitFor(() => expect(c.queryByText('请先完成滑块验证')).toBeNull());
  },
};

export const CountdownRunning: Story = {
  play: async ({ canvas: c }) => {
    sent.body = undefined;
    await userEvent.type(await c.findByLabelText('手机号'), '13800138000');
    await passSlider(c);
    await userEvent.click(c.getByRole('button', { name: /获取验证码/ }));
    const button = await c.findByRole('button', { name: /\d+秒后重新发送/ });
    await expect(button).toBeDisabled();
    await waitFor(() => expect(within(document.body).getByText('发送成功')).toBeVisible());
    await expect(lastSendCode()).toMatchObject({ mobile: '13800138000', countryCode: '86', server: 'challenge-1' });
    await expect(lastSendCode()?.token).toBeTruthy();
    // the token is single-use: the slider is armed again for the next code
    await waitFor(() => expect(c.getByRole('slider', { name: '滑块验证' })).toHaveAttribute('aria-valuenow', '0'));
  },
};

export const SendCodeRefused: Story = {
  parameters: msw(
    http.post('*/api/userCenter/sendCode', () => fail(500, '手机号码已存在')),
    ...publicHandlers,
  ),
  play: async ({ canvas: c }) => {
    await userEvent.type(await c.findByLabelText('手机号'), '13800138000');
    await passSlider(c);
    await userEvent.click(c.getByRole('button', { name: /获取验证码/ }));
    await waitFor(() => expect(within(document.body).getByText('手机号码已存在')).toBeVisible());
    await waitFor(() => expect(c.getByRole('button', { name: /获取验证码/ })).toBeEnabled());
  },
};

export const ConfirmReplace: Story = {
  parameters: registerAnswer(() => fail(501, '该手机号或邮箱有一个未完成的注册，是否继续注册并替换它？')),
  play: async ({ canvas: c }) => {
    await fillAll(c);
    const dialog = await within(document.body).findByRole('dialog');
    await expect(dialog.querySelector('.ant-modal-confirm-title')).toHaveTextContent('提示');
    await waitFor(() =>
      expect(within(dialog).getByText('该手机号或邮箱有一个未完成的注册，是否继续注册并替换它？')).toBeVisible(),
    );
    await expect(within(dialog).getByRole('button', { name: '继续注册' })).toBeVisible();
  },
};

export const SuccessCertify: Story = {
  parameters: registerAnswer(() => ok({ clientid: 'a1001', autoLogin: true })),
  play: async ({ canvas: c }) => {
    await fillAll(c);
    await expect(await c.findByText('注册成功')).toBeVisible();
    await expect(c.getByRole('button', { name: /去\s*认\s*证/ })).toBeVisible();
    await expect(c.getByRole('button', { name: /返\s*回/ })).toBeVisible();
  },
};

export const SuccessGoLogin: Story = {
  parameters: registerAnswer(() => ok({ clientid: 'a1001', autoLogin: false })),
  play: async ({ canvas: c }) => {
    await fillAll(c);
    await expect(await c.findByText('注册完成')).toBeVisible();
    await expect(c.getByText('3秒后自动跳转到登录页')).toBeVisible();
    await expect(c.getByRole('button', { name: '立即跳转' })).toBeVisible();
    await expect(await c.findByTestId('navigated', {}, { timeout: 5000 })).toHaveTextContent('/login');
  },
};
