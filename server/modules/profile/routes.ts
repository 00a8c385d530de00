import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/reply';
import { sessionOf, type SessionService } from '../auth/session';
import { oauthStatusForApi, type ProfileService } from './service';
import { OauthStatus } from '../../../common/generated/schemas';

export function profileRoutes(sessions: SessionService, profile: ProfileService): FastifyPluginAsync {
  return async (app) => {
    const auth = { preHandler: sessions.requireSession() };

    app.get('/admin/info', auth, async (req) => ok(await profile.currentUser(sessionOf(req).account)));

    app.get('/admin/baseinfo', auth, async (req) => ok(profile.baseInfo(sessionOf(req).account)));

    app.get('/client/oauth', auth, async (req) => {
      const a = sessionOf(req).account;
      // a rejection carries its reason (the layout's banner shows it)
      return ok({ oauth_status: oauthStatusForApi(a.oauth_status), ...(a.oauth_status === OauthStatus.Rejected ? { oauth_remark: a.oauth_remark } : {}) });
    });
  };
}
