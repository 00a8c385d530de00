/**
 * Captchas, checked on the server:
 * - slider: GET /captcha/slider issues a challenge id (`server`); the console posts the drag track;
 *   a human-looking track earns a token. Both are single-use and live 2 minutes; login needs the
 *   pair (server, token).
 * - image (/captcha.jpg): a GIF whose answer is kept hashed against the `cid` cookie, single use,
 *   5 minutes.
 */
import captcha from 'trek-captcha';
import type { AppContext } from '../../context';
import { ApiError } from '../../http/errors';
import { randomToken, sha256hex } from '../../lib/crypto';
import { addMs } from '../../lib/time';

export const SLIDER_MESSAGES = {
  failed: MESSAGES.sliderPrompt,
  expired: '验证已失效，请重新拖动滑块',
  required: MESSAGES.sliderRequired,
} as const;

export { isHumanTrack, TRACK_RULES, type TrackPoint } from './track';
import { isHumanTrack, type TrackPoint } from './track';
import { MESSAGES } from '../../../common/schema/messages';

/** Makes a captcha picture and its answer (default: trek-captcha, 4 letters, GIF). */
export type ImageCaptchaGenerator = () => Promise<{ answer: string; image: Buffer }>;

export const trekCaptcha: ImageCaptchaGenerator = async () => {
  const { token, buffer } = await captcha({ size: 4 });
  return { answer: token, image: buffer };
};

export class CaptchaService {
  constructor(
    private readonly ctx: AppContext,
    private readonly generateImage: ImageCaptchaGenerator = trekCaptcha,
  ) {}

  private async store(kind: string, key: string, ref: string, ttlMs: number) {
    const now = this.ctx.now();
    await this.ctx.db
      .insertInto('captcha_challenges')
      .values({ kind, key_hash: sha256hex(key), ref, expires_at: addMs(now, ttlMs), created_at: now })
      .execute();
  }

  /** Marks the live challenge (kind, key) used and returns its ref; undefined if none. */
  private async take(kind: string, key: string): Promise<string | undefined> {
    const row = await this.ctx.db
      .updateTable('captcha_challenges')
      .set({ used_at: this.ctx.now() })
      .where('kind', '=', kind)
      .where('key_hash', '=', sha256hex(key))
      .where('used_at', 'is', null)
      .where('expires_at', '>', this.ctx.now())
      .returning('ref')
      .executeTakeFirst();
    return row?.ref;
  }

  async sliderChallenge(): Promise<string> {
    const server = randomToken(16);
    await this.store('slider', server, '', this.ctx.config.sliderTtlMs);
    return server;
  }

  /** Uses up the challenge; a human-looking track earns a single-use token. */
  async sliderVerify(server: string, width: number, track: TrackPoint[]): Promise<string> {
    if ((await this.take('slider', server)) === undefined) throw new ApiError(400, SLIDER_MESSAGES.expired);
    if (!isHumanTrack(width, track)) throw new ApiError(400, SLIDER_MESSAGES.failed);
    const token = randomToken(24);
    await this.store('slider-token', token, sha256hex(server), this.ctx.config.sliderTtlMs);
    return token;
  }

  /** Uses up a slider token issued for challenge `server`; false when missing, used, expired or mismatched. */
  async consumeSliderToken(server: string | undefined, token: string | undefined): Promise<boolean> {
    if (!server || !token) return false;
    const ref = await this.take('slider-token', token);
    return ref !== undefined && ref === sha256hex(server);
  }

  async imageChallenge(): Promise<{ cid: string; image: Buffer }> {
    const { answer, image } = await this.generateImage();
    const cid = randomToken(16);
    await this.store('image', cid, sha256hex(answer.toLowerCase()), this.ctx.config.imageCaptchaTtlMs);
    return { cid, image };
  }

  /** Uses up the image challenge of `cid` whatever the answer; true when the answer matches. */
  async checkImage(cid: string | undefined, answer: string): Promise<boolean> {
    if (!cid) return false;
    const ref = await this.take('image', cid);
    return ref !== undefined && ref === sha256hex(answer.trim().toLowerCase());
  }
}
