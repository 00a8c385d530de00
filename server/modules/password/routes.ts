import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { api, okEmpty, request } from '../../http/contract';
import { ipRateLimit } from '../../http/rate-limit';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { CAPTCHA_COOKIE } from '../captcha';
import { PASSWORD_MESSAGES, type PasswordService } from './service';

const TAG = '找回密码';

export function passwordRoutes(ctx: AppContext, password: PasswordService): FastifyPluginAsync {
  const limit = ipRateLimit(ctx.config);
  return async (plugin) => {
    const app = api(plugin);
    app.post(
      '/password/email',
      route({
        tag: TAG,
        summary: '发送找回密码验证码（邮箱或手机）',
        access: 'public',
        body: request(ctx, 'forms/password-code'),
        response: okEmpty,
        with: limit,
      }),
      async (req, reply) => {
        const cid = req.cookies[CAPTCHA_COOKIE];
        // the image answer is single-use: the cookie goes with it
        if (cid) reply.clearCookie(CAPTCHA_COOKIE, { path: '/' });
        await password.sendCode(req.body, cid, req.ip);
        return ok(undefined, PASSWORD_MESSAGES.sent);
      },
    );

    app.post(
      '/password/change',
      route({
        tag: TAG,
        summary: '以验证码重设密码',
        access: 'public',
        body: request(ctx, 'forms/password-reset'),
        response: okEmpty,
        with: limit,
      }),
      async (req) => {
        await password.reset(req.body);
        return ok(undefined, PASSWORD_MESSAGES.changed);
      },
    );
  };
}
