import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { ipRateLimit } from '../../http/rate-limit';
import { ok } from '../../http/reply';
import { validateForm } from '../../http/validation';
import { CAPTCHA_COOKIE } from '../captcha/routes';
import { PASSWORD_MESSAGES, type PasswordCodeForm, type PasswordResetForm, type PasswordService } from './service';

export function passwordRoutes(ctx: AppContext, password: PasswordService): FastifyPluginAsync {
  return async (app) => {
    app.post('/password/email', ipRateLimit(ctx.config), async (req, reply) => {
      const form = validateForm<PasswordCodeForm>(ctx.schemas, 'forms/password-code', req.body);
      const cid = req.cookies[CAPTCHA_COOKIE];
      // the image answer is single-use: the cookie goes with it
      if (cid) reply.clearCookie(CAPTCHA_COOKIE, { path: '/' });
      await password.sendCode(form, cid, req.ip);
      return ok(undefined, PASSWORD_MESSAGES.sent);
    });

    app.post('/password/change', ipRateLimit(ctx.config), async (req) => {
      const form = validateForm<PasswordResetForm>(ctx.schemas, 'forms/password-reset', req.body);
      await password.reset(form);
      return ok(undefined, PASSWORD_MESSAGES.changed);
    });
  };
}
