/**
 * Refine auth provider of the operator console (/ops, docs/api-operator.md "Login and sessions").
 *
 * - check: GET /login/timeout (true for either kind of session); a live session that is an
 *   account's (providers/sessionKind.ts) is sent to the accounts' console ("/"): this console's
 *   routes answer 401 to it. None: `/login?redirect=<target>` (the login page brings an operator
 *   back). No answer on a page that has seen the session is not a logout (as the accounts').
 * - getIdentity: GET /operator/me: the operator (name, role), with userType '3' so the access rules
 *   (providers/access.ts: operator, operatorAudit, operatorAdmin) read its role. A 401 there while
 *   the session is alive means the browser's note was wrong: the session is an account's.
 * - logout: POST /logout, then /login. onError: a 401 with the timeout header shows the timeout
 *   overlay (the user leaves from there); any other 401 logs out; but a 401 once the browser's note
 *   says the session is an account's (客户's 以该账户登录 opened one in this browser) goes to "/"
 *   without a logout, which would end the account's session.
 * - login: the login page posts /login itself; this only says where to go.
 */
import type { AuthProvider } from '@refinedev/core';
import { UserType, type Operator } from '@/generated/schemas';
import { ApiError, get, postForm } from '@/providers/http';
import { loginPath, type CheckParams } from '@/providers/authProvider';
import { OPS_HOME, resolveSessionKind, sessionKind } from '@/providers/sessionKind';

/** The operator of the session, as the console's access rules read a user. */
export type OperatorIdentity = Operator & { userType: typeof UserType.Operator };

let sessionSeen = false;
let lastOperator: OperatorIdentity | null = null;

/** Forgets what this page saw (tests, stories). */
export function resetOpsSession() {
  sessionSeen = false;
  lastOperator = null;
}

const saysLoggedOut = (e: unknown) => e instanceof ApiError && (e.timedOut || e.code === 401);

const currentTarget = () =>
  typeof window === 'undefined' ? OPS_HOME : `${window.location.pathname}${window.location.search}`;

export const opsAuthProvider: AuthProvider = {
  async check(params?: CheckParams) {
    const target = params?.target ?? currentTarget();
    try {
      const body = await get<boolean>('/login/timeout', undefined, { silent: true });
      if (body.data) {
        if ((await resolveSessionKind()) === 'account') return { authenticated: false, redirectTo: '/' };
        sessionSeen = true;
        return { authenticated: true };
      }
    } catch (e) {
      if (!saysLoggedOut(e) && sessionSeen) return { authenticated: true };
    }
    sessionSeen = false;
    lastOperator = null;
    sessionKind.clear();
    return { authenticated: false, redirectTo: loginPath(target) };
  },

  async login() {
    sessionSeen = true;
    return { success: true, redirectTo: OPS_HOME };
  },

  async logout() {
    try {
      await postForm('/logout', undefined, { silent: true });
    } catch {
      // the session is gone either way
    }
    sessionKind.clear();
    sessionSeen = false;
    lastOperator = null;
    return { success: true, redirectTo: '/login' };
  },

  async getIdentity() {
    try {
      const body = await get<Operator>('/operator/me', undefined, { silent: true, probe: true });
      lastOperator = body.data ? { ...body.data, userType: UserType.Operator } : null;
      return lastOperator;
    } catch (e) {
      // the session is alive (checked) but not an operator's: an account's, noted for the next check
      if (e instanceof ApiError && e.code === 401 && sessionSeen) sessionKind.set('account');
      return !saysLoggedOut(e) && sessionSeen ? lastOperator : null;
    }
  },

  async onError(error: unknown) {
    const code =
      error instanceof ApiError ? error.code : Number((error as { statusCode?: unknown } | undefined)?.statusCode);
    if (code === 401) {
      // the browser's session is an account's now (客户's 以该账户登录 opened it): going there, never
      // logging it out from this console
      if (sessionKind.get() === 'account') return { redirectTo: '/', error: error as Error };
      if (error instanceof ApiError && error.timedOut) return { error };
      return { logout: true, redirectTo: loginPath(), error: error as Error };
    }
    return {};
  },
};
