/**
 * Which kind of session this browser holds: an account's (agents and sub-accounts: the console at
 * "/") or an operator's (the platform's staff: the operator console at /ops, docs/api-operator.md).
 * Both use the same `sid` cookie and GET /login/timeout answers true for either, but each kind's
 * routes answer 401 to the other: the accounts' console calls GET /admin/info, whose 401 would log
 * an operator out. So each console asks the kind before it mounts, and sends the other kind to its
 * own console (the accounts' authProvider.check, the operators' opsAuthProvider.check).
 *
 * The login page notes the kind it logged in (from the answer's userType) in this browser, and a
 * logout forgets it. The operator console's 以该账户登录 (客户, POST /operator/customers/login-as
 * then the accounts' POST /client/loginAs/enter, which ends the operator's session) notes
 * 'account' before it opens the accounts' console, which then keeps the session instead of sending
 * it to /ops. A session the page did not see open (another tab's login through the API, a
 * browser whose note was cleared) is asked once: GET /operator/me answers only an operator's
 * session; the answer is noted. The note is never a secret and never decides access: every route
 * checks its own session on the server.
 */
import { ApiError, get } from './http';

export type SessionKind = 'account' | 'operator';

/** the operator console's home */
export const OPS_HOME = '/ops';

/** a path of the operator console */
export const isOpsPath = (path: string | null | undefined) =>
  !!path && (path === OPS_HOME || path.startsWith(`${OPS_HOME}/`) || path.startsWith(`${OPS_HOME}?`));

const KEY = 'sms-console.session-kind';

export const sessionKind = {
  get(): SessionKind | null {
    try {
      const v = localStorage.getItem(KEY);
      return v === 'account' || v === 'operator' ? v : null;
    } catch {
      return null;
    }
  },
  set(kind: SessionKind) {
    try {
      localStorage.setItem(KEY, kind);
    } catch {
      /* storage unavailable (private mode): asked again next time */
    }
  },
  clear() {
    try {
      localStorage.removeItem(KEY);
    } catch {
      /* nothing kept */
    }
  },
};

/**
 * enums/user-type.json's 运营人员 (UserType.Operator), spelled here so that /login, which reads it,
 * does not load the generated constants of every enum (bench/login-bundle.ts);
 * tests/unit/sessionKind.test.ts holds it to the enum.
 */
export const OPERATOR_USER_TYPE = '3';

/** The kind a login answer's userType designates (运营人员: an operator). */
export const kindOfUserType = (userType: unknown): SessionKind =>
  String(userType) === OPERATOR_USER_TYPE ? 'operator' : 'account';

/**
 * The kind of the session the server just said is alive: the browser's note, else asked once
 * (GET /operator/me: code 0 for an operator's session, 401 for an account's), then noted. No
 * answer (network): 'account', not noted (asked again next time).
 */
export function resolveSessionKind(): Promise<SessionKind> {
  const known = sessionKind.get();
  if (known) return Promise.resolve(known);
  // one question at a time (a page's first checks come together)
  asking ??= ask().finally(() => (asking = null));
  return asking;
}

let asking: Promise<SessionKind> | null = null;

async function ask(): Promise<SessionKind> {
  try {
    await get('/operator/me', undefined, { silent: true, probe: true });
    sessionKind.set('operator');
    return 'operator';
  } catch (e) {
    if (e instanceof ApiError && (e.code === 401 || e.code === 403)) sessionKind.set('account');
    return 'account';
  }
}
