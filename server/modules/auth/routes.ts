import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { ipRateLimit } from '../../http/rate-limit';
import { ok } from '../../http/reply';
import { validateForm } from '../../http/validation';
import type { ProfileService } from '../profile/service';
import { LOGIN_MESSAGES, type AuthService, type LoginForm } from './service';
import type { SessionService } from './session';

export function authRoutes(
  ctx: AppContext,
  deps: { auth: AuthService; sessions: SessionService; profile: ProfileService },
): FastifyPluginAsync {
  const { auth, sessions, profile } = deps;
  return async (app) => {
    // the console asks this before every protected route: one indexed read
    app.get('/login/timeout', async (req, reply) => ok(await sessions.isValid(req, reply)));

    app.post('/login', ipRateLimit(ctx.config), async (req, reply) => {
      const form = validateForm<LoginForm>(ctx.schemas, 'forms/login', req.body);
      const account = await auth.authenticate(form, req.ip);
      await sessions.open(req, reply, account, form.remember === true);
      req.log.info({ clientid: account.clientid }, 'login');
      return ok(await profile.currentUser(account), LOGIN_MESSAGES.ok);
    });

    app.post('/logout', async (req, reply) => {
      await sessions.revokeCurrent(req, reply);
      return ok(undefined, '已退出登录');
    });
  };
}
