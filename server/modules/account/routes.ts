/** Routes of the account area: an agent or a sub-account acting on its own account. */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { ok } from '../../http/reply';
import { clientId, params, text } from '../../http/params';
import { route } from '../../http/route';
import { formSchema, payloadCheck } from '../../http/validation';
import { REMEMBER_COOKIE, sessionOf } from '../auth/session';
import { CERT_MESSAGES, type CertificationForm } from './certification';
import { ACCOUNT_MESSAGES, type AccountService, type AgentBaseInfoForm, type EnterpriseBaseInfoForm, type UserInfoForm } from './service';
import { errors } from '../../http/errors';
import { OauthStatus, UserType } from '../../../common/generated/schemas';

const TAG = '账户';

/**
 * The self-edit branch of POST /account/updateClient: a sub-account edits its own enterprise info
 * (forms/enterprise-base-info). Agents have no such branch (they edit their base info through
 * /admin/baseinfo/edit). The route is shared with the agent's edit of a sub-account, so this
 * branch checks its own form.
 */
export function selfUpdateClient(account: AccountService) {
  return async (req: FastifyRequest) => {
    const me = sessionOf(req).account;
    if (me.user_type !== UserType.SubAccount) throw errors.forbidden();
    const r = payloadCheck(req.server.ctx.schemas, formSchema(req.server.ctx.schemas, 'forms/enterprise-base-info'))(req.body);
    if (!r.ok) throw r.error;
    await account.updateSelfClient(me, r.data as unknown as EnterpriseBaseInfoForm);
    return ok(undefined, ACCOUNT_MESSAGES.saved);
  };
}

export function accountRoutes(ctx: AppContext, account: AccountService): FastifyPluginAsync {
  const form = (key: string) => formSchema(ctx.schemas, key);
  return async (app) => {
    app.post<{ Body: AgentBaseInfoForm }>(
      '/admin/baseinfo/edit',
      route({ tag: TAG, summary: '修改代理商基本信息', access: 'agent', body: form('forms/agent-base-info') }),
      async (req) => {
        await account.editAgentBaseInfo(sessionOf(req).account, req.body);
        return ok(undefined, ACCOUNT_MESSAGES.saved);
      },
    );

    app.get('/account/clientinfo', route({ tag: TAG, summary: '子账户的企业信息', access: 'subAccount' }), async (req) => ok(await account.clientInfo(sessionOf(req).account)));

    // POST /account/updateClient is registered by the sub-account area (an agent editing one of its
    // sub-accounts); a sub-account editing itself is this module's selfUpdateClient above.

    app.post<{ Body: UserInfoForm }>('/admin/info/save', route({ tag: TAG, summary: '修改个人信息', access: 'session', body: form('forms/user-info') }), async (req) => {
      await account.saveUserInfo(sessionOf(req).account, req.body);
      return ok(undefined, ACCOUNT_MESSAGES.saved);
    });

    app.post<{ Body: Record<string, unknown> }>(
      '/password/save',
      route({
        tag: TAG,
        summary: '修改密码（代理商提交 SHA-256 摘要，子账户提交明文并按 forms/password-change 校验）',
        access: 'session',
        body: params({ oldPassword: text('原密码'), newPassword: text('新密码'), confirmPassword: text('确认密码') }),
      }),
      async (req, reply) => {
        const s = sessionOf(req);
        await account.changePassword(s.account, s.sessionId, req.body);
        if (req.cookies[REMEMBER_COOKIE]) reply.clearCookie(REMEMBER_COOKIE, { path: '/' });
        return ok(undefined, ACCOUNT_MESSAGES.passwordChanged);
      },
    );

    app.get('/admin/cer/info', route({ tag: TAG, summary: '本账户的认证资料', access: 'session' }), async (req) => ok(await account.certificationInfo(sessionOf(req).account)));

    const submit = async (req: FastifyRequest<{ Body: CertificationForm }>) => {
      const state = await account.submitCertification(sessionOf(req).account, req.body);
      return ok({ oauth_status: state }, state === OauthStatus.Certified ? '认证已通过' : CERT_MESSAGES.submitted);
    };
    app.post('/admin/cer/add', route({ tag: TAG, summary: '提交认证资料', access: 'session', body: form('forms/certification') }), submit);
    app.post('/admin/cer/edit', route({ tag: TAG, summary: '修改认证资料（重新提交）', access: 'session', body: form('forms/certification') }), submit);

    app.get<{ Querystring: { clientId?: string; clientid?: string } }>(
      '/client/cer/info',
      route({ tag: TAG, summary: '认证资料：本账户，或代理商名下的子账户（clientId）', access: 'session', querystring: params({ clientId: clientId(), clientid: clientId() }) }),
      async (req) => ok(await account.clientCertificationInfo(sessionOf(req).account, req.query.clientId ?? req.query.clientid)),
    );
  };
}
