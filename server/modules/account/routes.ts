/** Routes of the account area: an agent or a sub-account acting on its own account. */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { errors } from '../../http/errors';
import { ok } from '../../http/reply';
import { validateForm } from '../../http/validation';
import { REMEMBER_COOKIE, sessionOf, type SessionService } from '../auth/session';
import { CERT_MESSAGES, type CertificationForm } from './certification';
import { ACCOUNT_MESSAGES, type AccountService, type AgentBaseInfoForm, type EnterpriseBaseInfoForm, type UserInfoForm } from './service';
import { OauthStatus } from '../../../common/generated/schemas';

/**
 * The self-edit branch of POST /account/updateClient: a sub-account edits its own enterprise info.
 * Agents have no such branch (they edit their base info through /admin/baseinfo/edit).
 */
export function selfUpdateClient(ctx: AppContext, account: AccountService) {
  return async (req: FastifyRequest) => {
    const me = sessionOf(req).account;
    if (me.user_type !== '2') throw errors.forbidden();
    const form = validateForm<EnterpriseBaseInfoForm>(ctx.schemas, 'forms/enterprise-base-info', req.body);
    await account.updateSelfClient(me, form);
    return ok(undefined, ACCOUNT_MESSAGES.saved);
  };
}

export function accountRoutes(ctx: AppContext, sessions: SessionService, account: AccountService): FastifyPluginAsync {
  return async (app) => {
    const auth = { preHandler: sessions.requireSession() };
    const agentOnly = { preHandler: sessions.requireAgent() };
    const subAccountOnly = {
      preHandler: async (req: FastifyRequest, reply: FastifyReply) => {
        const s = await sessions.resolve(req, reply);
        if (!s) throw errors.timeout();
        if (s.account.user_type !== '2') throw errors.forbidden();
      },
    };

    app.post('/admin/baseinfo/edit', agentOnly, async (req) => {
      const form = validateForm<AgentBaseInfoForm>(ctx.schemas, 'forms/agent-base-info', req.body);
      await account.editAgentBaseInfo(sessionOf(req).account, form);
      return ok(undefined, ACCOUNT_MESSAGES.saved);
    });

    app.get('/account/clientinfo', subAccountOnly, async (req) => ok(await account.clientInfo(sessionOf(req).account)));

    // POST /account/updateClient is registered by the sub-account area (an agent editing one of its
    // sub-accounts); a sub-account editing itself is this module's selfUpdateClient below.

    app.post('/admin/info/save', auth, async (req) => {
      const form = validateForm<UserInfoForm>(ctx.schemas, 'forms/user-info', req.body);
      await account.saveUserInfo(sessionOf(req).account, form);
      return ok(undefined, ACCOUNT_MESSAGES.saved);
    });

    app.post('/password/save', auth, async (req, reply) => {
      const s = sessionOf(req);
      const body = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
      await account.changePassword(s.account, s.sessionId, body);
      if (req.cookies[REMEMBER_COOKIE]) reply.clearCookie(REMEMBER_COOKIE, { path: '/' });
      return ok(undefined, ACCOUNT_MESSAGES.passwordChanged);
    });

    app.get('/admin/cer/info', auth, async (req) => ok(await account.certificationInfo(sessionOf(req).account)));

    const submit = async (req: FastifyRequest) => {
      const form = validateForm<CertificationForm>(ctx.schemas, 'forms/certification', req.body);
      const state = await account.submitCertification(sessionOf(req).account, form);
      return ok({ oauth_status: state }, state === OauthStatus.Certified ? '认证已通过' : CERT_MESSAGES.submitted);
    };
    app.post('/admin/cer/add', auth, submit);
    app.post('/admin/cer/edit', auth, submit);

    app.get('/client/cer/info', auth, async (req) => {
      const q = req.query as Record<string, string | undefined>;
      return ok(await account.clientCertificationInfo(sessionOf(req).account, q.clientId ?? q.clientid));
    });
  };
}
