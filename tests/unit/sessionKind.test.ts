/**
 * One browser, two kinds of session (providers/sessionKind.ts, docs/api-operator.md): the accounts'
 * console sends an operator's session to /ops before any account call (whose 401 would log it
 * out), the operator console sends an account's to "/", each from the browser's note or, without
 * one, from one question (GET /operator/me) whose 401 shows no timeout overlay; the login page goes
 * to the kind's console.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { http as mock, HttpResponse } from 'msw';
import { authProvider, resetSessionSeen } from '@/providers/authProvider';
import { ApiError, httpEvents, TIMEOUT_BODY } from '@/providers/http';
import {
  kindOfUserType,
  isOpsPath,
  OPERATOR_USER_TYPE,
  resolveSessionKind,
  sessionKind,
} from '@/providers/sessionKind';
import { UserType } from '@/generated/schemas';
import { opsAuthProvider, resetOpsSession } from '@/ops/authProvider';
import { redirectAfterLogin } from '@/custom-pages/login/redirect';
import { server, useMswServer } from './msw';

useMswServer();

afterEach(() => {
  resetSessionSeen();
  resetOpsSession();
  sessionKind.clear();
});

const alive = mock.get('/api/login/timeout', () => HttpResponse.json({ code: 0, data: true }));
const none = mock.get('/api/login/timeout', () => HttpResponse.json({ code: 0, data: false }));
const timedOut = () => HttpResponse.json(TIMEOUT_BODY, { status: 401, headers: { 'x-session-timeout': '1' } });
const operator = { id: 1, name: 'reviewer1', role: 1, status: 1, totpEnabled: false };

/** counts the calls of a path */
function counting(path: string, answer: () => Response) {
  const seen = { n: 0 };
  return { seen, handler: mock.get(path, () => (seen.n++, answer())) };
}

describe('the kind of the session', () => {
  it('is the browser note when there is one, else asked once and noted; asking shows no timeout overlay', async () => {
    let overlays = 0;
    const off = httpEvents.onTimeout(() => overlays++);
    const me = counting('/api/operator/me', timedOut);
    server.use(me.handler);
    await expect(resolveSessionKind()).resolves.toBe('account');
    await expect(resolveSessionKind()).resolves.toBe('account');
    expect(me.seen.n).toBe(1);
    expect(sessionKind.get()).toBe('account');
    expect(overlays).toBe(0);
    off();
    sessionKind.clear();
    server.use(mock.get('/api/operator/me', () => HttpResponse.json({ code: 0, data: operator })));
    await expect(resolveSessionKind()).resolves.toBe('operator');
    expect(sessionKind.get()).toBe('operator');
  });

  it('no answer: an account for now, not noted', async () => {
    server.use(mock.get('/api/operator/me', () => HttpResponse.error()));
    await expect(resolveSessionKind()).resolves.toBe('account');
    expect(sessionKind.get()).toBeNull();
  });

  it('helpers: the login answer’s userType, the operator console’s paths, where a login goes', () => {
    expect(OPERATOR_USER_TYPE).toBe(UserType.Operator);
    expect(kindOfUserType('3')).toBe('operator');
    expect(kindOfUserType(3)).toBe('operator');
    expect(kindOfUserType('1')).toBe('account');
    expect(kindOfUserType(undefined)).toBe('account');
    expect([
      isOpsPath('/ops'),
      isOpsPath('/ops/audit'),
      isOpsPath('/ops?x=1'),
      isOpsPath('/opsx'),
      isOpsPath('/'),
    ]).toEqual([true, true, true, false, false]);
    const origin = 'http://127.0.0.1';
    expect(redirectAfterLogin('operator', null, origin)).toBe('/ops');
    expect(redirectAfterLogin('operator', '/ops/audit?operator=x', origin)).toBe('/ops/audit?operator=x');
    expect(redirectAfterLogin('operator', '/customer/finance', origin)).toBe('/ops');
    expect(redirectAfterLogin('operator', '//evil.example/ops', origin)).toBe('/ops');
    expect(redirectAfterLogin('account', '/customer/finance', origin)).toBe('/customer/finance');
    expect(redirectAfterLogin('account', '/ops/review/signs', origin)).toBe('/');
    expect(redirectAfterLogin('account', null, origin)).toBe('/');
  });
});

