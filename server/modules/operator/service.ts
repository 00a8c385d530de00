/**
 * Operators (issue 39, docs/api-operator.md): the platform's staff, a kind of login of their own
 * (table `operators`, never an account). Added with `npm run cli -- operator-add` or by a 管理员 in
 * the console; they log in on the same /login (the auth module asks `login` when no account has
 * the name), with an optional TOTP second factor (RFC 6238 through `otpauth`), asked of every
 * 管理员 by default. Every action is audited (audit.ts).
 */
import { Secret, TOTP } from 'otpauth';
import type { Kysely, Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Database, Operator } from '../../db/types';
import { ApiError } from '../../http/errors';
import { hashDigest, passwordDigest, verifyDigest } from '../../lib/crypto';
import { OPERATOR_ACTIVE } from '../../http/operator-session';
import { OperatorRole, OperatorStatus, type Operator as OperatorEntity } from '../../../common/generated/schemas';
import { formatDateTime } from '../../lib/time';
import { MESSAGES } from '../../../common/schema/messages';
import { audit, type Actor } from './audit';
import passwordForm from '../../../schemas/forms/operator-password.json';

/** an operator's password as typed (the CLI's and the console's dialog's rule: forms/operator-password.json) */
const PASSWORD = passwordForm.properties.newPassword;

/**
 * an operator's login name: a letter, then letters, digits, '_', '.', '-', 7-32 in all (never an
 * e-mail or a mobile number), and never one the platform gives an account later: sub-accounts get 6
 * characters, registered agents 'a' and digits (the names taken now are checked by `nameTaken`)
 */
export const OPERATOR_NAME = /^(?!a\d+$)[A-Za-z][A-Za-z0-9_.-]{6,31}$/;

export const OPERATOR_MESSAGES = {
  badName: '登录名须以字母开头，7-32位字母、数字、下划线、点或横线（不能是 a 加数字）',
  nameTaken: '登录名已被使用',
  badRole: '角色须为 1 审核员、2 运营、3 管理员',
  weakPassword: PASSWORD.errorMessage.minLength,
  totpRequired: MESSAGES.totpRequired,
  totpWrong: '动态验证码错误',
  notSelf: '不能停用自己',
  notFound: '运营人员不存在',
  statusSet: '状态已更新',
} as const;

/** TOTP as authenticator apps read it: SHA-1, 6 digits, 30 s, one step of clock drift either way */
const TOTP_PERIOD = 30;
const totpOf = (secret: string, name: string, issuer: string) =>
  new TOTP({
    issuer,
    label: name,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD,
  });

export interface OperatorAdded {
  operator: Operator;
  /** the TOTP secret and its otpauth:// URI, shown once (when the second factor is on) */
  totp?: { secret: string; uri: string };
}

