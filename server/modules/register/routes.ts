import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { api, okEmpty, okOf, request } from '../../http/contract';
import { ipRateLimit } from '../../http/rate-limit';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { sessionOf, type SessionService } from '../../http/session';
import { REGISTER_MESSAGES, type RegisterService } from './service';

const TAG = '注册';

export function registerRoutes(
  ctx: AppContext,
  deps: { register: RegisterService; sessions: SessionService },
): FastifyPluginAsync {
  const { register, sessions } = deps;
  const limit = ipRateLimit(ctx.config);
  const sendCode = request(ctx, 'forms/send-code');
  const registered = okOf(ctx, 'responses/registered');
  return async (plugin) => {
    const app = api(plugin);
    app.post(
      '/userCenter/sendCode',
      route({
        tag: TAG,
        summary: '发送注册手机验证码',
        access: 'public',
        body: sendCode,
        response: okEmpty,
        with: limit,
      }),
      async (req) => {
        await register.sendRegisterCode(req.body, req.ip);
        return ok(undefined, REGISTER_MESSAGES.sent);
      },
    );

    app.post(
      '/userCenter/agentRegister',
      route({
        tag: TAG,
        summary: '代理商注册',
        access: 'public',
        body: request(ctx, 'forms/register'),
        response: registered,
        with: limit,
      }),
      async (req, reply) => {
        const account = await register.register(req.body);
        req.log.info({ clientid: account.clientid }, 'agent registered');
        const autoLogin = ctx.config.registerAutoLogin;
        if (autoLogin) await sessions.open(req, reply, account, false);
        return ok({ clientid: account.clientid, autoLogin }, REGISTER_MESSAGES.ok);
      },
    );

    app.post(
      '/userCenter/sendNoPicCode',
      route({
        tag: '账户',
        summary: '发送更换手机号验证码',
        access: 'session',
        body: sendCode,
        response: okEmpty,
        with: limit,
      }),
      async (req) => {
        await register.sendMobileChangeCode(req.body, sessionOf(req).account.id, req.ip);
        return ok(undefined, REGISTER_MESSAGES.sent);
      },
    );
  };
}
