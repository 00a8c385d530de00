import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { api, okEmpty, okOf, request } from '../../http/contract';
import { ipRateLimit } from '../../http/rate-limit';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import type { ProfileService } from '../profile';
import { LOGIN_MESSAGES, type AuthService } from './service';
import type { SessionService } from '../../http/session';

const TAG = '会话与登录';

export function authRoutes(ctx: AppContext, deps: { auth: AuthService; sessions: SessionService; profile: ProfileService }): FastifyPluginAsync {
  const { auth, sessions, profile } = deps;
  return async (plugin) => {
    const app = api(plugin);
    // the console asks this before every protected route: one indexed read
    app.get('/login/timeout', route({ tag: TAG, summary: '会话检查：data 为 true 表示已登录', access: 'public', response: okOf(ctx, { type: 'boolean' }) }), async (req, reply) =>
      ok(await sessions.isValid(req, reply)),
    );

    app.post(
      '/login',
      route({
        tag: TAG,
        summary: '登录（密码为 SHA-256 十六进制摘要，需先通过滑块验证）',
        access: 'public',
        body: request(ctx, 'forms/login'),
        response: okOf(ctx, 'entities/current-user'),
        with: ipRateLimit(ctx.config),
      }),
      async (req, reply) => {
        const form = req.body;
        const account = await auth.authenticate(form, req.ip);
        await sessions.open(req, reply, account, form.remember === true);
        req.log.info({ clientid: account.clientid }, 'login');
        return ok(await profile.currentUser(account), LOGIN_MESSAGES.ok);
      },
    );

    app.post('/logout', route({ tag: TAG, summary: '退出登录', access: 'public', response: okEmpty }), async (req, reply) => {
      await sessions.revokeCurrent(req, reply);
      return ok(undefined, '已退出登录');
    });
  };
}
