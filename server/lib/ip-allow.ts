/**
 * Client addresses of every door (the signed HTTP API, SMPP, CMPP …) read one way: an IPv4 address
 * reached over IPv6 (`::ffff:a.b.c.d`, as a dual-stack listener reports it) is that IPv4 address,
 * for the account's whitelist, the per-address limits and the login lockout alike.
 */
import { BlockList, isIP } from 'node:net';

/** The address as the doors compare it: `::ffff:a.b.c.d` → `a.b.c.d`; anything else unchanged. */
export function clientAddress(ip: string): string {
  const m = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  return m && isIP(m[1]) === 4 ? m[1] : ip;
}

/**
 * Whether `ip` is in the whitelist `ip` of an account: addresses or CIDR blocks (IPv4 or IPv6)
 * separated by commas, semicolons or white space; empty: every address. Entries that are not
 * addresses are ignored.
 */
export function ipAllowed(whitelist: string, ip: string): boolean {
  const entries = whitelist.split(/[\s,;，；]+/).filter(Boolean);
  if (!entries.length) return true;
  const addr = clientAddress(ip);
  const family = isIP(addr);
  if (!family) return false;
  const list = new BlockList();
  for (const e of entries) {
    const [a, bits] = e.split('/');
    const entry = clientAddress(a);
    const f = isIP(entry);
    if (!f) continue;
    if (bits !== undefined) {
      const b = Number(bits);
      if (/^\d{1,3}$/.test(bits) && b <= (f === 4 ? 32 : 128)) list.addSubnet(entry, b, f === 4 ? 'ipv4' : 'ipv6');
    } else list.addAddress(entry, f === 4 ? 'ipv4' : 'ipv6');
  }
  return list.check(addr, family === 4 ? 'ipv4' : 'ipv6');
}
