import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { http as mock, HttpResponse } from 'msw';
import { ApiError, TIMEOUT_BODY } from '@/providers/http';
import { authProvider, loginPath, redirectAfterLogin, resetSessionSeen, safeRedirect } from '@/providers/authProvider';
import { server, useMswServer } from './msw';

useMswServer();

// the sessions here are accounts' (providers/sessionKind.ts asks once: sessionKind.test.ts)
beforeEach(() => {
  server.use(
    mock.get('/api/operator/me', () =>
      HttpResponse.json(TIMEOUT_BODY, { status: 401, headers: { 'x-session-timeout': '1' } }),
    ),
  );
});

afterEach(() => {
  window.history.replaceState(null, '', '/');
  resetSessionSeen();
});

describe('auth provider', () => {
  it('check: data true = logged in', async () => {
    server.use(mock.get('/api/login/timeout', () => HttpResponse.json({ code: 0, data: true })));
    await expect(authProvider.check({ target: '/finance/own' })).resolves.toEqual({ authenticated: true });
  });

  it('check: data false redirects to /login with the target path and search', async () => {
    server.use(mock.get('/api/login/timeout', () => HttpResponse.json({ code: 0, data: false })));
    await expect(authProvider.check({ target: '/notice/view?noticeId=12' })).resolves.toEqual({
      authenticated: false,
      redirectTo: '/login?redirect=%2Fnotice%2Fview%3FnoticeId%3D12',
    });
  });

  it('check: without a target uses the browser location; no answer on a page that never saw a session goes to the login page', async () => {
    window.history.replaceState(null, '', '/remain?type=0');
    server.use(mock.get('/api/login/timeout', () => HttpResponse.error()));
    await expect(authProvider.check()).resolves.toEqual({
      authenticated: false,
      redirectTo: '/login?redirect=%2Fremain%3Ftype%3D0',
    });
  });

  it('check: no answer (network down, a 502 page) is not a logout once a session was seen; an answer that says so is', async () => {
    server.use(mock.get('/api/login/timeout', () => HttpResponse.json({ code: 0, data: true })));
    await expect(authProvider.check({ target: '/remain' })).resolves.toEqual({ authenticated: true });
    server.use(mock.get('/api/login/timeout', () => HttpResponse.error()));
    await expect(authProvider.check({ target: '/finance/own' })).resolves.toEqual({ authenticated: true });
    server.use(
      mock.get(
        '/api/login/timeout',
        () => new HttpResponse('<html>Bad Gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }),
      ),
    );
    await expect(authProvider.check({ target: '/finance/own' })).resolves.toEqual({ authenticated: true });
    // the server answers: the session is over
    server.use(mock.get('/api/login/timeout', () => HttpResponse.json({ code: 0, data: false })));
    await expect(authProvider.check({ target: '/finance/own' })).resolves.toEqual({
      authenticated: false,
      redirectTo: '/login?redirect=%2Ffinance%2Fown',
    });
    // and from then on no answer is not a session either
    server.use(mock.get('/api/login/timeout', () => HttpResponse.error()));
    await expect(authProvider.check({ target: '/remain' })).resolves.toEqual({
      authenticated: false,
      redirectTo: '/login?redirect=%2Fremain',
    });
  });

  it('getIdentity: the user last answered stays through a blip (the menu and header stay), not after a logout', async () => {
    server.use(
      mock.get('/api/login/timeout', () => HttpResponse.json({ code: 0, data: true })),
      mock.get('/api/admin/info', () =>
        HttpResponse.json({ code: 0, data: { userType: 2, clientid: 'client1', operation_mode: 1 } }),
      ),
    );
    await authProvider.check({ target: '/remain' });
    await expect(authProvider.getIdentity!()).resolves.toMatchObject({ clientid: 'client1', userType: '2' });
    server.use(mock.get('/api/admin/info', () => HttpResponse.error()));
    await expect(authProvider.getIdentity!()).resolves.toMatchObject({ clientid: 'client1' });
    server.use(mock.post('/api/logout', () => HttpResponse.json({ code: 0 })));
    await authProvider.logout({});
    await expect(authProvider.getIdentity!()).resolves.toBeNull();
  });

  it('check: a session seen through a login survives a blip; logout forgets it', async () => {
    server.use(
      mock.post('/api/login', () => HttpResponse.json({ code: 0, msg: '登录成功', data: {} })),
      mock.post('/api/logout', () => HttpResponse.json({ code: 0 })),
      mock.get('/api/login/timeout', () => HttpResponse.error()),
    );
    await authProvider.login({ username: 'a1', password: 'ab'.repeat(32), server: 's1', token: 't1' });
    await expect(authProvider.check({ target: '/remain' })).resolves.toEqual({ authenticated: true });
    await authProvider.logout({});
    await expect(authProvider.check({ target: '/remain' })).resolves.toEqual({
      authenticated: false,
      redirectTo: '/login?redirect=%2Fremain',
    });
  });

  it('login posts the form and goes to the redirect query', async () => {
    let form: URLSearchParams | undefined;
    server.use(
      mock.post('/api/login', async ({ request }) => {
        form = new URLSearchParams(await request.text());
        return HttpResponse.json({ code: 0, msg: '登录成功', data: { userType: '1', clientid: 'a1' } });
      }),
    );
    window.history.replaceState(null, '', '/login?redirect=%2Ffinance%2Fown');
    const res = await authProvider.login({
      username: 'a1',
      password: 'ab'.repeat(32),
      server: 's1',
      token: 't1',
      remember: true,
    });
    expect(res).toEqual({ success: true, redirectTo: '/finance/own' });
    expect(Object.fromEntries(form!)).toEqual({
      username: 'a1',
      password: 'ab'.repeat(32),
      server: 's1',
      token: 't1',
      remember: '1',
    });
  });

  it('login without a redirect query goes to /; an explicit redirect wins; no foreign sites', async () => {
    server.use(mock.post('/api/login', () => HttpResponse.json({ code: 0 })));
    await expect(authProvider.login({ username: 'a', password: 'p', server: 's', token: 't' })).resolves.toEqual({
      success: true,
      redirectTo: '/',
    });
    await expect(
      authProvider.login({ username: 'a', password: 'p', server: 's', token: 't', redirect: '/help/faq' }),
    ).resolves.toMatchObject({
      redirectTo: '/help/faq',
    });
    window.history.replaceState(null, '', '/login?redirect=%2F%2Fevil.example');
    await expect(authProvider.login({ username: 'a', password: 'p', server: 's', token: 't' })).resolves.toMatchObject({
      redirectTo: '/',
    });
  });

  it('login already posted by the page: only the redirect', async () => {
    window.history.replaceState(null, '', '/login?redirect=%2Fcontent%2Ftest');
    await expect(authProvider.login({ posted: true } as any)).resolves.toEqual({
      success: true,
      redirectTo: '/content/test',
    });
  });

  it('login failure: success false with the server msg', async () => {
    server.use(mock.post('/api/login', () => HttpResponse.json({ code: 500, msg: '用户名或密码错误' })));
    const res = await authProvider.login({ username: 'a', password: 'p', server: 's', token: 't' });
    expect(res.success).toBe(false);
    expect(res.error?.message).toBe('用户名或密码错误');
  });

  it('logout posts /logout and goes to /login (also when the call fails)', async () => {
    let called = 0;
    server.use(mock.post('/api/logout', () => (called++, HttpResponse.json({ code: 0 }))));
    await expect(authProvider.logout({})).resolves.toEqual({ success: true, redirectTo: '/login' });
    expect(called).toBe(1);
    server.use(mock.post('/api/logout', () => HttpResponse.error()));
    await expect(authProvider.logout({})).resolves.toEqual({ success: true, redirectTo: '/login' });
  });

  it('getIdentity reads /admin/info with userType and operation_mode as strings', async () => {
    server.use(
      mock.get('/api/admin/info', () =>
        HttpResponse.json({ code: 0, data: { userType: 2, operation_mode: 0, clientid: 'b1', name: '优品' } }),
      ),
    );
    await expect(authProvider.getIdentity!()).resolves.toEqual({
      userType: '2',
      operation_mode: '0',
      clientid: 'b1',
      name: '优品',
    });
  });

  it('onError: 401 logs out to the login page; a header timeout leaves it to the overlay; others pass', async () => {
    window.history.replaceState(null, '', '/finance/bill');
    await expect(authProvider.onError(new ApiError({ code: 401, msg: '未登录' }))).resolves.toMatchObject({
      logout: true,
      redirectTo: '/login?redirect=%2Ffinance%2Fbill',
    });
    await expect(authProvider.onError(new ApiError(TIMEOUT_BODY, true))).resolves.not.toHaveProperty('logout');
    await expect(authProvider.onError(new ApiError({ code: 500, msg: 'x' }))).resolves.toEqual({});
  });

  it('helpers', () => {
    expect(loginPath('/')).toBe('/login?redirect=%2F');
    expect(loginPath('/login?redirect=%2Fx')).toBe('/login');
    expect(safeRedirect('https://evil.example')).toBe('/');
    expect(safeRedirect('/\\evil.example')).toBe('/');
    expect(redirectAfterLogin('?redirect=%2Fsms%2Fpurchase%2F3')).toBe('/sms/purchase/3');
  });
});
