import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { api, okOf } from '../../http/contract';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { sessionOf } from '../../http/session';
import { oauthStatusForApi, type ProfileService } from './service';
import { OauthStatus } from '../../../common/generated/schemas';

const TAG = '账户';

export function profileRoutes(ctx: AppContext, profile: ProfileService): FastifyPluginAsync {
  const oauth = okOf(ctx, 'responses/oauth-state');
  return async (plugin) => {
    const app = api(plugin);
    app.get(
      '/admin/info',
      route({ tag: TAG, summary: '当前用户信息', access: 'session', response: okOf(ctx, 'entities/current-user') }),
      async (req) => ok(await profile.currentUser(sessionOf(req).account)),
    );

    app.get(
      '/admin/baseinfo',
      route({
        tag: TAG,
        summary: '代理商基本信息与认证状态',
        access: 'session',
        response: okOf(ctx, 'entities/agent-base-info'),
      }),
      async (req) => ok(profile.baseInfo(sessionOf(req).account)),
    );

    app.get(
      '/client/oauth',
      route({ tag: TAG, summary: '当前账户认证状态', access: 'session', response: oauth }),
      async (req) => {
        const a = sessionOf(req).account;
        // a rejection carries its reason (the layout's banner shows it)
        return ok({
          oauth_status: oauthStatusForApi(a.oauth_status),
          ...(a.oauth_status === OauthStatus.Rejected ? { oauth_remark: a.oauth_remark } : {}),
        });
      },
    );
  };
}
