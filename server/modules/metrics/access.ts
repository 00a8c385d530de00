/**
 * Who may read /metrics (docs/api-metrics.md "Access"): never the public by default.
 *
 * - METRICS_TOKEN set: a request with `Authorization: Bearer <token>`, from anywhere (the token is
 *   compared in constant time: both sides hashed to 32 bytes, then timingSafeEqual);
 * - else, on the main HTTP port: a client connected from a loopback address (the socket's peer,
 *   never X-Forwarded-For, whatever TRUST_PROXY says) whose request carries no forwarding header
 *   (a reverse proxy on the same host connects from loopback too, for its public clients);
 * - else, on METRICS_PORT: anyone who reaches that listener (it is bound to METRICS_HOST, loopback
 *   by default: opening it is the operator's choice).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export type MetricsAccess = 'ok' | 'unauthorized' | 'forbidden';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** 127.0.0.0/8, ::1 and IPv4-mapped loopback */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.startsWith('::ffff:') ? address.slice(7) : address;
  return a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

const FORWARDING = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

/**
 * Whether a request may read the metrics: `peer` is the socket's remote address, `ownPort` true on
 * the METRICS_PORT listener.
 */
export function metricsAccess(
  headers: IncomingHttpHeaders,
  peer: string | undefined,
  token: string,
  ownPort: boolean,
): MetricsAccess {
  if (token) {
    const auth = headers.authorization;
    const m = typeof auth === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
    return m && timingSafeEqual(digest(m[1]), digest(token)) ? 'ok' : 'unauthorized';
  }
  if (ownPort) return 'ok';
  if (!isLoopback(peer)) return 'forbidden';
  return FORWARDING.some((h) => headers[h] !== undefined) ? 'forbidden' : 'ok';
}

/** The answers of a refused request (JSON, the project's `{code, msg}`). */
export const ACCESS_REFUSED = {
  unauthorized: { status: 401, body: { code: 401, msg: '需要 METRICS_TOKEN（Authorization: Bearer …）' } },
  forbidden: { status: 403, body: { code: 403, msg: '/metrics 仅对本机开放（或设置 METRICS_TOKEN / METRICS_PORT）' } },
} as const;
