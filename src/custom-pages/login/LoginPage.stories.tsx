import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { http } from 'msw';
import LoginPage from './LoginPage';
import { PageRouter } from '../../components/PublicLayout/storyRouter';
import { fail, ok, publicHandlers } from '../../components/PublicLayout/mocks';
import { msw } from '@/stories/mockApi';
import { sessionKind } from '../../providers/sessionKind';

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
  beforeEach: () => {
    sessionKind.clear();
  },
} satisfies Meta<typeof LoginPage>;
export default meta;
type Story = StoryObj<typeof meta>;

/** the public pages' calls with POST /login answered by `answer` */
const loginAnswers = (answer: () => Response) => msw(http.post('*/api/login', answer), ...publicHandlers);

/** Fills the form and passes the slider with the keyboard (which sends the login at once). */
async function fillAndSlide(canvasElement: HTMLElement, username = 'agent01') {
  const c = within(canvasElement);
  await userEvent.type(await c.findByLabelText('帐户名'), username);
  await userEvent.type(c.getByLabelText('密码'), 'Secret123');
  const slider = c.getByRole('slider', { name: '滑块验证' });
  slider.focus();
  await userEvent.keyboard('{End}');
  return c;
}

export const Empty: Story = {
  play: async ({ canvas: c }) => {
    await expect(await c.findByRole('heading', { name: '账户登录' })).toBeVisible();
    await expect(c.getByLabelText('帐户名')).toHaveValue('');
    await expect(c.getByText('请按住滑块，拖到最右边')).toBeVisible();
    await expect(c.getByRole('link', { name: '注册' })).toHaveAttribute('href', '/register');
    await expect(c.getByRole('link', { name: '忘记密码' })).toHaveAttribute('href', '/forget');
    await expect(await c.findByText('沪ICP备12345678号-1')).toBeVisible();
  },
};

export const ValidationErrors: Story = {
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByRole('button', { name: /登\s*录/ }));
    await waitFor(() => expect(c.getByText('请输入帐户名')).toBeVisible());
    await waitFor(() => expect(c.getByText('请输入密码')).toBeVisible());
    await userEvent.type(c.getByLabelText('帐户名'), 'bad@mail');
    await waitFor(() => expect(c.getByText('邮箱格式不正确')).toBeVisible());
  },
};

export const CaptchaPassed: Story = {
  play: async ({ canvas: c }) => {
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
    ...loginAnswers(() => ok({ clientid: 'agent01' }, '登录成功')),
  },
  play: async ({ canvasElement }) => {
    const c = await fillAndSlide(canvasElement);
    await expect(await c.findByTestId('navigated')).toHaveTextContent('/customer/finance');
  },
};

export const ServerError: Story = {
  parameters: loginAnswers(() => fail(500, '用户名或密码错误')),
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
  parameters: loginAnswers(() => fail(423, '账户已锁定，请15分钟后再试')),
  play: async ({ canvasElement }) => {
    const c = await fillAndSlide(canvasElement);
    const alert = await c.findByRole('alert');
    await expect(alert).toHaveTextContent('账户已锁定，请15分钟后再试');
    await expect(alert.className).toContain('ant-alert-error');
  },
};

export const SupportPanel: Story = {
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByRole('button', { name: /在线咨询/ }));
    const panel = await c.findByRole('dialog', { name: '在线咨询' });
    await expect(await within(panel).findByText('商务经理')).toBeVisible();
    await expect(within(panel).getByRole('link', { name: /QQ：10001/ })).toHaveAttribute(
      'href',
      'tencent://message/?uin=10001',
    );
  },
};

/** the login form's posts (the operator stories read them) */
const posts: Record<string, string>[] = [];
let passes = 0;
const recordLogin = (answer: (form: Record<string, string>, n: number) => Response) =>
  http.post('*/api/login', async ({ request }) => {
    const form = Object.fromEntries(new URLSearchParams(await request.text()));
    posts.push(form);
    return answer(form, posts.length);
  });
const operatorAnswer = () =>
  ok({ userType: '3', clientid: 'reviewer1', role: 1, operation_mode: '0', oauth_status: 3 }, '登录成功');

