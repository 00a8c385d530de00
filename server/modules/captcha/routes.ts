import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { validateForm } from '../../http/validation';
import { ok } from '../../http/reply';
import type { CaptchaService, TrackPoint } from './service';

export const CAPTCHA_COOKIE = 'cid';

interface SliderVerifyForm {
  server: string;
  width: number;
  track: TrackPoint[];
}

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
    app.get('/captcha/slider', async () => ok({ server: await captcha.sliderChallenge() }));

    app.post('/captcha/slider/verify', async (req) => {
      const f = validateForm<SliderVerifyForm>(ctx.schemas, 'forms/slider-verify', normaliseTrack(req.body));
      return ok({ token: await captcha.sliderVerify(f.server, f.width, f.track) }, '验证通过');
    });

    app.get('/captcha.jpg', async (_req, reply) => {
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
