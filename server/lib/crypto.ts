import { hash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';

export function sha256hex(s: string | Buffer): string {
  // the one-shot form: no Hash object per call (it runs for every request's session cookie)
  return hash('sha256', s, 'hex');
}

/** A random URL-safe token (cookies, challenge ids). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** n random decimal digits (verification codes). */
export function randomDigits(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String(randomInt(10));
  return s;
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * What the console sends as `password` on login: the SHA-256 hex of the plain password.
 * Registration and password recovery receive the plain password and digest it here, so every
 * stored hash is argon2id(passwordDigest(plain)).
 */
export function passwordDigest(plain: string): string {
  return sha256hex(Buffer.from(plain, 'utf8'));
}

/** argon2id of the digest (the library's default algorithm is argon2id). */
export function hashDigest(digest: string): Promise<string> {
  return argon2Hash(digest.toLowerCase());
}

export function hashPassword(plain: string): Promise<string> {
  return hashDigest(passwordDigest(plain));
}

export async function verifyDigest(storedHash: string, digest: string): Promise<boolean> {
  try {
    return await argon2Verify(storedHash, digest.toLowerCase());
  } catch {
    return false;
  }
}
