/**
 * Verification codes (registration, password recovery, mobile change): 6 digits, stored hashed,
 * valid 5 minutes, single use, at most 5 wrong tries; one per target per 60 s, 10 per target and
 * 20 per IP a business day (Asia/Shanghai). SMS codes also count against a daily cap per
 * destination country code and a global daily cap (config.codeDailyPerCountry / codeDailyGlobal:
 * whatever slips past the per-number and per-address limits cannot run up an SMS bill).
 * Issuing a new code retires the previous one.
 */
import { sql, type Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Database } from '../../db/types';
import { ApiError } from '../../http/errors';
import { randomDigits, randomToken, safeEqual, sha256hex } from '../../lib/crypto';
import { addMs, formatDateTime, startOfBusinessDay } from '../../lib/time';

export type CodePurpose = 'register' | 'reset' | 'mobile';

export const CODE_MESSAGES = {
  cooldown: '验证码发送过于频繁，请60秒后再试',
  daily: '今日发送次数已达上限',
  countryDaily: '该国家/地区今日验证码发送量已达上限，请明日再试',
  globalDaily: '今日验证码发送量已达上限，请明日再试',
  invalid: '验证码错误或已过期',
  sendFailed: '验证码发送失败，请稍后再试',
} as const;

const PURPOSE_TEXT: Record<CodePurpose, string> = {
  register: '注册',
  reset: '找回密码',
  mobile: '修改手机号',
};

export const smsTarget = (countryCode: string, mobile: string) => `sms:${countryCode}:${mobile}`;
export const mailTarget = (email: string) => `mail:${email.trim().toLowerCase()}`;

function codeHash(salt: string, code: string) {
  return sha256hex(`${salt}:${code}`);
}

export class VerificationService {
  constructor(private readonly ctx: AppContext) {}

  /** Checks the send limits for `target` and `ip`, stores a new code and hands it to `deliver`. */
  private async issue(
    purpose: CodePurpose,
    target: string,
    ip: string,
    deliver: (code: string) => Promise<void>,
    smsCountry?: string,
  ) {
    const { db, config } = this.ctx;
    const now = this.ctx.now();
    const dayStart = startOfBusinessDay(now);
    await db.transaction().execute(async (tx) => {
      // serialise concurrent requests for the same target (and all SMS, for the daily caps) so that the limits hold
      if (smsCountry !== undefined) await sql`select pg_advisory_xact_lock(hashtext('sms-daily-caps'))`.execute(tx);
      await sql`select pg_advisory_xact_lock(hashtext(${target}))`.execute(tx);
      const last = await tx
        .selectFrom('verification_codes')
        .select('created_at')
        .where('target', '=', target)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (last && now.getTime() - new Date(last.created_at).getTime() < config.codeCooldownMs) {
        throw new ApiError(500, CODE_MESSAGES.cooldown);
      }
      const counts = await tx
        .selectFrom('verification_codes')
        .select([
          sql<number>`count(*) filter (where target = ${target})::int`.as('per_target'),
          sql<number>`count(*) filter (where ip = ${ip})::int`.as('per_ip'),
        ])
        .where('created_at', '>=', dayStart)
        .where((eb) => eb.or([eb('target', '=', target), eb('ip', '=', ip)]))
        .executeTakeFirstOrThrow();
      if (counts.per_target >= config.codeDailyPerTarget || counts.per_ip >= config.codeDailyPerIp) {
        throw new ApiError(500, CODE_MESSAGES.daily);
      }
      if (smsCountry !== undefined) await this.checkSmsCaps(tx, smsCountry, dayStart);
      // the latest code replaces any earlier one for the same purpose
      await tx
        .updateTable('verification_codes')
        .set({ used_at: now })
        .where('target', '=', target)
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null)
        .execute();
      const code = randomDigits(6);
      const salt = randomToken(12);
      await tx
        .insertInto('verification_codes')
        .values({
          purpose,
          target,
          code_hash: codeHash(salt, code),
          salt,
          expires_at: addMs(now, config.codeTtlMs),
          ip,
          created_at: now,
        })
        .execute();
      try {
        await deliver(code);
      } catch (err) {
        this.ctx.log.error({ err, target }, 'verification code delivery failed');
        throw new ApiError(500, CODE_MESSAGES.sendFailed);
      }
    });
  }

  /** The daily caps per destination country and for all SMS codes together. */
  private async checkSmsCaps(tx: Transaction<Database>, countryCode: string, dayStart: Date) {
    const { config } = this.ctx;
    const caps = config.codeDailyPerCountry;
    const countryCap = caps[countryCode] ?? caps['*'] ?? Infinity;
    const prefix = smsTarget(countryCode, '');
    const r = await tx
      .selectFrom('verification_codes')
      .select([
        sql<number>`count(*)::int`.as('all_sms'),
        sql<number>`count(*) filter (where starts_with(target, ${prefix}))::int`.as('country'),
      ])
      .where('created_at', '>=', dayStart)
      .where(sql<boolean>`starts_with(target, 'sms:')`)
      .executeTakeFirstOrThrow();
    if (r.all_sms >= config.codeDailyGlobal) {
      this.ctx.log.error({ cap: config.codeDailyGlobal }, 'global daily cap of SMS codes reached');
      throw new ApiError(500, CODE_MESSAGES.globalDaily);
    }
    if (r.country >= countryCap) {
      this.ctx.log.error({ countryCode, cap: countryCap }, 'daily cap of SMS codes for a country reached');
      throw new ApiError(500, CODE_MESSAGES.countryDaily);
    }
  }

  /** Sends a code by SMS. `deliver: false` counts the request against the limits but sends nothing. */
  sendSms(p: { purpose: CodePurpose; countryCode: string; mobile: string; ip: string; deliver?: boolean }) {
    const minutes = Math.round(this.ctx.config.codeTtlMs / 60_000);
    return this.issue(
      p.purpose,
      smsTarget(p.countryCode, p.mobile),
      p.ip,
      async (code) => {
        if (p.deliver === false) return;
        const text = `【${this.ctx.config.platformName}】您的${PURPOSE_TEXT[p.purpose]}验证码为${code}，${minutes}分钟内有效，请勿泄露给他人。`;
        await this.ctx.sms.send({ countryCode: p.countryCode, mobile: p.mobile }, text, { code, purpose: p.purpose });
      },
      p.countryCode,
    );
  }

  /** Sends a code by e-mail; `deliver: false` as for sendSms. */
  sendMail(p: { purpose: CodePurpose; email: string; ip: string; deliver?: boolean }) {
    const minutes = Math.round(this.ctx.config.codeTtlMs / 60_000);
    return this.issue(p.purpose, mailTarget(p.email), p.ip, async (code) => {
      if (p.deliver === false) return;
      await this.ctx.mailer.send({
        to: p.email,
        subject: `${this.ctx.config.platformName}${PURPOSE_TEXT[p.purpose]}验证码`,
        text: [
          '您好：',
          '',
          `您正在${PURPOSE_TEXT[p.purpose]}，验证码为：${code}`,
          `验证码${minutes}分钟内有效，仅可使用一次。如非本人操作，请忽略本邮件。`,
          '',
          `${this.ctx.config.platformName}短信平台`,
        ].join('\n'),
      });
    });
  }

  /**
   * Checks `code` against the live code of `target`. A wrong code costs one of the tries (kept even
   * when the caller's request fails later). Returns the code's id; throws 验证码错误或已过期.
   * Without `consume`, the code stays usable (call `consume` in the transaction that uses it).
   */
  async check(p: { purpose: CodePurpose; target: string; code: string; consume?: boolean }): Promise<number> {
    const { db, config } = this.ctx;
    const now = this.ctx.now();
    const row = await db
      .selectFrom('verification_codes')
      .select(['id', 'code_hash', 'salt', 'attempts'])
      .where('target', '=', p.target)
      .where('purpose', '=', p.purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!row || row.attempts >= config.codeMaxAttempts) throw new ApiError(500, CODE_MESSAGES.invalid);
    if (!safeEqual(codeHash(row.salt, p.code.trim()), row.code_hash)) {
      await db
        .updateTable('verification_codes')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('id', '=', row.id)
        .execute();
      throw new ApiError(500, CODE_MESSAGES.invalid);
    }
    if (p.consume) await this.consume(db, row.id);
    return row.id;
  }

  /** Marks a checked code used; fails if another request used it first. */
  async consume(tx: Transaction<Database> | AppContext['db'], id: number) {
    const r = await tx
      .updateTable('verification_codes')
      .set({ used_at: this.ctx.now() })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw new ApiError(500, CODE_MESSAGES.invalid);
  }
}

