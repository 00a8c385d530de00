import { isOpsPath, OPS_HOME, type SessionKind } from '../../providers/sessionKind';

/**
 * Where to go after login: the `redirect` query value when it is a path of this site, else "/".
 * Rejects absolute URLs, protocol-relative "//host" and "/\host" (browsers read "\" as "/"),
 * so a crafted login link cannot send the user to another site.
 */
export function safeRedirect(target: string | null | undefined, origin = window.location.origin): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return '/';
  // control characters in a redirect target are refused on purpose
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(target)) return '/';
  try {
    const url = new URL(target, origin);
    if (url.origin !== origin) return '/';
    return url.pathname + url.search + url.hash;
  } catch {
    return '/';
  }
}

/**
 * Where a login goes: an operator to the operator console (/ops, or the `redirect` target when it
 * is a page of it), an account to the `redirect` target unless that is an operator page ("/" then).
 */
export function redirectAfterLogin(
  kind: SessionKind,
  target: string | null | undefined,
  origin = window.location.origin,
): string {
  const to = safeRedirect(target, origin);
  if (kind === 'operator') return isOpsPath(to) ? to : OPS_HOME;
  return isOpsPath(to) ? '/' : to;
}
