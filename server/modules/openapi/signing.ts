/**
 * Request signing of the customers' HTTP API (docs/api-openapi.md "Signing"): pure functions, shared
 * by the server, the seed and the tests.
 *
 *   apiSecret = hex HMAC-SHA256(key = interface password, message = clientid)
 *   canonical = METHOD \n PATH \n SORTED_QUERY \n TIMESTAMP \n NONCE \n hex SHA256(body)
 *   signature = hex HMAC-SHA256(key = apiSecret, message = canonical)
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The demo interface password of client1 (README's demo accounts; the SMPP bind uses the same; the
 * seed stores it). Here rather than in server/db/seed.ts so that the signing, a leaf, does not load
 * the seed and every module it seeds.
 */
export const DEMO_INTERFACE_PASSWORD = 'Demo2468';

export const HEADERS = {
  clientid: 'x-sms-clientid',
  timestamp: 'x-sms-timestamp',
  nonce: 'x-sms-nonce',
  signature: 'x-sms-signature',
  idempotencyKey: 'idempotency-key',
} as const;

/** The account's API secret, derived from its interface password (what the customer computes too). */
export function deriveApiSecret(clientid: string, password: string): string {
  return createHmac('sha256', password).update(clientid, 'utf8').digest('hex');
}

export const sha256hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** RFC 3986 percent-encoding (unreserved characters kept, space as %20). */
export function encodeRfc3986(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The query string in canonical form: each name and value decoded then RFC 3986 encoded, pairs
 * sorted by name then value, joined with & ('' when none).
 */
export function canonicalQuery(rawQuery: string): string {
  if (!rawQuery) return '';
  const pairs: [string, string][] = [];
  for (const part of rawQuery.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const dec = (x: string) => {
      try {
        return decodeURIComponent(x.replace(/\+/g, ' '));
      } catch {
        return x;
      }
    };
    const k = dec(eq < 0 ? part : part.slice(0, eq));
    const v = eq < 0 ? '' : dec(part.slice(eq + 1));
    pairs.push([encodeRfc3986(k), encodeRfc3986(v)]);
  }
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

export interface CanonicalRequest {
  method: string;
  /** the path as sent, without the query (e.g. /openapi/v1/sms/send) */
  path: string;
  /** the raw query string, without '?' */
  query: string;
  timestamp: string;
  nonce: string;
  /** the body, or its hex SHA-256 already computed (the server hashes the body as it arrives) */
  body: string | Buffer | { sha256: string };
}

/** hex SHA-256 of an empty body (a GET) */
export const EMPTY_BODY_SHA256 = sha256hex('');

export function canonicalString(r: CanonicalRequest): string {
  const bodyHash = typeof r.body === 'object' && !Buffer.isBuffer(r.body) ? r.body.sha256 : sha256hex(r.body);
  return [r.method.toUpperCase(), r.path, canonicalQuery(r.query), r.timestamp, r.nonce, bodyHash].join('\n');
}

export function signRequest(apiSecret: string, r: CanonicalRequest): string {
  return signCanonical(apiSecret, canonicalString(r));
}

/** hex HMAC-SHA256 of a canonical string already built */
export function signCanonical(apiSecret: string, canonical: string): string {
  return createHmac('sha256', apiSecret).update(canonical, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex signatures. */
export function sameSignature(a: string, b: string): boolean {
  const x = Buffer.from(a.toLowerCase(), 'utf8');
  const y = Buffer.from(b.toLowerCase(), 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