describe("the accounts' console", () => {
  it('sends an operator’s session to /ops (asked, then from the note without asking again)', async () => {
    const me = counting('/api/operator/me', () => HttpResponse.json({ code: 0, data: operator }));
    server.use(alive, me.handler);
    await expect(authProvider.check({ target: '/customer/finance' })).resolves.toEqual({
      authenticated: false,
      redirectTo: '/ops',
    });
    await expect(authProvider.check({ target: '/' })).resolves.toEqual({ authenticated: false, redirectTo: '/ops' });
    expect(me.seen.n).toBe(1);
  });

  it('lets an account’s session in; a session that ended forgets the note', async () => {
    server.use(alive, mock.get('/api/operator/me', timedOut));
    await expect(authProvider.check({ target: '/' })).resolves.toEqual({ authenticated: true });
    expect(sessionKind.get()).toBe('account');
    server.use(none);
    await expect(authProvider.check({ target: '/' })).resolves.toEqual({
      authenticated: false,
      redirectTo: '/login?redirect=%2F',
    });
    expect(sessionKind.get()).toBeNull();
  });
});

describe("the operator console's auth provider", () => {
  it('lets an operator’s session in, its identity with userType 3 and role', async () => {
    sessionKind.set('operator');
    server.use(
      alive,
      mock.get('/api/operator/me', () => HttpResponse.json({ code: 0, data: operator })),
    );
    await expect(opsAuthProvider.check({ target: '/ops' })).resolves.toEqual({ authenticated: true });
    await expect(opsAuthProvider.getIdentity!()).resolves.toEqual({ ...operator, userType: '3' });
  });

  it('sends an account’s session to "/", and no session to the login page with the /ops target', async () => {
    server.use(alive, mock.get('/api/operator/me', timedOut));
    await expect(opsAuthProvider.check({ target: '/ops/review/signs' })).resolves.toEqual({
      authenticated: false,
      redirectTo: '/',
    });
    server.use(none);
    await expect(opsAuthProvider.check({ target: '/ops/review/signs?pending=false' })).resolves.toEqual({
      authenticated: false,
      redirectTo: '/login?redirect=%2Fops%2Freview%2Fsigns%3Fpending%3Dfalse',
    });
  });

  it('a wrong note (an account’s session): the identity’s 401 corrects it, without the overlay', async () => {
    let overlays = 0;
    const off = httpEvents.onTimeout(() => overlays++);
    sessionKind.set('operator');
    server.use(alive, mock.get('/api/operator/me', timedOut));
    await expect(opsAuthProvider.check({ target: '/ops' })).resolves.toEqual({ authenticated: true });
    await expect(opsAuthProvider.getIdentity!()).resolves.toBeNull();
    expect(sessionKind.get()).toBe('account');
    expect(overlays).toBe(0);
    off();
  });

  it('a 401 once the note says account (以该账户登录 opened one): to "/", never a logout of the account', async () => {
    sessionKind.set('operator');
    await expect(opsAuthProvider.onError(new ApiError({ code: 401, msg: '未登录' }))).resolves.toMatchObject({
      logout: true,
    });
    sessionKind.set('account');
    const refused = await opsAuthProvider.onError(new ApiError(TIMEOUT_BODY, true));
    expect(refused).toMatchObject({ redirectTo: '/' });
    expect(refused).not.toHaveProperty('logout');
    expect(await opsAuthProvider.onError(new ApiError({ code: 401, msg: '未登录' }))).not.toHaveProperty('logout');
  });

  it('logout posts /logout, forgets the note, goes to /login', async () => {
    sessionKind.set('operator');
    let called = 0;
    server.use(mock.post('/api/logout', () => (called++, HttpResponse.json({ code: 0 }))));
    await expect(opsAuthProvider.logout({})).resolves.toEqual({ success: true, redirectTo: '/login' });
    expect(called).toBe(1);
    expect(sessionKind.get()).toBeNull();
  });
});
