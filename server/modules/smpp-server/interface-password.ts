/**
 * The interface password of an account (migration 0027): the SMPP bind password, separate from the
 * console password. 8 characters (the most an SMPP 3.4 bind_* password carries), stored as
 * argon2id(sha256hex(password)) like the console password, shown only masked; a reset hands the new
 * one out once (docs/api-smpp.md "Interface password").
 */
import { deriveApiSecret } from '../openapi/signing';
import { randomInt } from 'node:crypto';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { errors } from '../../http/errors';
import { hashPassword, passwordDigest, verifyDigest } from '../../lib/crypto';
import type { ClientsService } from '../clients';
import { UserType } from '../../../common/generated/schemas';

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

export class InterfacePasswordService {
  constructor(
    private readonly ctx: AppContext,
    private readonly clients: ClientsService,
  ) {}

  /**
   * A new interface password for the caller's own account or (an agent) one of its sub-accounts;
   * the answer carries it once. Sessions bound with the old one keep running until they unbind.
   */
  async reset(me: Account, clientId: string | undefined): Promise<{ clientid: string; password: string }> {
    let target: { id: number; clientid: string } = me;
    if (clientId && clientId !== me.clientid) {
      if (me.user_type !== UserType.Agent) throw errors.forbidden();
      const sub = await this.clients.ownSubAccount(me, clientId);
      if (!sub) throw errors.forbidden();
      // a test account has no interface access until converted (docs/api-subaccounts.md "Test accounts")
      const t = await this.ctx.db.selectFrom('accounts').select('test_expires_at').where('id', '=', sub.id).executeTakeFirst();
      if (t?.test_expires_at) throw errors.refused('测试账户不能使用接口，请先转为正式账户');
      target = sub;
    }
    const password = newInterfacePassword();
    const hash = await hashInterfacePassword(password);
    // the HTTP API's secret is derived from the same password (docs/api-openapi.md): both change together
    await this.ctx.db
      .updateTable('accounts')
      .set({ interface_password_hash: hash, api_secret: deriveApiSecret(target.clientid, password), update_time: this.ctx.now() })
      .where('id', '=', target.id)
      .execute();
    return { clientid: target.clientid, password };
  }
}
