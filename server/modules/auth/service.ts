/**
 * Login: slider token first, then the account by clientid, e-mail or mobile, then the password
 * digest against its argon2id hash; frozen and cancelled accounts are refused (told only after
 * the right password).
 *
 * Lockout policy: failures are counted per (login name, client address). The 5th failure in a
 * row from one address locks that name FOR THAT ADDRESS for 15 minutes; every further failure
 * after a lock doubles it (30, 60 … minutes, at most 24 hours); a success, or a day without
 * failures, starts the count again. The account itself is never locked: its owner logs in from
 * any other address, and a stranger who types a name wrongly only locks himself out. Unknown
 * names are counted and locked exactly like real ones and get the same 用户名或密码错误, so
 * neither the answer nor the lockout tells whether a name exists.
 */
import type { LoginForm } from '../../../common/generated/schemas';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Account, Database, Operator } from '../../db/types';
import { ApiError } from '../../http/errors';
import { hashDigest, passwordDigest, verifyDigest } from '../../lib/crypto';
import { LoginLockout, loginNameHash } from '../../lib/login-lockout';
import { SLIDER_MESSAGES, type CaptchaService } from '../captcha';
import { AccountStatus, OperatorStatus } from '../../../common/generated/schemas';
import { MESSAGES } from '../../../common/schema/messages';

export const LOGIN_MESSAGES = {
  ok: MESSAGES.loggedIn,
  wrong: '用户名或密码错误',
  locked: '账户已锁定，请15分钟后再试',
  /** the lock message for a lock of `minutes` */
  lockedFor: (minutes: number) => `账户已锁定，请${minutes}分钟后再试`,
  frozen: '账户已冻结，请联系客服',
  cancelled: '账户已注销',
  inactive: '账户未激活，请重新注册',
};

/** forms/login */
export type { LoginForm };

let dummyHash: Promise<string> | undefined;

/**
 * The operators' side of a login (server/modules/operator sets it): a name no account has may be
 * an operator's; its password and second factor are checked here with the same lockout.
 */
export interface OperatorLogin {
  find(name: string): Promise<Operator | undefined>;
  passwordOk(o: Operator, digest: string): Promise<boolean>;
  /** throws the login's answer when the second factor is missing or wrong */
  checkTotp(o: Operator, code: string | undefined): Promise<void>;
}

/** who a login opens a session for */
export type LoginResult = { account: Account; operator?: undefined } | { operator: Operator; account?: undefined };

export { loginNameHash };

/** The keys of every name an account logs in with (clientid, e-mail, mobile): to lift all its locks. */
export function accountNameHashes(a: { clientid: string; email: string; mobile: string }): string[] {
  return [a.clientid, a.email, a.mobile].filter(Boolean).map(loginNameHash);
}

/**
 * Lifts every login lock of an account (the CLI's `unlock`, the operators' 解除登录锁定): the
 * per-address locks of each of its login names and an account lock of status 7. Returns how many
 * (name, address) locks there were.
 */
export async function liftLoginLocks(
  db: Kysely<Database> | Transaction<Database>,
  a: Pick<Account, 'id' | 'clientid' | 'email' | 'mobile'>,
): Promise<{ lockedNames: number; status: number }> {
  const row = await db
    .updateTable('accounts')
    .set((eb) => ({
      failed_logins: 0,
      locked_until: null,
      status: eb
        .case()
        .when('status', '=', AccountStatus.Locked)
        .then(AccountStatus.Active)
        .else(eb.ref('status'))
        .end(),
    }))
    .where('id', '=', a.id)
    .returning('status')
    .executeTakeFirstOrThrow();
  const r = await db.deleteFrom('login_failures').where('name_hash', 'in', accountNameHashes(a)).executeTakeFirst();
  return { lockedNames: Number(r.numDeletedRows), status: row.status };
}

export class AuthService {
  private readonly lockout: LoginLockout;
  /** set by the operator module */
  operators: OperatorLogin | null = null;
  /** set by the operator module: a login went through (its time and audit row) */
  operatorLoggedIn: ((o: Operator, ip: string) => Promise<void>) | null = null;
  constructor(
    private readonly ctx: AppContext,
    private readonly captcha: CaptchaService,
  ) {
    this.lockout = new LoginLockout(ctx);
  }

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

  private lockedError(until: Date, now: Date): ApiError {
    const minutes = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
    return new ApiError(423, LOGIN_MESSAGES.lockedFor(minutes));
  }

  /** Counts a failure of (name, ip); throws the lock error when this one locks the pair. */
  private async recordFailure(nameHash: string, ip: string, now: Date): Promise<void> {
    const until = await this.lockout.recordFailure(nameHash, ip, now);
    if (until) throw this.lockedError(until, now);
  }

  /**
   * Checks the credentials from client address `ip`; returns the account (now unlocked), or the
   * operator when no account has the name and an active operator does, or throws the login error.
   */
  async authenticate(form: LoginForm, ip = ''): Promise<LoginResult> {
    if (!(await this.captcha.consumeSliderToken(form.server, form.token))) {
      throw new ApiError(402, SLIDER_MESSAGES.required);
    }
    const { db } = this.ctx;
    const now = this.ctx.now();
    const nameHash = loginNameHash(form.username);
    const locked = await this.lockout.lockedUntil(nameHash, ip, now);
    if (locked) throw this.lockedError(locked, now);
    const account = await this.findByLoginName(form.username);
    const operator = account ? undefined : await this.operators?.find(form.username);
    if (operator && this.operators) {
      const good =
        (await this.operators.passwordOk(operator, form.password)) && operator.status === OperatorStatus.Active;
      if (!good) {
        await this.recordFailure(nameHash, ip, now);
        throw new ApiError(500, LOGIN_MESSAGES.wrong);
      }
      try {
        await this.operators.checkTotp(operator, form.totp);
      } catch (err) {
        // a wrong second factor counts as a failure of the name (no code: the form asks for it)
        if (!(err instanceof ApiError && err.code === 428)) await this.recordFailure(nameHash, ip, now);
        throw err;
      }
      await this.lockout.clear(nameHash, ip);
      return { operator };
    }
    if (!account) {
      // same work and the same answer as for a real account: no oracle for which names exist
      await verifyDigest(await (dummyHash ??= hashDigest(passwordDigest('not-a-password'))), form.password);
      await this.recordFailure(nameHash, ip, now);
      throw new ApiError(500, LOGIN_MESSAGES.wrong);
    }
    const good = await verifyDigest(account.password_hash, form.password);
    if (!good) {
      await this.recordFailure(nameHash, ip, now);
      throw new ApiError(500, LOGIN_MESSAGES.wrong);
    }
    await this.lockout.clear(nameHash, ip);
    if (account.status === AccountStatus.Frozen) throw new ApiError(423, LOGIN_MESSAGES.frozen);
    if (account.status === AccountStatus.Closed) throw new ApiError(423, LOGIN_MESSAGES.cancelled);
    if (account.status === AccountStatus.Unactivated) throw new ApiError(500, LOGIN_MESSAGES.inactive);
    if (account.failed_logins !== 0 || account.status === AccountStatus.Locked) {
      // an account lock from before the per-address policy ends with the owner's right password
      const unlocked = await db
        .updateTable('accounts')
        .set({ status: AccountStatus.Active, failed_logins: 0, locked_until: null })
        .where('id', '=', account.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { account: unlocked };
    }
    return { account };
  }
}
