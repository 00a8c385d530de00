/**
 * Agent self-registration: an SMS code to the mobile, then an active agent (status 1, not
 * certified, operation mode 1) who can log in at once. An unfinished registration (status 0)
 * holding the e-mail or mobile is replaced only after the user confirms (flag 1, answer 501).
 */
import type { RegisterForm, SendCodeForm } from '../../../common/generated/schemas';
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { ApiError } from '../../http/errors';
import { hashPassword } from '../../lib/crypto';
import { SLIDER_MESSAGES, type CaptchaService } from '../captcha';
import { smsTarget, type VerificationService } from '../verification';
import { checkMobile, MOBILE_MESSAGES } from './mobile';
import { AccountStatus, OauthStatus, OperationMode, UserType } from '../../../common/generated/schemas';
import { MESSAGES } from '../../../common/schema/messages';
import { codeOf, detailOf } from '../../lib/error-code';

export const REGISTER_MESSAGES = {
  sent: MESSAGES.codeSent,
  ok: MESSAGES.registered,
  mobileExists: MOBILE_MESSAGES.exists,
  emailExists: MESSAGES.emailExists,
  pending: '该手机号或邮箱有一个未完成的注册，是否继续注册并替换它？',
} as const;

/** forms/send-code (the anonymous registration code needs a passed slider: server + token), forms/register */
export type { RegisterForm, SendCodeForm };

export class RegisterService {
  constructor(
    private readonly ctx: AppContext,
    private readonly codes: VerificationService,
    private readonly captcha: CaptchaService,
  ) {}

  /** A live (status ≠ 0) account other than `exceptId` holding this mobile? */
  async mobileTaken(mobile: string, exceptId?: number): Promise<boolean> {
    let q = this.ctx.db
      .selectFrom('accounts')
      .select('id')
      .where('mobile', '=', mobile)
      .where('status', '<>', AccountStatus.Unactivated);
    if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
    return !!(await q.limit(1).executeTakeFirst());
  }

  async emailTaken(email: string): Promise<boolean> {
    return !!(await this.ctx.db
      .selectFrom('accounts')
      .select('id')
      .where(sql`lower(email)`, '=', email.toLowerCase())
      .where('status', '<>', AccountStatus.Unactivated)
      .limit(1)
      .executeTakeFirst());
  }

  /**
   * POST /userCenter/sendCode: anyone may call it, so a passed slider comes first (402 请先完成滑块验证,
   * the token is used up by any try), before the number is even looked at.
   */
  async sendRegisterCode(form: SendCodeForm, ip: string): Promise<void> {
    if (!(await this.captcha.consumeSliderToken(form.server, form.token)))
      throw new ApiError(402, SLIDER_MESSAGES.required);
    const countryCode = form.countryCode ?? '86';
    checkMobile(countryCode, form.mobile);
    if (await this.mobileTaken(form.mobile)) throw new ApiError(500, REGISTER_MESSAGES.mobileExists);
    await this.codes.sendSms({ purpose: 'register', countryCode, mobile: form.mobile, ip });
  }

  /** POST /userCenter/sendNoPicCode: a code to a new mobile of the logged-in account. */
  async sendMobileChangeCode(form: SendCodeForm, accountId: number, ip: string): Promise<void> {
    const countryCode = form.countryCode ?? '86';
    checkMobile(countryCode, form.mobile);
    if (await this.mobileTaken(form.mobile, accountId)) throw new ApiError(500, REGISTER_MESSAGES.mobileExists);
    await this.codes.sendSms({ purpose: 'mobile', countryCode, mobile: form.mobile, ip });
  }

  /** POST /userCenter/agentRegister: creates the agent; returns it. */
  async register(form: RegisterForm): Promise<Account> {
    const { db } = this.ctx;
    const countryCode = form.countryCode ?? '86';
    const email = form.email.toLowerCase();
    checkMobile(countryCode, form.mobile);
    const codeId = await this.codes.check({
      purpose: 'register',
      target: smsTarget(countryCode, form.mobile),
      code: form.validateCode,
    });
    if (await this.mobileTaken(form.mobile)) throw new ApiError(500, REGISTER_MESSAGES.mobileExists);
    if (await this.emailTaken(email)) throw new ApiError(500, REGISTER_MESSAGES.emailExists);
    const pending = await db
      .selectFrom('accounts')
      .select('id')
      .where('status', '=', AccountStatus.Unactivated)
      .where((eb) => eb.or([eb('mobile', '=', form.mobile), eb(sql`lower(email)`, '=', email)]))
      .execute();
    if (pending.length && form.flag !== '1') throw new ApiError(501, REGISTER_MESSAGES.pending);
    const passwordHash = await hashPassword(form.password);
    const now = this.ctx.now();
    try {
      return await db.transaction().execute(async (tx) => {
        if (pending.length) {
          await tx
            .deleteFrom('accounts')
            .where(
              'id',
              'in',
              pending.map((p) => p.id),
            )
            .where('status', '=', AccountStatus.Unactivated)
            .execute();
        }
        await this.codes.consume(tx, codeId);
        const { n } = await sql<{ n: number }>`select nextval('agent_clientid_seq')::int as n`
          .execute(tx)
          .then((r) => r.rows[0]);
        return tx
          .insertInto('accounts')
          .values({
            clientid: `a${n}`,
            user_type: UserType.Agent,
            operation_mode: OperationMode.Package,
            name: form.realName,
            realname: form.realName,
            email,
            mobile: form.mobile,
            country_code: countryCode,
            password_hash: passwordHash,
            status: AccountStatus.Active,
            oauth_status: OauthStatus.Uncertified,
            province: form.province ?? '',
            city: form.city ?? '',
            area: form.area ?? '',
            address: form.address ?? '',
            invite_code: form.inviteCode ?? '',
            remarks: form.remark ?? '',
            create_time: now,
            update_time: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
    } catch (e) {
      // a concurrent registration won the race for the same mobile or e-mail
      if (codeOf(e) === '23505') {
        const which = detailOf(e);
        throw new ApiError(
          500,
          which.includes('email') ? REGISTER_MESSAGES.emailExists : REGISTER_MESSAGES.mobileExists,
        );
      }
      throw e;
    }
  }
}
