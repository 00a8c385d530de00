/**
 * What an account does to itself: agent base info, a sub-account's enterprise info, user info
 * (mobile change with an SMS code), password change, certification. Every change is scoped to
 * the session's own account; agent-only calls are guarded in the routes.
 */
import { sql, type Kysely } from 'kysely';
import type { AppContext } from '../../context';
import type { Account, AccountUpdate, Database } from '../../db/types';
import { ApiError, errors } from '../../http/errors';
import { validateForm } from '../../http/validation';
import { callbackUrlMessage, callbackUrlProblem } from '../../lib/safe-url';
import { hashDigest, passwordDigest, verifyDigest } from '../../lib/crypto';
import { formatDateTime } from '../../lib/time';
import type { SessionService } from '../../http/session';
import { effectiveStatus, oauthStatusForApi } from '../profile';
import { checkMobile } from '../register';
import type { UploadService } from '../upload';
import { smsTarget, type VerificationService } from '../verification';
import { CERT_MESSAGES, certificationInfo, submitCertification, type CertificationInfo } from './certification';
import {
  AccountStatus,
  AgentOwned,
  NeedMo,
  NeedReport,
  OauthStatus,
  UserType,
  type AgentBaseInfoForm,
  type CertificationForm,
  type EnterpriseBaseInfoForm,
  type PasswordSaveParams,
  type UserInfoForm,
} from '../../../common/generated/schemas';
import { MESSAGES } from '../../../common/schema/messages';
import enterpriseForm from '../../../schemas/forms/enterprise-base-info.json';
import agentBaseForm from '../../../schemas/forms/agent-base-info.json';
import passwordChangeForm from '../../../schemas/forms/password-change.json';
import { detailOf, isUniqueViolation } from '../../lib/error-code';

export const ACCOUNT_MESSAGES = {
  saved: MESSAGES.saved,
  mobileExists: MESSAGES.mobileExists,
  emailExists: MESSAGES.emailExists,
  // the enterprise form's own messages for the callback addresses a push needs
  deliveryUrl: enterpriseForm.errorMessage.required.deliveryurl,
  moUrl: enterpriseForm.errorMessage.required.mourl,
  /** the agent's template review callback: not http(s), or not a public address (lib/safe-url) */
  callbackUrl: agentBaseForm.properties.auto_template_callback_url.errorMessage,
  oldPasswordWrong: '原密码错误',
  samePassword: '新密码不能与原密码相同',
  passwordFormat: passwordChangeForm.properties.newPassword.allOf[1].errorMessage,
  passwordMismatch: passwordChangeForm.properties.confirmPassword.errorMessage,
  oldPasswordMissing: passwordChangeForm.properties.oldPassword.errorMessage,
  passwordChanged: MESSAGES.passwordChanged,
} as const;

/** schemas/entities/enterprise-base-info.json (GET /account/clientinfo) */
export interface EnterpriseBaseInfo {
  clientid: string;
  name: string;
  status: number;
  createtime: string;
  oauth_status: string | number;
  oauth_date: string;
  oauth_remark: string;
  mobile: string;
  email: string;
  realname: string;
  province: string;
  city: string;
  area: string;
  address: string;
  agent_id: string;
  needreport: number;
  needaudit: number;
  needmo: number;
  ip: string;
  deliveryurl: string;
  mourl: string;
  needextend: number;
  remarks: string;
}

export class AccountService {
  /** demo setting (AUTO_REVIEW, ctx.config.autoReview: the same as signs and templates): a certification is approved as soon as it is submitted */
  autoReview: boolean;

  constructor(
    private readonly ctx: AppContext,
    private readonly deps: {
      codes: VerificationService;
      sessions: SessionService;
      uploads: UploadService;
      autoReview?: boolean;
    },
  ) {
    this.autoReview = deps.autoReview ?? ctx.config.autoReview;
  }

