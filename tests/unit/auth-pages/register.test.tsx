import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import { http } from 'msw';
import { AppProviders } from '@/providers/AppProviders';
import { PageRouter } from '@/components/PublicLayout/storyRouter';
import { fail, ok, publicHandlers } from '@/components/PublicLayout/mocks';
import RegisterPage from '@/custom-pages/register/RegisterPage';

const server = setupServer(...publicHandlers);
let posts: Record<string, string>[] = [];

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
beforeEach(() => {
  posts = [];
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

/** the 注册 button (antd spaces two-character labels; a loading button's name starts with its icon's) */
const submitButton = () =>
  screen.getByRole('button', { name: (n) => n.replace(/^loading/, '').replace(/\s/g, '') === '注册', hidden: true });

function renderRegister() {
  render(
    <AppProviders>
      <PageRouter path="/register">
        <RegisterPage />
      </PageRouter>
    </AppProviders>,
  );
}

async function fillAndSubmit() {
  await userEvent.type(screen.getByLabelText('个人/公司名称'), ' 示例公司 ');
  await userEvent.type(screen.getByLabelText('登录邮箱'), 'agent@example.com');
  await userEvent.type(screen.getByLabelText('手机号'), '13800138000');
  await userEvent.type(screen.getByLabelText('手机验证码'), '123456');
  await userEvent.type(screen.getByLabelText('密码'), 'abc12345');
  await userEvent.type(screen.getByLabelText('确认密码'), 'abc12345');
  await userEvent.click(screen.getByRole('checkbox'));
  await userEvent.click(submitButton());
}

describe('RegisterPage', () => {
  it('asks to confirm a 501 and resubmits with flag 1', async () => {
    server.use(
      http.post('*/api/userCenter/agentRegister', async ({ request }) => {
        const body = Object.fromEntries(new URLSearchParams(await request.text()));
        posts.push(body);
        return body.flag === '1'
          ? ok({ clientid: 'a1', autoLogin: true })
          : fail(501, '该手机号或邮箱有一个未完成的注册，是否继续注册并替换它？');
      }),
    );
    renderRegister();
    await fillAndSubmit();
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('该手机号或邮箱有一个未完成的注册，是否继续注册并替换它？')).toBeInTheDocument();
    // blocked while the question is open
    await userEvent.click(submitButton());
    expect(posts).toHaveLength(1);
    await userEvent.click(within(dialog).getByRole('button', { name: '继续注册' }));
    expect(await screen.findByText('注册成功')).toBeInTheDocument();
    expect(posts).toHaveLength(2);
    expect(posts[0].flag).toBeUndefined();
    expect(posts[1]).toMatchObject({
      flag: '1',
      realName: '示例公司',
      mobile: '13800138000',
      countryCode: '86',
      validateCode: '123456',
    });
  });

  it('unblocks when the 501 question is cancelled', async () => {
    server.use(
      http.post('*/api/userCenter/agentRegister', () => {
        posts.push({});
        return fail(501, '该手机号或邮箱有一个未完成的注册，是否继续注册并替换它？');
      }),
    );
    renderRegister();
    await fillAndSubmit();
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: /取\s*消/ }));
    await userEvent.click(submitButton());
    await waitFor(() => expect(posts).toHaveLength(2));
  });

  it('checks the mobile number before asking for a code', async () => {
    server.use(http.post('*/api/userCenter/sendCode', () => (posts.push({}), ok())));
    renderRegister();
    await userEvent.click(screen.getByRole('button', { name: /获取验证码/ }));
    expect(await screen.findByText('请输入手机号')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('手机号'), '13x');
    await userEvent.click(screen.getByRole('button', { name: /获取验证码/ }));
    expect(await screen.findByText('请输入正确的手机号')).toBeInTheDocument();
    expect(posts).toHaveLength(0);
  });
});
