/**
 * The interface password of an account (migration 0027): the SMPP bind password, separate from the
 * console password, and the key the HTTP API's secret is derived from (openapi/signing.ts). 8
 * characters (the most an SMPP 3.4 bind_* password carries), stored as
 * argon2id(sha256hex(password)) like the console password, shown only masked; a reset hands the new
 * one out once (docs/api-smpp.md "Interface password"). Pure functions, shared by the SMPP listener
 * (server/modules/smpp-server, which also resets it) and the sub-account area.
 */
import { randomInt } from 'node:crypto';
import { hashPassword, passwordDigest, verifyDigest } from './crypto';

/** letters and digits without the look-alikes (0/O, 1/l/I) */
const LETTERS = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
export const INTERFACE_PASSWORD_LENGTH = 8;

/** A new interface password: 8 characters, at least one letter and one digit. */
export function newInterfacePassword(): string {
  const all = LETTERS + DIGITS;
  const chars = [LETTERS[randomInt(LETTERS.length)], DIGITS[randomInt(DIGITS.length)]];
  while (chars.length < INTERFACE_PASSWORD_LENGTH) chars.push(all[randomInt(all.length)]);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}

export function hashInterfacePassword(plain: string): Promise<string> {
  return hashPassword(plain);
}

/** Whether `plain` is the interface password of the stored hash ('' = none: never). */
export async function interfacePasswordMatches(storedHash: string, plain: string): Promise<boolean> {
  if (!storedHash || !plain) return false;
  return verifyDigest(storedHash, passwordDigest(plain));
}

/** The masked form 接口信息 shows ('' when the account has none yet). */
export function maskedInterfacePassword(storedHash: string): string {
  return storedHash ? '********' : '';
}

let dummy: Promise<string> | undefined;

/** A hash no password matches: a door checks an unknown login against it, so that it costs what a known one costs. */
export function dummyInterfaceHash(): Promise<string> {
  return (dummy ??= hashInterfacePassword(newInterfacePassword() + newInterfacePassword()));
}

/**
 * The short interface login of an account (CMPP's Source_Addr: 6 octets at most): its own
 * `interface_login` (accounts whose clientid is longer get one at the interface password's reset),
 * else its clientid when that fits; '' when it has none yet (it cannot connect over CMPP then).
 */
export function interfaceLoginOf(a: { clientid: string; interface_login: string | null }): string {
  if (a.interface_login) return a.interface_login;
  return Buffer.byteLength(a.clientid) <= 6 ? a.clientid : '';
}

/** the SGIP door's Login_Name of an account: its interface login, else its clientid (≤ 16 octets; sgip-server.ts `bind`) */
export function sgipLoginOf(a: { clientid: string; interface_login: string | null }): string {
  const l = a.interface_login ?? a.clientid;
  return Buffer.byteLength(l) <= 16 ? l : '';
}
