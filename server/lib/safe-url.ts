/**
 * Callback URLs (deliveryurl, mourl, auto_template_callback_url): the server will call them, so
 * they must not point it at itself or at the network behind it (SSRF).
 *
 * Rules: http or https only, no user:password part, a host that resolves (every address it
 * resolves to) to public unicast addresses only. Refused: private (10/8, 172.16/12, 192.168/16),
 * loopback, link-local (169.254/16 — cloud metadata — and fe80::/10), unique-local (fc00::/7),
 * carrier-grade NAT, multicast, broadcast, unspecified, reserved and documentation ranges, and
 * IPv6 forms that carry an IPv4 address (mapped, NAT64, 6to4, Teredo) — anything ipaddr.js does
 * not call plain `unicast`.
 *
 * Checked twice: at save time (`callbackUrlProblem`, a clear field message) and at push time
 * (`resolveForPush`): resolve, check, then connect to the checked address only (`pinnedLookup`),
 * so a name that re-resolves to 127.0.0.1 after the check (DNS rebinding) is never reached.
 */
import dns from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { MESSAGES } from '../../common/schema/messages';

/** A host name -> its addresses (tests inject one; the default asks the system resolver). */
export type HostResolver = (host: string) => Promise<string[]>;

const LOOKUP_TIMEOUT_MS = 3000;

export const systemResolver: HostResolver = async (host) => {
  let timer: NodeJS.Timeout | undefined;
  try {
    const found = await Promise.race([
      dns.lookup(host, { all: true, verbatim: true }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('DNS lookup timed out')), LOOKUP_TIMEOUT_MS);
      }),
    ]);
    return found.map((a) => a.address);
  } finally {
    clearTimeout(timer);
  }
};

/** true for a public unicast address (IPv4-mapped IPv6 judged as its IPv4 address) */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  return ip.range() === 'unicast';
}

export type UrlProblem = 'syntax' | 'scheme' | 'credentials' | 'unresolved' | 'address';

export class UnsafeUrlError extends Error {
  constructor(
    readonly problem: UrlProblem,
    message: string,
  ) {
    super(message);
    this.name = 'UnsafeUrlError';
  }
}

export interface CheckedTarget {
  url: URL;
  /** the checked address to connect to */
  address: string;
  family: 4 | 6;
}

/** Parses, resolves and checks `raw`; throws UnsafeUrlError. Every resolved address must be public. */
export async function resolveForPush(raw: string, resolve: HostResolver = systemResolver): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UnsafeUrlError('syntax', 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UnsafeUrlError('scheme', `scheme ${url.protocol} is not allowed`);
  if (url.username || url.password) throw new UnsafeUrlError('credentials', 'credentials in the URL are not allowed');
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!host) throw new UnsafeUrlError('syntax', 'no host');
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch (e) {
      throw new UnsafeUrlError('unresolved', `${host} does not resolve: ${(e as Error).message}`);
    }
    if (!addresses.length) throw new UnsafeUrlError('unresolved', `${host} does not resolve`);
  }
  const bad = addresses.find((a) => !isPublicAddress(a));
  if (bad !== undefined) throw new UnsafeUrlError('address', `${host} resolves to a non-public address ${bad}`);
  const address = addresses[0];
  return { url, address, family: ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4 };
}

/** Save time: null when the URL is acceptable, else what is wrong with it. */
export async function callbackUrlProblem(
  raw: string,
  resolve: HostResolver = systemResolver,
): Promise<UrlProblem | null> {
  try {
    await resolveForPush(raw, resolve);
    return null;
  } catch (e) {
    if (e instanceof UnsafeUrlError) return e.problem;
    throw e;
  }
}

const PROBLEM_MESSAGE: Record<UrlProblem, string> = {
  syntax: MESSAGES.callbackUrlSyntax,
  scheme: MESSAGES.callbackUrlScheme,
  credentials: MESSAGES.callbackUrlCredentials,
  unresolved: MESSAGES.callbackUrlUnresolved,
  address: MESSAGES.callbackUrlPrivate,
};

/** What the user is told about a refused callback URL: the field's label and why (issue 41 item 5: 无法解析 / 内网地址). */
export function callbackUrlMessage(problem: UrlProblem, label: string): string {
  return PROBLEM_MESSAGE[problem].replaceAll('{label}', label);
}

/**
 * A `lookup` for http(s).request that answers the checked address whatever the name: the
 * connection goes where the check looked (the Host header and TLS SNI keep the name).
 */
export function pinnedLookup(target: CheckedTarget): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as LookupFunction;
}
