/** Routes of the account area: an agent or a sub-account acting on its own account. */
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { api, okEmpty, okOf, request } from '../../http/contract';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { REMEMBER_COOKIE, sessionOf } from '../../http/session';
import { CERT_MESSAGES } from './certification';
import { ACCOUNT_MESSAGES, type AccountService } from './service';
import { OauthStatus } from '../../../common/generated/schemas';

const TAG = '账户';

// POST /account/updateClient is registered by the sub-account area (an agent editing one of its
// sub-accounts, or a sub-account editing itself through AccountService.updateSelfClient).

export function accountRoutes(ctx: AppContext, account: AccountService): FastifyPluginAsync {
  const certification = request(ctx, 'forms/certification');
  const certState = okOf(ctx, 'responses/cert-state');
  return async (plugin) => {
    const app = api(plugin);

    app.post(
      '/admin/baseinfo/edit',
      route({
        tag: TAG,
        summary: '修改代理商基本信息',
        access: 'agent',
        body: request(ctx, 'forms/agent-base-info'),
        response: okEmpty,
      }),
      async (req) => {
        await account.editAgentBaseInfo(sessionOf(req).account, req.body);
        return ok(undefined, ACCOUNT_MESSAGES.saved);
      },
    );

    app.get(
      '/account/clientinfo',
      route({
        tag: TAG,
        summary: '子账户的企业信息',
        access: 'subAccount',
        response: okOf(ctx, 'entities/enterprise-base-info'),
      }),
      async (req) => ok(await account.clientInfo(sessionOf(req).account)),
    );

    app.post(
      '/admin/info/save',
      route({
        tag: TAG,
        summary: '修改个人信息',
        access: 'session',
        body: request(ctx, 'forms/user-info'),
        response: okEmpty,
      }),
      async (req) => {
        await account.saveUserInfo(sessionOf(req).account, req.body);
        return ok(undefined, ACCOUNT_MESSAGES.saved);
      },
    );

    app.post(
      '/password/save',
      route({
        tag: TAG,
        summary: '修改密码（代理商提交 SHA-256 摘要，子账户提交明文并按 forms/password-change 校验）',
        access: 'session',
        body: request(ctx, 'params/password-save'),
        response: okEmpty,
      }),
      async (req, reply) => {
        const s = sessionOf(req);
        await account.changePassword(s.account, s.sessionId, req.body);
        if (req.cookies[REMEMBER_COOKIE]) reply.clearCookie(REMEMBER_COOKIE, { path: '/' });
        return ok(undefined, ACCOUNT_MESSAGES.passwordChanged);
      },
    );

    app.get(
      '/admin/cer/info',
      route({
        tag: TAG,
        summary: '本账户的认证资料',
        access: 'session',
        response: okOf(ctx, 'entities/certification-info'),
      }),
      async (req) => ok(await account.certificationInfo(sessionOf(req).account)),
    );

    for (const [path, summary] of [
      ['/admin/cer/add', '提交认证资料'],
      ['/admin/cer/edit', '修改认证资料（重新提交）'],
    ] as const) {
      app.post(
        path,
        route({ tag: TAG, summary, access: 'session', body: certification, response: certState }),
        async (req) => {
          const state = await account.submitCertification(sessionOf(req).account, req.body);
          return ok({ oauth_status: state }, state === OauthStatus.Certified ? '认证已通过' : CERT_MESSAGES.submitted);
        },
      );
    }

    app.post(
      '/client/cer/edit',
      route({
        tag: TAG,
        summary: '代理商为名下子账户提交（重新提交）认证资料（clientId 在查询参数中；表单同本账户的认证）',
        access: 'agent',
        querystring: request(ctx, 'params/client-cer-info'),
        body: certification,
        response: certState,
      }),
      async (req) => {
        const state = await account.submitClientCertification(
          sessionOf(req).account,
          req.query.clientId ?? req.query.clientid,
          req.body,
        );
        return ok({ oauth_status: state }, state === OauthStatus.Certified ? '认证已通过' : CERT_MESSAGES.submitted);
      },
    );

    app.get(
      '/client/cer/info',
      route({
        tag: TAG,
        summary: '认证资料：本账户，或代理商名下的子账户（clientId）',
        access: 'session',
        querystring: request(ctx, 'params/client-cer-info'),
        response: okOf(ctx, 'entities/certification-info'),
      }),
      async (req) =>
        ok(await account.clientCertificationInfo(sessionOf(req).account, req.query.clientId ?? req.query.clientid)),
    );
  };
}
