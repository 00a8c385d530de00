import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { formSchema } from '../../http/validation';
import type { CaptchaService, TrackPoint } from './service';
import { MESSAGES } from '../../../common/schema/messages';

export const CAPTCHA_COOKIE = 'cid';

interface SliderVerifyForm {
  server: string;
  width: number;
  track: TrackPoint[];
}

const TAG = '会话与登录';

/** A form post may carry the track as JSON or as flat "x,ms,x,ms,…". */
function normaliseTrack(body: any) {
  if (body && typeof body.track === 'string' && !body.track.trim().startsWith('[')) {
    const n = body.track.split(',').map(Number);
    const pairs: number[][] = [];
    for (let i = 0; i + 1 < n.length; i += 2) pairs.push([n[i], n[i + 1]]);
    return { ...body, track: pairs };
  }
  return body;
}

export function captchaRoutes(ctx: AppContext, captcha: CaptchaService): FastifyPluginAsync {
  return async (app) => {
    app.get('/captcha/slider', route({ tag: TAG, summary: '获取滑块验证挑战', access: 'public' }), async () => ok({ server: await captcha.sliderChallenge() }));

    app.post<{ Body: SliderVerifyForm }>(
      '/captcha/slider/verify',
      route({
        tag: TAG,
        summary: '校验滑块轨迹，返回一次性令牌',
        access: 'public',
        body: formSchema(ctx.schemas, 'forms/slider-verify'),
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

    app.get('/captcha.jpg', route({ tag: TAG, summary: '图形验证码（找回密码用）', access: 'public' }), async (_req, reply) => {
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
    });
  };
}
