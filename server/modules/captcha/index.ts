/** 滑块与图形验证码: the slider challenge and its single-use tokens, the image captcha of 找回密码. */
import { defineModule } from '../module';
import { captchaRoutes } from './routes';
import { CaptchaService } from './service';

export {
  CaptchaService,
  SLIDER_MESSAGES,
  isHumanTrack,
  TRACK_RULES,
  trekCaptcha,
  type ImageCaptchaGenerator,
  type TrackPoint,
} from './service';
export { CAPTCHA_COOKIE } from './routes';

declare module '../../context' {
  interface Services {
    captcha: CaptchaService;
  }
}

export default defineModule({ name: 'captcha' }, async (app, ctx) => {
  const captcha = (app.services.captcha = new CaptchaService(ctx, ctx.options.imageCaptcha));
  await app.register(captchaRoutes(ctx, captcha));
});