/**
 * Today's verification codes against their caps (business day of `now`; the 监控 screen, read at
 * request time from the codes kept: verification_codes holds about a day, server/db/maintenance.ts):
 * SMS and mail codes issued, the SMS codes per destination country with its cap, and the targets
 * (number or address) and client addresses that used their daily allowance, with the most any one
 * used. A code counts when it was issued (the request passed the limits), delivered or not.
 */
export async function codeBudgetOf(
  db: AppContext['db'],
  now: Date,
  config: Pick<
    AppContext['config'],
    'codeDailyGlobal' | 'codeDailyPerTarget' | 'codeDailyPerIp' | 'codeDailyPerCountry'
  >,
) {
  const dayStart = startOfBusinessDay(now);
  const [totals, countries] = await Promise.all([
    sql<{ sms: number; mail: number; targets_at_cap: number; max_target: number; ips_at_cap: number; max_ip: number }>`
      with today as (select target, ip from verification_codes where created_at >= ${dayStart.toISOString()}::timestamptz),
        t as (select count(*)::int n from today group by target),
        i as (select count(*)::int n from today where ip <> '' group by ip)
      select (select count(*) from today where starts_with(target, 'sms:'))::int sms,
        (select count(*) from today where starts_with(target, 'mail:'))::int mail,
        (select count(*) from t where n >= ${config.codeDailyPerTarget})::int targets_at_cap, coalesce((select max(n) from t), 0)::int max_target,
        (select count(*) from i where n >= ${config.codeDailyPerIp})::int ips_at_cap, coalesce((select max(n) from i), 0)::int max_ip`.execute(
      db,
    ),
    sql<{ country: string; n: number }>`
      select split_part(target, ':', 2) country, count(*)::int n from verification_codes
      where created_at >= ${dayStart.toISOString()}::timestamptz and starts_with(target, 'sms:')
      group by 1 order by 2 desc, 1`.execute(db),
  ]);
  const r = totals.rows[0];
  const caps = config.codeDailyPerCountry;
  return {
    day: formatDateTime(dayStart).slice(0, 10),
    sms: r.sms,
    mail: r.mail,
    globalCap: config.codeDailyGlobal,
    perTargetCap: config.codeDailyPerTarget,
    perIpCap: config.codeDailyPerIp,
    targetsAtCap: r.targets_at_cap,
    ipsAtCap: r.ips_at_cap,
    maxPerTarget: r.max_target,
    maxPerIp: r.max_ip,
    countries: countries.rows.map((c) => {
      const cap = caps[c.country] ?? caps['*'];
      return { countryCode: c.country, sms: c.n, cap: cap === undefined || !Number.isFinite(cap) ? null : cap };
    }),
  };
}