  private async mobileTaken(mobile: string, selfId: number) {
    const r = await this.ctx.db
      .selectFrom('accounts')
      .select('id')
      .where('mobile', '=', mobile)
      .where('status', '<>', AccountStatus.Unactivated)
      .where('id', '<>', selfId)
      .limit(1)
      .executeTakeFirst();
    return !!r;
  }

  private async emailTaken(email: string, selfId: number) {
    const r = await this.ctx.db
      .selectFrom('accounts')
      .select('id')
      .where(sql`lower(email)`, '=', email.toLowerCase())
      .where('status', '<>', AccountStatus.Unactivated)
      .where('id', '<>', selfId)
      .limit(1)
      .executeTakeFirst();
    return !!r;
  }

  private async checkUnique(self: Account, p: { mobile?: string; email?: string }) {
    if (p.mobile && p.mobile !== self.mobile && (await this.mobileTaken(p.mobile, self.id)))
      throw new ApiError(500, ACCOUNT_MESSAGES.mobileExists);
    if (p.email && p.email.toLowerCase() !== self.email.toLowerCase() && (await this.emailTaken(p.email, self.id))) {
      throw new ApiError(500, ACCOUNT_MESSAGES.emailExists);
    }
  }

  /** Writes the change; a concurrent taker of the same mobile / e-mail loses on the unique index. */
  private async update(self: Account, set: AccountUpdate, tx: Kysely<Database> = this.ctx.db) {
    try {
      await tx
        .updateTable('accounts')
        .set({ ...set, update_time: this.ctx.now() })
        .where('id', '=', self.id)
        .execute();
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      const detail = detailOf(e);
      throw new ApiError(500, detail.includes('email') ? ACCOUNT_MESSAGES.emailExists : ACCOUNT_MESSAGES.mobileExists);
    }
  }

  /** A callback URL the server will call: refused on its field with why (无法解析, 内网地址 …: lib/safe-url). */
  private async checkCallbackUrl(field: string, url: string, label: string) {
    const problem = url ? await callbackUrlProblem(url, this.ctx.resolveHost) : null;
    if (!problem) return;
    const message = callbackUrlMessage(problem, label);
    throw new ApiError(400, message, { errors: [{ field, message }] });
  }

  /** POST /admin/baseinfo/edit (agents) */
  async editAgentBaseInfo(self: Account, form: AgentBaseInfoForm): Promise<void> {
    const url = (form.auto_template_callback_url ?? '').trim();
    await this.checkCallbackUrl(
      'auto_template_callback_url',
      url,
      agentBaseForm.properties.auto_template_callback_url.title,
    );
    await this.checkUnique(self, { mobile: form.mobile });
    await this.update(self, {
      name: form.agent_name,
      address: form.address,
      mobile: form.mobile,
      auto_template_callback_url: url,
    });
  }

  /** GET /account/clientinfo: the sub-account's own enterprise base info. */
  async clientInfo(self: Account): Promise<EnterpriseBaseInfo> {
    let agentClientid = '';
    if (self.agent_id !== null) {
      agentClientid =
        (await this.ctx.db.selectFrom('accounts').select('clientid').where('id', '=', self.agent_id).executeTakeFirst())
          ?.clientid ?? '';
    }
    return {
      clientid: self.clientid,
      name: self.name,
      status: effectiveStatus(self, this.ctx.now()),
      createtime: formatDateTime(self.create_time),
      oauth_status: oauthStatusForApi(self.oauth_status),
      oauth_date: formatDateTime(self.oauth_date),
      oauth_remark: self.oauth_status === OauthStatus.Rejected ? self.oauth_remark : '',
      mobile: self.mobile,
      email: self.email,
      realname: self.realname,
      province: self.province,
      city: self.city,
      area: self.area,
      address: self.address,
      agent_id: agentClientid,
      needreport: self.needreport,
      needaudit: self.needaudit,
      needmo: self.needmo,
      ip: '',
      deliveryurl: self.deliveryurl,
      mourl: self.mourl,
      needextend: self.needextend,
      remarks: self.remarks,
    };
  }

