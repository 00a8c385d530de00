import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { ipRateLimit } from '../../http/rate-limit';
import { ok } from '../../http/reply';
import { validateForm } from '../../http/validation';
import { sessionOf, type SessionService } from '../auth/session';
import { REGISTER_MESSAGES, type RegisterForm, type RegisterService, type SendCodeForm } from './service';

export function registerRoutes(ctx: AppContext, deps: { register: RegisterService; sessions: SessionService }): FastifyPluginAsync {
  const { register, sessions } = deps;
  return async (app) => {
    app.post('/userCenter/sendCode', ipRateLimit(ctx.config), async (req) => {
      const form = validateForm<SendCodeForm>(ctx.schemas, 'forms/send-code', req.body);
      await register.sendRegisterCode(form, req.ip);
      return ok(undefined, REGISTER_MESSAGES.sent);
    });

    app.post('/userCenter/agentRegister', ipRateLimit(ctx.config), async (req, reply) => {
      const form = validateForm<RegisterForm>(ctx.schemas, 'forms/register', req.body);
      const account = await register.register(form);
      req.log.info({ clientid: account.clientid }, 'agent registered');
      const autoLogin = ctx.config.registerAutoLogin;
      if (autoLogin) await sessions.open(req, reply, account, false);
      return ok({ clientid: account.clientid, autoLogin }, REGISTER_MESSAGES.ok);
    });

    app.post('/userCenter/sendNoPicCode', { ...ipRateLimit(ctx.config), preHandler: sessions.requireSession() }, async (req) => {
      const form = validateForm<SendCodeForm>(ctx.schemas, 'forms/send-code', req.body);
      await register.sendMobileChangeCode(form, sessionOf(req).account.id, req.ip);
      return ok(undefined, REGISTER_MESSAGES.sent);
    });
  };
}