/** An operator (the answer's userType 3) goes to the operator console; the browser notes the kind of session. */
export const OperatorLoggedIn: Story = {
  name: '运营人员登录：进入运营后台',
  parameters: msw(recordLogin(operatorAnswer), ...publicHandlers),
  play: async ({ canvasElement }) => {
    const c = await fillAndSlide(canvasElement, 'reviewer1');
    await expect(await c.findByTestId('navigated')).toHaveTextContent('/ops');
    await expect(sessionKind.get()).toBe('operator');
  },
};

export const OperatorRedirect: Story = {
  name: '运营人员登录：回到运营后台的页面',
  parameters: {
    entry: '/login?redirect=%2Fops%2Faudit',
    ...msw(recordLogin(operatorAnswer), ...publicHandlers),
  },
  play: async ({ canvasElement }) => {
    const c = await fillAndSlide(canvasElement, 'reviewer1');
    await expect(await c.findByTestId('navigated')).toHaveTextContent('/ops/audit');
  },
};

/** An account sent to the login page from an operator page goes to its own console. */
export const AccountFromOpsPage: Story = {
  name: '账户登录：不进入运营后台',
  parameters: {
    entry: '/login?redirect=%2Fops',
    ...loginAnswers(() => ok({ userType: '1', clientid: 'agent01' }, '登录成功')),
  },
  play: async ({ canvasElement }) => {
    const c = await fillAndSlide(canvasElement);
    await expect(await c.findByTestId('navigated')).toHaveTextContent(/已跳转到 \/$/);
    await expect(sessionKind.get()).toBe('account');
  },
};

/** slides the slider again (its token is single-use: a new attempt needs a new pass) */
async function slideAgain(c: ReturnType<typeof within>) {
  await waitFor(() => expect(c.getByRole('slider', { name: '滑块验证' })).toHaveAttribute('aria-valuenow', '0'));
  const slider = c.getByRole('slider', { name: '滑块验证' });
  slider.focus();
  await userEvent.keyboard('{End}');
}

/**
 * An operator with a second factor: the first attempt answers 428, the page asks for the
 * 动态验证码 (6 digits); a wrong one answers 400 动态验证码错误 (typed again); the right one logs in.
 * Each attempt passes the slider again.
 */
export const TotpAsked: Story = {
  name: '运营人员：动态验证码',
  parameters: msw(
    recordLogin((form) =>
      !form.totp
        ? fail(428, '请输入动态验证码')
        : form.totp === '123456'
          ? operatorAnswer()
          : fail(400, '动态验证码错误'),
    ),
    // a token per pass (the server's are single-use)
    http.post('*/api/captcha/slider/verify', () => ok({ token: `token-${++passes}` })),
    ...publicHandlers,
  ),
  beforeEach: () => {
    posts.length = 0;
    passes = 0;
  },
  play: async ({ canvasElement }) => {
    const c = await fillAndSlide(canvasElement, 'chief.admin');
    const alert = await c.findByRole('alert');
    await expect(alert).toHaveTextContent('请输入动态验证码');
    await expect(alert.className).toContain('ant-alert-info');
    const code = await c.findByLabelText('动态验证码');
    await expect(code).toHaveFocus();
    await expect(posts[0]).not.toHaveProperty('totp');
    // the slider alone: the code is asked first, nothing is sent
    await slideAgain(c);
    await expect(await c.findByText('请输入动态验证码', { selector: '.sf-explain div' })).toBeInTheDocument();
    await expect(posts).toHaveLength(1);
    // not 6 digits: the form's own rule
    await userEvent.type(code, '12ab');
    await userEvent.click(c.getByRole('button', { name: /登\s*录/ }));
    await expect(await c.findByText('动态验证码为6位数字')).toBeInTheDocument();
    await userEvent.clear(code);
    await userEvent.type(code, '654321');
    await userEvent.click(c.getByRole('button', { name: /登\s*录/ }));
    await waitFor(() => expect(posts).toHaveLength(2));
    await expect(posts[1]).toMatchObject({ username: 'chief.admin', totp: '654321' });
    await expect(await c.findByText('动态验证码错误')).toBeInTheDocument();
    await waitFor(() => expect(code).toHaveValue(''));
    await userEvent.type(code, '123456');
    await slideAgain(c);
    await expect(await c.findByTestId('navigated')).toHaveTextContent('/ops');
    // each attempt with a pass of its own
    await expect(posts.map((p) => p.token)).toEqual(['token-1', 'token-2', 'token-3']);
    await expect(posts[2]).toMatchObject({ totp: '123456' });
  },
};
