import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { ipRateLimit } from '../../http/rate-limit';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { formSchema } from '../../http/validation';
import { sessionOf, type SessionService } from '../auth/session';
import { REGISTER_MESSAGES, type RegisterForm, type RegisterService, type SendCodeForm } from './service';

const TAG = '注册';

export function registerRoutes(ctx: AppContext, deps: { register: RegisterService; sessions: SessionService }): FastifyPluginAsync {
  const { register, sessions } = deps;
  const limit = ipRateLimit(ctx.config);
  const sendCode = formSchema(ctx.schemas, 'forms/send-code');
  return async (app) => {
    app.post<{ Body: SendCodeForm }>(
      '/userCenter/sendCode',
      route({ tag: TAG, summary: '发送注册手机验证码', access: 'public', body: sendCode, with: limit }),
      async (req) => {
        await register.sendRegisterCode(req.body, req.ip);
        return ok(undefined, REGISTER_MESSAGES.sent);
      },
    );

    app.post<{ Body: RegisterForm }>(
      '/userCenter/agentRegister',
      route({ tag: TAG, summary: '代理商注册', access: 'public', body: formSchema(ctx.schemas, 'forms/register'), with: limit }),
      async (req, reply) => {
        const account = await register.register(req.body);
        req.log.info({ clientid: account.clientid }, 'agent registered');
        const autoLogin = ctx.config.registerAutoLogin;
        if (autoLogin) await sessions.open(req, reply, account, false);
        return ok({ clientid: account.clientid, autoLogin }, REGISTER_MESSAGES.ok);
      },
    );

    app.post<{ Body: SendCodeForm }>(
      '/userCenter/sendNoPicCode',
      route({ tag: '账户', summary: '发送更换手机号验证码', access: 'session', body: sendCode, with: limit }),
      async (req) => {
        await register.sendMobileChangeCode(req.body, sessionOf(req).account.id, req.ip);
        return ok(undefined, REGISTER_MESSAGES.sent);
      },
    );
  };
}
