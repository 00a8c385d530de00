import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import { http } from 'msw';
import { AppProviders } from '@/providers/AppProviders';
import { PageRouter } from '@/components/PublicLayout/storyRouter';
import { fail, ok, publicHandlers } from '@/components/PublicLayout/mocks';
import LoginPage from '@/custom-pages/login/LoginPage';
import { safeRedirect } from '@/custom-pages/login/redirect';
import { passwordDigest } from '@/lib/password';

const server = setupServer(...publicHandlers);
let logins: Record<string, string>[] = [];

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
beforeEach(() => {
  logins = [];
  localStorage.clear();
  server.use(
    http.post('*/api/login', async ({ request }) => {
      logins.push(Object.fromEntries(new URLSearchParams(await request.text())));
      return ok({ clientid: 'agent01' }, '登录成功');
    }),
  );
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

function renderLogin(entry = '/login') {
  render(
    <AppProviders>
      <PageRouter path="/login" entry={entry}>
        <LoginPage />
      </PageRouter>
    </AppProviders>,
  );
}

async function fillAndSlide({ remember = false } = {}) {
  await userEvent.type(screen.getByLabelText('帐户名'), '  agent01 ');
  await userEvent.type(screen.getByLabelText('密码'), 'Secret123');
  if (remember) await userEvent.click(screen.getByRole('checkbox'));
  const slider = screen.getByRole('slider', { name: '滑块验证' });
  act(() => slider.focus());
  await userEvent.keyboard('{End}');
}

describe('password digest', () => {
  it('is the SHA-256 hex of the UTF-8 password', () => {
    expect(passwordDigest('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(passwordDigest('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(passwordDigest('密码')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('safeRedirect', () => {
  const origin = 'http://console.example.com';
  it('keeps same-site paths', () => {
    expect(safeRedirect('/customer/finance?x=1#a', origin)).toBe('/customer/finance?x=1#a');
    expect(safeRedirect('/', origin)).toBe('/');
  });
  it.each([
    null,
    '',
    'customer',
    '//evil.com',
    '//evil.com/login',
    '/\\evil.com',
    'https://evil.com',
    'javascript:alert(1)',
    '/\tx',
  ])('rejects %j', (v) => expect(safeRedirect(v, origin)).toBe('/'));
});

describe('LoginPage', () => {
  it('sends the trimmed user name, the SHA-256 of the password and the slider pass, then follows redirect', async () => {
    renderLogin('/login?redirect=%2Fcustomer%2Ffinance');
    await fillAndSlide();
    expect(await screen.findByTestId('navigated')).toHaveTextContent('/customer/finance');
    expect(logins).toEqual([
      { username: 'agent01', password: passwordDigest('Secret123'), server: 'challenge-1', token: 'token-1' },
    ]);
    expect(localStorage.getItem('sms-console.login.username')).toBeNull();
  });

  it('goes to / instead of a //evil redirect', async () => {
    renderLogin('/login?redirect=//evil.com/phish');
    await fillAndSlide();
    expect(await screen.findByTestId('navigated')).toHaveTextContent(/^已跳转到 \/$/);
  });

  it('remembers only the user name when 记住我 is checked', async () => {
    renderLogin();
    await fillAndSlide({ remember: true });
    await screen.findByTestId('navigated');
    expect(logins[0].remember).toBe('1');
    expect(localStorage.getItem('sms-console.login.username')).toBe('agent01');
    expect(JSON.stringify({ ...localStorage })).not.toContain('Secret123');
  });

  it('asks for the slider first and shows the server message on failure, re-arming the slider', async () => {
    server.use(http.post('*/api/login', () => fail(500, '用户名或密码错误')));
    renderLogin();
    await userEvent.type(screen.getByLabelText('帐户名'), 'agent01');
    await userEvent.type(screen.getByLabelText('密码'), 'Secret123');
    await userEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    expect(await screen.findByText('请先完成滑块验证')).toBeInTheDocument();
    act(() => screen.getByRole('slider').focus());
    await userEvent.keyboard('{End}');
    expect(await screen.findByText('用户名或密码错误')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('slider')).toHaveAttribute('aria-valuenow', '0'));
    expect(screen.queryByText('验证通过')).not.toBeInTheDocument();
  });
});
