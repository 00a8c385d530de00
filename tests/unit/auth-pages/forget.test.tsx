import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import { http } from 'msw';
import { AppProviders } from '@/providers/AppProviders';
import { PageRouter } from '@/components/PublicLayout/storyRouter';
import { ok, publicHandlers } from '@/components/PublicLayout/mocks';
import { validateForm } from '@/components/SchemaForm/validation';

const errorsOf = (schema: Parameters<typeof validateForm>[0], data: Record<string, unknown>) =>
  validateForm(schema, data).errors;
import ForgetPage from '@/custom-pages/forget/ForgetPage';

const server = setupServer(...publicHandlers);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

const resetMessages = (password: string, confirmPassword = password) =>
  errorsOf('forms/password-reset', { sendType: 1, email: 'a@b.cn', validateCode: '123456', password, confirmPassword });

describe('forgot password rules (forms/password-reset, forms/password-code)', () => {
  it.each([
    ['abc1', '密码的长度必须是8-16位！'],
    ['abcdefgh12345678x', '密码的长度必须是8-16位！'],
    ['12345678', '密码不能全为数字'],
    ['abcdefgh', '密码不能全为字母'],
    ['abcd_1234', '密码只能由字母和数字组成'],
  ])('%s -> %s', (password, message) => {
    expect(resetMessages(password)).toEqual([{ field: 'password', message }]);
  });

  it('accepts 8-16 letters and digits, and wants the same twice', () => {
    expect(resetMessages('abcd1234')).toEqual([]);
    expect(resetMessages('abcd1234', 'abcd1235')).toEqual([{ field: 'confirmPassword', message: '两次密码不一致' }]);
  });

  it('checks the address or the number of the code request', () => {
    expect(errorsOf('forms/password-code', { sendType: 1, email: 'nope', captcha: 'x' })).toEqual([
      { field: 'email', message: '请输入有效的邮箱' },
    ]);
    expect(errorsOf('forms/password-code', { sendType: 2, email: '138x', countryCode: '86', captcha: 'x' })).toEqual([
      { field: 'email', message: '请输入有效的手机号' },
    ]);
    expect(errorsOf('forms/password-code', { sendType: 1, email: 'a@b.cn' })).toEqual([
      { field: 'captcha', message: '验证码不可为空' },
    ]);
  });
});

describe('ForgetPage', () => {
  it('shows the spec messages on the fields', async () => {
    render(
      <AppProviders>
        <PageRouter path="/forget">
          <ForgetPage />
        </PageRouter>
      </AppProviders>,
    );
    await userEvent.click(await screen.findByRole('button', { name: /重置密码/ }));
    expect(await screen.findByText('请输入有效的邮箱')).toBeInTheDocument();
    expect(screen.getByText('验证码不可为空')).toBeInTheDocument();
    expect(screen.getByText('密码的长度必须是8-16位！')).toBeInTheDocument();
    expect(screen.getByText('两次密码不一致')).toBeInTheDocument();
  });

  it('resets by phone with the country code and goes back to /login', async () => {
    const sent: Record<string, string>[] = [];
    server.use(
      http.post(
        '*/api/password/email',
        async ({ request }) => (sent.push(Object.fromEntries(new URLSearchParams(await request.text()))), ok()),
      ),
      http.post(
        '*/api/password/change',
        async ({ request }) => (sent.push(Object.fromEntries(new URLSearchParams(await request.text()))), ok()),
      ),
    );
    render(
      <AppProviders>
        <PageRouter path="/forget">
          <ForgetPage />
        </PageRouter>
      </AppProviders>,
    );
    await userEvent.click(await screen.findByRole('radio', { name: '手机找回' }));
    await userEvent.type(await screen.findByLabelText('手机号'), '13800138000');
    await userEvent.type(screen.getByPlaceholderText('图形验证码'), '7K3P');
    await userEvent.click(screen.getByRole('button', { name: /获取验证码/ }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ sendType: '2', email: '13800138000', countryCode: '86', captcha: '7K3P' });
    await userEvent.type(screen.getByPlaceholderText('短信验证码'), '123456');
    await userEvent.type(screen.getByLabelText('新密码'), 'abcd1234');
    await userEvent.type(screen.getByLabelText('确认密码'), 'abcd1234');
    await userEvent.click(screen.getByRole('button', { name: /重置密码/ }));
    expect(await screen.findByTestId('navigated')).toHaveTextContent('/login');
    expect(sent[1]).toEqual({
      sendType: '2',
      email: '13800138000',
      countryCode: '86',
      validateCode: '123456',
      password: 'abcd1234',
      confirmPassword: 'abcd1234',
    });
  });
});