export class OperatorService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now' | 'config'>) {}

  /** An operator's row as the console shows it (entities/operator.json). */
  static toEntity(o: Operator): OperatorEntity {
    return {
      id: o.id,
      name: o.name,
      role: o.role,
      status: o.status,
      totpEnabled: o.totp_enabled,
      createdAt: formatDateTime(o.created_at),
      lastLoginAt: formatDateTime(o.last_login_at),
    };
  }

  /**
   * Adds an operator (the CLI: `by` null; the console: the 管理员 adding it, audited). `totp`:
   * the second factor (default: on for a 管理员). The name must be free among the operators and
   * the accounts' login names.
   */
  async add(
    input: { name: string; password: string; role: number; totp?: boolean },
    by: Actor | null,
  ): Promise<OperatorAdded> {
    if (input.password.length < PASSWORD.minLength) throw new ApiError(400, OPERATOR_MESSAGES.weakPassword);
    return this.addWithDigest({ ...input, digest: passwordDigest(input.password) }, by);
  }

  /** `add` with the password's SHA-256 digest (the console sends digests only, as at login). */
  async addWithDigest(
    input: { name: string; digest: string; role: number; totp?: boolean },
    by: Actor | null,
  ): Promise<OperatorAdded> {
    const name = input.name.trim();
    if (!OPERATOR_NAME.test(name)) throw new ApiError(400, OPERATOR_MESSAGES.badName);
    const roles: readonly number[] = [OperatorRole.Reviewer, OperatorRole.Operations, OperatorRole.Admin];
    if (!roles.includes(input.role)) throw new ApiError(400, OPERATOR_MESSAGES.badRole);
    const withTotp = input.totp ?? input.role === OperatorRole.Admin;
    const secret = withTotp ? new Secret({ size: 20 }).base32 : '';
    const hash = await hashDigest(input.digest);
    const now = this.ctx.now();
    const operator = await this.ctx.db.transaction().execute(async (trx) => {
      if (await nameTaken(trx, name)) throw new ApiError(400, OPERATOR_MESSAGES.nameTaken);
      const o = await trx
        .insertInto('operators')
        .values({
          name,
          password_hash: hash,
          role: input.role,
          totp_secret: secret,
          totp_enabled: withTotp,
          created_by: by?.id ?? null,
          created_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (by)
        await audit(trx, by, {
          action: 'operator.add',
          target: 'operators',
          targetId: o.id,
          after: OperatorService.toEntity(o),
          at: now,
        });
      return o;
    });
    return { operator, ...(withTotp ? { totp: { secret, uri: totpOf(secret, name, this.issuer()).toString() } } : {}) };
  }

  private issuer(): string {
    return this.ctx.config.platformName || 'SMS';
  }

  /** The active operator of a login name, or undefined. */
  async byName(name: string): Promise<Operator | undefined> {
    if (!OPERATOR_NAME.test(name.trim())) return undefined;
    return this.ctx.db.selectFrom('operators').selectAll().where('name', '=', name.trim()).executeTakeFirst();
  }

  /** Checks a password digest against the operator's hash. */
  passwordOk(o: Operator, digest: string): Promise<boolean> {
    return verifyDigest(o.password_hash, digest);
  }

  /**
   * The second factor of a login: nothing when the operator has none; else the code must be the
   * current one (±1 step) and newer than the last one accepted (a code is good once). Throws the
   * login's answer otherwise (428 when none was given: the form asks for it).
   */
  async checkTotp(o: Operator, code: string | undefined): Promise<void> {
    if (!o.totp_enabled || !o.totp_secret) return;
    const c = (code ?? '').trim();
    if (!c) throw new ApiError(428, OPERATOR_MESSAGES.totpRequired);
    const now = this.ctx.now().getTime();
    const delta = /^\d{6}$/.test(c)
      ? totpOf(o.totp_secret, o.name, this.issuer()).validate({ token: c, timestamp: now, window: 1 })
      : null;
    if (delta === null) throw new ApiError(400, OPERATOR_MESSAGES.totpWrong);
    const step = Math.floor(now / 1000 / TOTP_PERIOD) + delta;
    // used once: only a step after the last accepted one moves the mark
    const r = await this.ctx.db
      .updateTable('operators')
      .set({ totp_last_step: step })
      .where('id', '=', o.id)
      .where('totp_last_step', '<', step)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) throw new ApiError(400, OPERATOR_MESSAGES.totpWrong);
  }

  /** The current TOTP code of an operator (tests and the CLI's check). */
  static totpNow(o: Pick<Operator, 'totp_secret' | 'name'>, at: Date, issuer = 'SMS'): string {
    return totpOf(o.totp_secret, o.name, issuer).generate({ timestamp: at.getTime() });
  }

  /** A login went through: its time, and the audit row. */
  async loggedIn(o: Operator, ip: string): Promise<void> {
    const now = this.ctx.now();
    await this.ctx.db.transaction().execute(async (trx) => {
      await trx.updateTable('operators').set({ last_login_at: now }).where('id', '=', o.id).execute();
      await audit(
        trx,
        { id: o.id, name: o.name },
        { action: 'operator.login', target: 'operators', targetId: o.id, remark: ip.slice(0, 64), at: now },
      );
    });
  }

  /** Disables (every session ends) or enables an operator; never the caller itself. */
  async setStatus(by: Actor, id: number, status: OperatorStatus): Promise<string> {
    if (id === by.id) throw new ApiError(400, OPERATOR_MESSAGES.notSelf);
    const now = this.ctx.now();
    return this.ctx.db.transaction().execute(async (trx) => {
      const cur = await trx
        .selectFrom('operators')
        .select(['id', 'status'])
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!cur) throw new ApiError(404, OPERATOR_MESSAGES.notFound);
      if (cur.status === status) return OPERATOR_MESSAGES.statusSet;
      await trx.updateTable('operators').set({ status }).where('id', '=', id).execute();
      if (status !== OPERATOR_ACTIVE) await trx.deleteFrom('operator_sessions').where('operator_id', '=', id).execute();
      await audit(trx, by, {
        action: 'operator.status',
        target: 'operators',
        targetId: id,
        before: { status: cur.status },
        after: { status },
        at: now,
      });
      return OPERATOR_MESSAGES.statusSet;
    });
  }

  async list(): Promise<OperatorEntity[]> {
    const rows = await this.ctx.db.selectFrom('operators').selectAll().orderBy('id').execute();
    return rows.map(OperatorService.toEntity);
  }

  static isActive(o: Operator): boolean {
    return o.status === OPERATOR_ACTIVE;
  }
}

/** Whether a login name is an operator's or an account's (clientid, e-mail or mobile). */
export async function nameTaken(db: Kysely<Database> | Transaction<Database>, name: string): Promise<boolean> {
  const n = name.trim();
  const op = await db.selectFrom('operators').select('id').where('name', '=', n).executeTakeFirst();
  if (op) return true;
  const acc = await db
    .selectFrom('accounts')
    .select('id')
    .where((eb) => eb.or([eb('clientid', '=', n), eb('mobile', '=', n)]))
    .executeTakeFirst();
  return !!acc;
}
