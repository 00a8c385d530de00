/**
 * Password recovery: a code by e-mail or SMS (after the image captcha), then a new password.
 * The answer never says whether an account exists. A successful reset ends every session and
 * remember token of the account and lifts a lock.
 */
import type { PasswordCodeForm, PasswordResetForm } from '../../../common/generated/schemas';
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { ApiError } from '../../http/errors';
import { hashPassword } from '../../lib/crypto';
import { accountNameHashes } from '../auth';
import { storePassword } from './store';
import type { SessionService } from '../../http/session';
import type { CaptchaService } from '../captcha';
import { checkMobile } from '../register';
import { CODE_MESSAGES, mailTarget, smsTarget, type VerificationService } from '../verification';
import { AccountStatus, RecoveryWay } from '../../../common/generated/schemas';
import { MESSAGES } from '../../../common/schema/messages';

export const PASSWORD_MESSAGES = {
  sent: MESSAGES.codeSent,
  captcha: '图形验证码错误',
  changed: '密码修改成功，请重新登录',
} as const;

/** forms/password-code, forms/password-reset */
export type { PasswordCodeForm, PasswordResetForm };

export class PasswordService {
  constructor(
    private readonly ctx: AppContext,
    private readonly deps: { codes: VerificationService; captcha: CaptchaService; sessions: SessionService },
  ) {}

  private target(f: { sendType: 1 | 2; email: string; countryCode?: string }) {
    const countryCode = f.countryCode ?? '86';
    return f.sendType === RecoveryWay.Email ? mailTarget(f.email) : smsTarget(countryCode, f.email.trim());
  }

  private async findAccount(f: { sendType: 1 | 2; email: string }): Promise<Account | undefined> {
    const q = this.ctx.db.selectFrom('accounts').selectAll().where('status', '<>', AccountStatus.Unactivated);
    return (
      f.sendType === RecoveryWay.Email
        ? q.where(sql`lower(email)`, '=', f.email.trim().toLowerCase())
        : q.where('mobile', '=', f.email.trim())
    )
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
  }

  /** POST /password/email */
  async sendCode(form: PasswordCodeForm, cid: string | undefined, ip: string): Promise<void> {
    if (!(await this.deps.captcha.checkImage(cid, form.captcha))) throw new ApiError(400, PASSWORD_MESSAGES.captcha);
    const countryCode = form.countryCode ?? '86';
    if (form.sendType === RecoveryWay.Mobile) checkMobile(countryCode, form.email.trim());
    const account = await this.findAccount(form);
    const deliver = account !== undefined;
    if (form.sendType === RecoveryWay.Email)
      await this.deps.codes.sendMail({ purpose: 'reset', email: form.email.trim(), ip, deliver });
    else await this.deps.codes.sendSms({ purpose: 'reset', countryCode, mobile: form.email.trim(), ip, deliver });
    if (!deliver)
      this.ctx.log.info({ sendType: form.sendType }, 'password code requested for an unknown account (nothing sent)');
  }

  /** POST /password/change */
  async reset(form: PasswordResetForm): Promise<void> {
    // The address was checked at the code request (forms/password-code.json carries the per-way
    // rules; the displayed reset form cannot, RJSF mishandles a root allOf there): check it again
    // with that schema's rules and messages.
    const address = this.ctx.schemas.validate('forms/password-code', {
      sendType: form.sendType,
      email: form.email,
      countryCode: form.countryCode ?? '86',
      captcha: '-',
    });
    if (!address.ok) throw new ApiError(400, address.message);
    const codeId = await this.deps.codes.check({
      purpose: 'reset',
      target: this.target(form),
      code: form.validateCode,
    });
    const account = await this.findAccount(form);
    if (!account) throw new ApiError(500, CODE_MESSAGES.invalid);
    const hash = await hashPassword(form.password);
    const now = this.ctx.now();
    await this.ctx.db.transaction().execute(async (tx) => {
      await this.deps.codes.consume(tx, codeId);
      await storePassword(tx, { id: account.id }, hash, now);
      await this.deps.sessions.revokeAll(tx, account.id); // also drops the in-process session cache
      // the owner proved the mailbox / number: his names' login locks (any address) end too
      await tx.deleteFrom('login_failures').where('name_hash', 'in', accountNameHashes(account)).execute();
    });
    this.ctx.log.info({ clientid: account.clientid }, 'password reset');
  }
}
