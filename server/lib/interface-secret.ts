/**
 * The interface password kept recoverable for the doors whose protocol needs the shared secret
 * itself (CMPP: AuthenticatorSource = MD5(Source_Addr + 9 zero octets + password + timestamp);
 * docs/api-cmpp.md "Connect"): sealed with AES-256-GCM under the server's key, bound to the
 * account's id (the additional data), in accounts.interface_secret (migration 0044).
 *
 * The key: config.interfaceSecretKey (env INTERFACE_SECRET_KEY: 64 hex digits or any text of 32+
 * characters, hashed to 32 octets; set the same value on every instance over one database), else
 * a random one kept in `${dataDir}/interface-secret-key` (survives restarts), as the CSRF secret.
 * A secret sealed under another key does not open: that account's CMPP connect fails until its
 * interface password is reset.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const PREFIX = 'v1:';

/** The key from the config, else the one kept in the data folder (made on first use). */
export function loadInterfaceSecretKey(configured: string, dataDir: string): Buffer {
  const fromText = (s: string) =>
    /^[0-9a-f]{64}$/i.test(s) ? Buffer.from(s, 'hex') : createHash('sha256').update(s).digest();
  if (configured) return fromText(configured);
  const file = path.join(dataDir, 'interface-secret-key');
  try {
    const s = fs.readFileSync(file, 'utf8').trim();
    if (s.length >= 32) return fromText(s);
  } catch {
    // none yet
  }
  const s = randomBytes(32).toString('hex');
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, s, { mode: 0o600, flag: 'wx' });
    return fromText(s);
  } catch {
    // another process made it first
    return fromText(fs.readFileSync(file, 'utf8').trim());
  }
}

/** `v1:` + base64url(iv 12 | tag 16 | ciphertext) of the password, bound to the account id */
export function sealInterfaceSecret(key: Buffer, accountId: number, password: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(Buffer.from(`account:${accountId}`));
  const body = Buffer.concat([c.update(password, 'utf8'), c.final()]);
  return PREFIX + Buffer.concat([iv, c.getAuthTag(), body]).toString('base64url');
}

/** the password, or null ('' none, another key, another account's, tampered) */
export function openInterfaceSecret(key: Buffer, accountId: number, sealed: string): string | null {
  if (!sealed?.startsWith(PREFIX)) return null;
  try {
    const b = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
    if (b.length < 28) return null;
    const d = createDecipheriv('aes-256-gcm', key, b.subarray(0, 12));
    d.setAAD(Buffer.from(`account:${accountId}`));
    d.setAuthTag(b.subarray(12, 28));
    return Buffer.concat([d.update(b.subarray(28)), d.final()]).toString('utf8');
  } catch {
    return null;
  }
}
