import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { sessionOf } from '../auth/session';
import { oauthStatusForApi, type ProfileService } from './service';
import { OauthStatus } from '../../../common/generated/schemas';

const TAG = '账户';

export function profileRoutes(profile: ProfileService): FastifyPluginAsync {
  return async (app) => {
    app.get('/admin/info', route({ tag: TAG, summary: '当前用户信息', access: 'session' }), async (req) => ok(await profile.currentUser(sessionOf(req).account)));

    app.get('/admin/baseinfo', route({ tag: TAG, summary: '代理商基本信息与认证状态', access: 'session' }), async (req) => ok(profile.baseInfo(sessionOf(req).account)));

    app.get('/client/oauth', route({ tag: TAG, summary: '当前账户认证状态', access: 'session' }), async (req) => {
      const a = sessionOf(req).account;
      // a rejection carries its reason (the layout's banner shows it)
      return ok({ oauth_status: oauthStatusForApi(a.oauth_status), ...(a.oauth_status === OauthStatus.Rejected ? { oauth_remark: a.oauth_remark } : {}) });
    });
  };
}
