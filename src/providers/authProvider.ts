/**
 * Refine auth provider for the console's session API (docs/api-auth.md).
 *
 * - check: GET /login/timeout; `data` truthy = logged in, an answer saying otherwise redirects to
 *   `/login?redirect=<target path + search>` (so does a 401). No answer (network down, 5xx, a proxy's page) is not a
 *   logout (issue 41 item 1): a session this page has seen stays, and the screen shows its own
 *   接口异常 state with 重试; only a page that never saw a session goes to the login page.
 *   A live session that is an operator's (./sessionKind.ts) goes to the operator console (/ops):
 *   this console's calls answer 401 to it, and a 401 would log it out.
 * - login: POST /login (form) with the payload the login page built
 *   `{username, password (SHA-256 hex), server, token, remember}`; on success redirects to the
 *   `redirect` query (or `/`). A page that already posted the form itself passes `{ posted: true }`
 *   to only get the redirect.
 * - logout: POST /logout, then /login (the browser's note of the session kind forgotten).
 * - getIdentity: GET /admin/info (the current user).
 * - onError: code 401 logs out and redirects to the login page, except a timeout reported through
 *   the response header: the timeout overlay is showing then and the user leaves from there.
 */
import type { AuthProvider } from '@refinedev/core';
import type { CurrentUser } from '@/generated/schemas';
import { ApiError, get, postForm } from './http';
import { userStorage } from './userStorage';
import { OPS_HOME, resolveSessionKind, sessionKind } from './sessionKind';

export interface LoginPayload {
  username: string;
  /** SHA-256 hex of the password */
  password: string;
  /** slider captcha challenge id and token */
  server: string;
  token: string;
  remember?: boolean | '1' | 'true';
  /** where to go afterwards; defaults to the `redirect` query of the current URL */
  redirect?: string | null;
  /** the page already POSTed /login itself: only compute the redirect */
  posted?: boolean;
}

export interface CheckParams {
  /** the protected path (+ search) being opened; defaults to the browser location */
  target?: string;
}

const currentTarget = () =>
  typeof window === 'undefined' ? '/' : `${window.location.pathname}${window.location.search}`;

/** `/login?redirect=<encoded target>`. */
export function loginPath(target: string = currentTarget()): string {
  const t = target || '/';
  if (t.startsWith('/login')) return '/login';
  return `/login?redirect=${encodeURIComponent(t)}`;
}

/** Only same-site paths are followed after login (no open redirect). */
export function safeRedirect(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  return value;
}

/** Where to go after logging in: the `redirect` query of `search`, else `/`. */
export function redirectAfterLogin(
  search: string = typeof window === 'undefined' ? '' : window.location.search,
): string {
  return safeRedirect(new URLSearchParams(search).get('redirect'));
}

/** The current user as the rest of the console expects it (userType and operation_mode as strings). */
export function normaliseUser(value: unknown): CurrentUser | null {
  if (!value || typeof value !== 'object') return null;
  const raw = value as Partial<Record<keyof CurrentUser, unknown>>;
  return {
    ...(raw as CurrentUser),
    userType: String(raw.userType) as CurrentUser['userType'],
    operation_mode: String(raw.operation_mode ?? '0') as CurrentUser['operation_mode'],
    clientid: String(raw.clientid ?? ''),
  };
}

const asRefineError = (e: unknown, fallback: string) => {
  const message = e instanceof Error ? e.message : fallback;
  const err = new Error(message || fallback);
  err.name = fallback;
  return err;
};

/** this page has seen a valid session (a check answered logged in, or a login succeeded) */
let sessionSeen = false;
/** the identity last answered (kept through a network blip) */
let lastUser: CurrentUser | null = null;

/** Forgets that a session was seen (tests). */
export function resetSessionSeen() {
  sessionSeen = false;
  lastUser = null;
}

/** A failed check that still says the session is over (401, the timeout header); anything else (no answer, a 5xx, a page that is not ours) does not. */
const saysLoggedOut = (e: unknown) => e instanceof ApiError && (e.timedOut || e.code === 401);

export const authProvider: AuthProvider = {
  async check(params?: CheckParams) {
    const target = params?.target ?? currentTarget();
    try {
      const body = await get<boolean>('/login/timeout', undefined, { silent: true });
      if (body.data) {
        // an operator's session never opens this console: its calls would answer 401 and log it out
        if ((await resolveSessionKind()) === 'operator') return { authenticated: false, redirectTo: OPS_HOME };
        sessionSeen = true;
        return { authenticated: true };
      }
    } catch (e) {
      // no answer: the session is not known to be over; the page's own calls show 接口异常 with 重试
      if (!saysLoggedOut(e) && sessionSeen) return { authenticated: true };
    }
    sessionSeen = false;
    lastUser = null;
    sessionKind.clear();
    return { authenticated: false, redirectTo: loginPath(target) };
  },

  async login(params: LoginPayload) {
    const redirectTo = params.redirect ? safeRedirect(params.redirect) : redirectAfterLogin();
    if (params.posted) {
      sessionSeen = true;
      return { success: true, redirectTo };
    }
    const { redirect: _r, posted: _p, remember, ...form } = params;
    try {
      await postForm('/login', {
        ...form,
        remember: remember === true || remember === '1' || remember === 'true' ? '1' : undefined,
      });
      sessionSeen = true;
      return { success: true, redirectTo };
    } catch (e) {
      return { success: false, error: asRefineError(e, '登录失败') };
    }
  },

  async logout() {
    try {
      await postForm('/logout', undefined, { silent: true });
    } catch {
      // the session is gone either way
    }
    userStorage.clear();
    sessionKind.clear();
    sessionSeen = false;
    lastUser = null;
    return { success: true, redirectTo: '/login' };
  },

  async getIdentity() {
    try {
      const body = await get<CurrentUser>('/admin/info', undefined, { silent: true });
      const user = normaliseUser(body.data);
      // spec 01 §7: the mobile number and agent id are kept in browser storage (never a password)
      userStorage.keep(user);
      lastUser = user;
      return user;
    } catch (e) {
      // no answer: the user is still who it was (the menu and the header stay while the network is down)
      return !saysLoggedOut(e) && sessionSeen ? lastUser : null;
    }
  },

  async onError(error: unknown) {
    const code =
      error instanceof ApiError
        ? error.code
        : Number(
            (error as { statusCode?: unknown; status?: unknown } | undefined)?.statusCode ??
              (error as { status?: unknown } | undefined)?.status,
          );
    if (code === 401) {
      if (error instanceof ApiError && error.timedOut) return { error };
      return { logout: true, redirectTo: loginPath(), error: error as Error };
    }
    return {};
  },
};
