import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { http } from 'msw';
import LoginPage from './LoginPage';
import { PageRouter } from '../../components/PublicLayout/storyRouter';
import { fail, ok, publicHandlers } from '../../components/PublicLayout/mocks';

const meta = {
  title: '公共页面/登录',
  component: LoginPage,
  decorators: [
    (Story, { parameters }) => (
      <PageRouter path="/login" entry={parameters.entry ?? '/login'}>
        <Story />
      </PageRouter>
    ),
  ],
  parameters: { msw: { handlers: publicHandlers } },
} satisfies Meta<typeof LoginPage>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Fills the form and passes the slider with the keyboard (which sends the login at once). */
async function fillAndSlide(canvasElement: HTMLElement) {
  const c = within(canvasElement);
  await userEvent.type(await c.findByLabelText('帐户名'), 'agent01');
  await userEvent.type(c.getByLabelText('密码'), 'Secret123');
  const slider = c.getByRole('slider', { name: '滑块验证' });
  slider.focus();
  await userEvent.keyboard('{End}');
  return c;
}

export const Empty: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(await c.findByRole('heading', { name: '账户登录' })).toBeVisible();
    await expect(c.getByLabelText('帐户名')).toHaveValue('');
    await expect(c.getByText('请按住滑块，拖到最右边')).toBeVisible();
    await expect(c.getByRole('link', { name: '注册' })).toHaveAttribute('href', '/register');
    await expect(c.getByRole('link', { name: '忘记密码' })).toHaveAttribute('href', '/forget');
    await expect(await c.findByText('沪ICP备12345678号-1')).toBeVisible();
  },
};

export const ValidationErrors: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(await c.findByRole('button', { name: /登\s*录/ }));
    await waitFor(() => expect(c.getByText('请输入帐户名')).toBeVisible());
    await waitFor(() => expect(c.getByText('请输入密码')).toBeVisible());
    await userEvent.type(c.getByLabelText('帐户名'), 'bad@mail');
    await waitFor(() => expect(c.getByText('邮箱格式不正确')).toBeVisible());
  },
};

export const CaptchaPassed: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const slider = await c.findByRole('slider', { name: '滑块验证' });
    slider.focus();
    await userEvent.keyboard('{End}');
    await expect(await c.findByText('验证通过')).toBeVisible();
    await expect(slider).toHaveAttribute('aria-valuenow', '100');
  },
};

export const LoggedIn: Story = {
  parameters: {
    entry: '/login?redirect=%2Fcustomer%2Ffinance',
    msw: { handlers: [http.post('*/api/login', () => ok({ clientid: 'agent01' }, '登录成功')), ...publicHandlers] },
  },
  play: async ({ canvasElement }) => {
    const c = await fillAndSlide(canvasElement);
    await expect(await c.findByTestId('navigated')).toHaveTextContent('/customer/finance');
  },
};

export const ServerError: Story = {
  parameters: {
    msw: { handlers: [http.post('*/api/login', () => fail(500, '用户名或密码错误')), ...publicHandlers] },
  },
  play: async ({ canvasElement }) => {
    const c = await fillAndSlide(canvasElement);
    await expect(await c.findByText('用户名或密码错误')).toBeVisible();
    // re-armed: back at the start, asking to be dragged again
    await waitFor(() => expect(c.getByRole('slider', { name: '滑块验证' })).toHaveAttribute('aria-valuenow', '0'));
    await expect(c.getByText('请按住滑块，拖到最右边')).toBeVisible();
    await expect(c.queryByText('验证通过')).toBeNull();
  },
};

export const Locked: Story = {
  parameters: {
    msw: { handlers: [http.post('*/api/login', () => fail(423, '账户已锁定，请15分钟后再试')), ...publicHandlers] },
  },
  play: async ({ canvasElement }) => {
    const c = await fillAndSlide(canvasElement);
    const alert = await c.findByRole('alert');
    await expect(alert).toHaveTextContent('账户已锁定，请15分钟后再试');
    await expect(alert.className).toContain('ant-alert-error');
  },
};

export const SupportPanel: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(await c.findByRole('button', { name: /在线咨询/ }));
    const panel = await c.findByRole('dialog', { name: '在线咨询' });
    await expect(await within(panel).findByText('商务经理')).toBeVisible();
    await expect(within(panel).getByRole('link', { name: /QQ：10001/ })).toHaveAttribute('href', 'tencent://message/?uin=10001');
  },
};
