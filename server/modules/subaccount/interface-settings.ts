/**
 * 接口信息 of an account (issue 24, docs/api-subaccounts.md "Interface settings"): which doors the
 * platform really has for customers' systems (the SMPP listener on SMPP_SERVER_PORT, the signed HTTP
 * API under /openapi/v1) and the checks of the agent's edit of a sub-account's settings.
 */
import { isIP } from 'node:net';
import { ApiError } from '../../http/errors';

/** most whitelist entries an account may have */
export const IP_WHITELIST_MAX = 20;
export const IP_WHITELIST_TOO_MANY = `IP白名单最多${IP_WHITELIST_MAX}个地址`;
export const IP_WHITELIST_BAD = (entry: string) => `IP白名单格式不正确：${entry.slice(0, 64)}`;

/**
 * The whitelist as stored (entries joined by ", "), or a 400 with the first bad entry. An entry is
 * an IPv4 address, an IPv4 block /8 to /32 (a wider one would let nearly anyone in), or an IPv6
 * address — what both doors' checks (smpp-server/server.ts, openapi/auth.ts `ipAllowed`) read alike.
 * Empty: no restriction.
 */
export function normalizeIpWhitelist(raw: string | undefined): string {
  const entries = (raw ?? '').split(/[\s,;，；]+/).filter(Boolean);
  const out: string[] = [];
  for (const e of entries) {
    const [addr, bits, ...rest] = e.split('/');
    const family = isIP(addr);
    const ok =
      rest.length === 0 &&
      (bits === undefined
        ? family !== 0
        : family === 4 && /^\d{1,2}$/.test(bits) && Number(bits) >= 8 && Number(bits) <= 32);
    if (!ok) throw new ApiError(400, IP_WHITELIST_BAD(e));
    const v = family === 6 ? e.toLowerCase() : e;
    if (!out.includes(v)) out.push(v);
  }
  if (out.length > IP_WHITELIST_MAX) throw new ApiError(400, IP_WHITELIST_TOO_MANY);
  return out.join(', ');
}

/** One way in for a customer's system, as 接口信息 shows it. */
export interface InterfaceDoor {
  protocol: 'SMPP' | 'CMPP' | 'SMGP' | 'SGIP' | 'HTTP';
  /** false: not offered by this server now (SMPP_SERVER_PORT / CMPP_SERVER_PORT / SMGP_SERVER_PORT / SGIP_SERVER_PORT 0) */
  enabled: boolean;
  host: string;
  /** 0 when off */
  port: number;
  /** the HTTP API's base URL ('' for the listeners) */
  url: string;
  /** what the account logs in with on this door (SMPP system_id, CMPP Source_Addr, SMGP ClientID, SGIP Login_Name, the HTTP API's clientid); '' when it has none yet */
  login: string;
}

/** the ports of this server's listeners (0: off) */
export interface DoorPorts {
  smpp: number;
  cmpp: number;
  smgp: number;
  sgip: number;
}

/**
 * The doors of this server and the login an account gives on each. `publicOrigin` is the configured
 * public base of /api (PAY_PUBLIC_URL) when set, else the origin the console was reached at;
 * `ports` the listeners' real ports (0: off); `login` the account's clientid, its short CMPP
 * login ('' when it has none yet: a reset of the interface password gives one) and its SGIP
 * Login_Name (its interface login, else its clientid).
 */
export function interfaceDoors(
  publicOrigin: string,
  ports: DoorPorts,
  login: { clientid: string; cmpp: string; sgip: string },
): InterfaceDoor[] {
  const u = new URL(publicOrigin);
  const httpPort = Number(u.port) || (u.protocol === 'https:' ? 443 : 80);
  const listener = (protocol: InterfaceDoor['protocol'], port: number, name: string): InterfaceDoor => ({
    protocol,
    enabled: port > 0,
    host: u.hostname,
    port: port > 0 ? port : 0,
    url: '',
    login: name,
  });
  return [
    listener('SMPP', ports.smpp, login.clientid),
    listener('CMPP', ports.cmpp, login.cmpp),
    // SMGP's ClientID is the same short interface login
    listener('SMGP', ports.smgp, login.cmpp),
    listener('SGIP', ports.sgip, login.sgip),
    {
      protocol: 'HTTP',
      enabled: true,
      host: u.hostname,
      port: httpPort,
      url: `${u.origin}/openapi/v1`,
      login: login.clientid,
    },
  ];
}