  /**
   * POST /account/updateClient by a sub-account for itself: the route is shared with an agent's
   * edit of a sub-account (forms/sub-account-edit), so this branch checks its own form,
   * forms/enterprise-base-info.
   */
  async updateSelf(self: Account, body: unknown): Promise<void> {
    if (self.user_type !== UserType.SubAccount) throw errors.forbidden();
    await this.updateSelfClient(
      self,
      validateForm<EnterpriseBaseInfoForm>(this.ctx.schemas, 'forms/enterprise-base-info', body),
    );
  }

  /** a sub-account's enterprise info, checked by forms/enterprise-base-info */
  async updateSelfClient(self: Account, form: EnterpriseBaseInfoForm): Promise<void> {
    const deliveryurl = self.needreport === NeedReport.SimplePush ? (form.deliveryurl ?? '').trim() : '';
    const mourl = self.needmo === NeedMo.Push ? (form.mourl ?? '').trim() : '';
    if (self.needreport === NeedReport.SimplePush && !deliveryurl)
      throw new ApiError(400, ACCOUNT_MESSAGES.deliveryUrl);
    if (self.needmo === NeedMo.Push && !mourl) throw new ApiError(400, ACCOUNT_MESSAGES.moUrl);
    // the server will call these: http(s) to public addresses only (lib/safe-url)
    await this.checkCallbackUrl('deliveryurl', deliveryurl, enterpriseForm.properties.deliveryurl.title);
    await this.checkCallbackUrl('mourl', mourl, enterpriseForm.properties.mourl.title);
    const email = form.email.toLowerCase();
    await this.checkUnique(self, { mobile: form.mobile, email });
    await this.update(self, {
      name: form.name,
      ...(form.realName !== undefined ? { realname: form.realName } : {}),
      mobile: form.mobile,
      email,
      address: form.address,
      // a URL the account's report / uplink mode does not push to is cleared
      deliveryurl,
      mourl,
    });
  }

  /** POST /admin/info/save: e-mail, contact, and the mobile (checked by the code sent to the new mobile). */
  async saveUserInfo(self: Account, form: UserInfoForm): Promise<void> {
    checkMobile(form.countryCode, form.mobile);
    const email = (form.email ?? self.email).trim().toLowerCase();
    await this.checkUnique(self, { mobile: form.mobile, email });
    const codeId = await this.deps.codes.check({
      purpose: 'mobile',
      target: smsTarget(form.countryCode, form.mobile),
      code: form.valcode,
    });
    await this.ctx.db.transaction().execute(async (tx) => {
      await this.deps.codes.consume(tx, codeId);
      await this.update(
        self,
        {
          email,
          mobile: form.mobile,
          country_code: form.countryCode,
          ...(form.realName !== undefined ? { realname: form.realName.trim() } : {}),
        },
        tx,
      );
    });
  }

