/**
 * Login: slider token first, then the account by clientid, e-mail or mobile, then the password
 * digest against its argon2id hash. Five wrong passwords in a row lock the account (status 7)
 * for 15 minutes; frozen and cancelled accounts are refused.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { ApiError } from '../../http/errors';
import { hashDigest, passwordDigest, verifyDigest } from '../../lib/crypto';
import { addMs } from '../../lib/time';
import { SLIDER_MESSAGES, type CaptchaService } from '../captcha/service';
import { AccountStatus } from '../../../common/generated/schemas';

export const LOGIN_MESSAGES = {
  ok: '登录成功',
  wrong: '用户名或密码错误',
  locked: '账户已锁定，请15分钟后再试',
  frozen: '账户已冻结，请联系客服',
  cancelled: '账户已注销',
  inactive: '账户未激活，请重新注册',
} as const;

export interface LoginForm {
  username: string;
  password: string;
  remember?: boolean;
  server?: string;
  token?: string;
}

let dummyHash: Promise<string> | undefined;

export class AuthService {
  constructor(
    private readonly ctx: AppContext,
    private readonly captcha: CaptchaService,
  ) {}

  /** The account a login name designates: a clientid, else a live account's e-mail or mobile. */
  async findByLoginName(username: string): Promise<Account | undefined> {
    const db = this.ctx.db;
    const u = username.trim();
    if (u.includes('@')) {
      return db
        .selectFrom('accounts')
        .selectAll()
        .where(sql`lower(email)`, '=', u.toLowerCase())
        .orderBy(sql`status = ${AccountStatus.Unactivated}`)
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
    }
    return db
      .selectFrom('accounts')
      .selectAll()
      .where((eb) => eb.or([eb('clientid', '=', u), eb('mobile', '=', u)]))
      .orderBy(sql`clientid = ${u}`, 'desc')
      .orderBy(sql`status = ${AccountStatus.Unactivated}`)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
  }

  /** Checks the credentials; returns the account (now unlocked) or throws the login error. */
  async authenticate(form: LoginForm): Promise<Account> {
    if (!(await this.captcha.consumeSliderToken(form.server, form.token))) {
      throw new ApiError(402, SLIDER_MESSAGES.required);
    }
    const { db, config } = this.ctx;
    const now = this.ctx.now();
    const account = await this.findByLoginName(form.username);
    if (!account) {
      // same work as for a real account: no timing oracle for which names exist
      await verifyDigest(await (dummyHash ??= hashDigest(passwordDigest('not-a-password'))), form.password);
      throw new ApiError(500, LOGIN_MESSAGES.wrong);
    }
    if (account.status === AccountStatus.Locked && account.locked_until && new Date(account.locked_until) > now) {
      throw new ApiError(423, LOGIN_MESSAGES.locked);
    }
    const good = await verifyDigest(account.password_hash, form.password);
    const active = account.status === AccountStatus.Active || account.status === AccountStatus.Locked;
    if (!good) {
      if (active) {
        const r = await db
          .updateTable('accounts')
          .set((eb) => ({ failed_logins: eb('failed_logins', '+', 1) }))
          .where('id', '=', account.id)
          .returning('failed_logins')
          .executeTakeFirstOrThrow();
        if (r.failed_logins >= config.maxFailedLogins) {
          await db
            .updateTable('accounts')
            .set({ status: 7, locked_until: addMs(now, config.lockMs), failed_logins: 0, update_time: now })
            .where('id', '=', account.id)
            .execute();
          this.ctx.log.warn({ clientid: account.clientid }, 'account locked after repeated failed logins');
          throw new ApiError(423, LOGIN_MESSAGES.locked);
        }
      }
      throw new ApiError(500, LOGIN_MESSAGES.wrong);
    }
    if (account.status === AccountStatus.Frozen) throw new ApiError(423, LOGIN_MESSAGES.frozen);
    if (account.status === AccountStatus.Closed) throw new ApiError(423, LOGIN_MESSAGES.cancelled);
    if (account.status === AccountStatus.Unactivated) throw new ApiError(500, LOGIN_MESSAGES.inactive);
    if (account.failed_logins !== 0 || account.status === AccountStatus.Locked) {
      const unlocked = await db
        .updateTable('accounts')
        .set({ status: 1, failed_logins: 0, locked_until: null })
        .where('id', '=', account.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return unlocked;
    }
    return account;
  }
}
