import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { api, fileReply, okOf, request } from '../../http/contract';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import type { CaptchaService } from './service';
import { MESSAGES } from '../../../common/schema/messages';

export const CAPTCHA_COOKIE = 'cid';

const TAG = '会话与登录';

/** A form post may carry the track as JSON or as flat "x,ms,x,ms,…" (before the schema runs). */
function normaliseTrack(body: unknown): unknown {
  if (
    body &&
    typeof body === 'object' &&
    'track' in body &&
    typeof body.track === 'string' &&
    !body.track.trim().startsWith('[')
  ) {
    const n = body.track.split(',').map(Number);
    const pairs: number[][] = [];
    for (let i = 0; i + 1 < n.length; i += 2) pairs.push([n[i], n[i + 1]]);
    return { ...body, track: pairs };
  }
  return body;
}

export function captchaRoutes(ctx: AppContext, captcha: CaptchaService): FastifyPluginAsync {
  const challenge = okOf(ctx, 'responses/slider-challenge');
  const token = okOf(ctx, 'responses/slider-token');
  return async (plugin) => {
    const app = api(plugin);
    app.get(
      '/captcha/slider',
      route({ tag: TAG, summary: '获取滑块验证挑战', access: 'public', response: challenge }),
      async () => ok({ server: await captcha.sliderChallenge() }),
    );

    app.post(
      '/captcha/slider/verify',
      route({
        tag: TAG,
        summary: '校验滑块轨迹，返回一次性令牌',
        access: 'public',
        body: request(ctx, 'forms/slider-verify'),
        response: token,
        with: {
          preValidation: async (req) => {
            req.body = normaliseTrack(req.body);
          },
        },
      }),
      async (req) => {
        const f = req.body;
        return ok({ token: await captcha.sliderVerify(f.server, f.width, f.track) }, MESSAGES.sliderPassed);
      },
    );

    app.get(
      '/captcha.jpg',
      route({
        tag: TAG,
        summary: '图形验证码（找回密码用）',
        access: 'public',
        response: fileReply('image/gif', '验证码图片'),
      }),
      async (_req, reply) => {
        const { cid, image } = await captcha.imageChallenge();
        reply
          .setCookie(CAPTCHA_COOKIE, cid, {
            path: '/',
            httpOnly: true,
            sameSite: 'lax',
            secure: ctx.config.secureCookies,
            maxAge: Math.floor(ctx.config.imageCaptchaTtlMs / 1000),
          })
          .header('cache-control', 'no-store')
          .type('image/gif');
        return reply.send(image);
      },
    );
  };
}