  /**
   * POST /password/save. Agents (userType 1) send SHA-256 digests (the console checks the rules
   * before digesting); sub-accounts send the plain passwords, checked here with the same schema.
   * Success revokes every other session and every remember token of the account.
   */
  async changePassword(self: Account, currentSessionId: string, body: PasswordSaveParams): Promise<void> {
    let oldDigest: string;
    let newDigest: string;
    if (self.user_type === UserType.Agent) {
      const hex = /^[0-9a-fA-F]{64}$/;
      const o = (body.oldPassword ?? '').trim();
      const n = (body.newPassword ?? '').trim();
      if (!o) throw new ApiError(400, ACCOUNT_MESSAGES.oldPasswordMissing);
      if (!hex.test(o) || !hex.test(n)) throw new ApiError(400, ACCOUNT_MESSAGES.passwordFormat);
      if (body.confirmPassword !== undefined && body.confirmPassword.trim().toLowerCase() !== n.toLowerCase()) {
        throw new ApiError(400, ACCOUNT_MESSAGES.passwordMismatch);
      }
      oldDigest = o.toLowerCase();
      newDigest = n.toLowerCase();
    } else {
      // a sub-account's plain passwords: the rules of forms/password-change (the confirmation defaults to the new one)
      const payload = { ...body, confirmPassword: body.confirmPassword ?? body.newPassword };
      const r = this.ctx.schemas.validate<{ oldPassword: string; newPassword: string }>(
        'forms/password-change',
        payload,
      );
      if (!r.ok) throw new ApiError(400, r.message, { errors: r.errors });
      oldDigest = passwordDigest(r.data.oldPassword);
      newDigest = passwordDigest(r.data.newPassword);
    }
    if (!(await verifyDigest(self.password_hash, oldDigest)))
      throw new ApiError(500, ACCOUNT_MESSAGES.oldPasswordWrong);
    if (oldDigest === newDigest) throw new ApiError(500, ACCOUNT_MESSAGES.samePassword);
    const hash = await hashDigest(newDigest);
    const now = this.ctx.now();
    await this.ctx.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('accounts')
        .set({ password_hash: hash, update_time: now })
        .where('id', '=', self.id)
        .execute();
      await tx.deleteFrom('sessions').where('account_id', '=', self.id).where('id', '<>', currentSessionId).execute();
      await tx
        .updateTable('remember_tokens')
        .set({ revoked_at: now })
        .where('account_id', '=', self.id)
        .where('revoked_at', 'is', null)
        .execute();
    });
    this.deps.sessions.forgetAccount(self.id, currentSessionId);
  }

  certificationInfo(self: Account): Promise<CertificationInfo> {
    return certificationInfo(this.ctx.db, self);
  }

  /** POST /admin/cer/add and /admin/cer/edit */
  async submitCertification(self: Account, form: CertificationForm): Promise<number> {
    const paths = form.imgUrl.split('|').map((p) => p.trim());
    await this.deps.uploads.checkOwnedPaths(self, paths);
    return submitCertification(
      this.ctx.db,
      self.id,
      { ...form, imgUrl: paths.join('|') },
      { now: this.ctx.now(), autoReview: this.autoReview },
    );
  }

  /**
   * POST /client/cer/edit?clientId=: an agent submits (or re-submits) the certification of one of
   * its sub-accounts (spec 01: /customer/manager/:id/auth/re), with the same form and rules as its
   * own; the images are the agent's uploads. The review then flows as for the account's own
   * (待认证 → 已认证 / 认证不通过). An agent-owned sub-account needs none.
   */
  async submitClientCertification(
    agent: Account,
    clientId: string | undefined,
    form: CertificationForm,
  ): Promise<number> {
    const id = (clientId ?? '').trim();
    if (!id) throw new ApiError(400, MESSAGES.pickSubAccount);
    const target = await this.ctx.db
      .selectFrom('accounts')
      .select(['id', 'agent_id', 'agent_owned'])
      .where('clientid', '=', id)
      .executeTakeFirst();
    if (!target || target.agent_id !== agent.id) throw errors.forbidden();
    if (target.agent_owned === AgentOwned.AgentOwned) throw errors.refused(CERT_MESSAGES.agentOwned);
    const paths = form.imgUrl.split('|').map((p) => p.trim());
    await this.deps.uploads.checkOwnedPaths(agent, paths);
    return submitCertification(
      this.ctx.db,
      target.id,
      { ...form, imgUrl: paths.join('|') },
      { now: this.ctx.now(), autoReview: this.autoReview },
    );
  }

  /** GET /client/cer/info: a sub-account reads itself; an agent itself or one of its sub-accounts. */
  async clientCertificationInfo(viewer: Account, clientId: string | undefined): Promise<CertificationInfo> {
    const id = (clientId ?? '').trim();
    if (!id || id === viewer.clientid) return certificationInfo(this.ctx.db, viewer);
    if (viewer.user_type !== UserType.Agent) throw errors.forbidden();
    const target = await this.ctx.db.selectFrom('accounts').selectAll().where('clientid', '=', id).executeTakeFirst();
    if (!target || target.agent_id !== viewer.id) throw errors.forbidden();
    return certificationInfo(this.ctx.db, target);
  }
}
