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
  failed: '请按住滑块，拖到最右边',
  expired: '验证已失效，请重新拖动滑块',
  required: '请先完成滑块验证',
} as const;

/** One sample of the drag: [x px, ms since the start] or [x, ms, y px] (pointer drags carry y). */
export type TrackPoint = [number, number] | [number, number, number];

/** Rules a drag track must satisfy (documented in docs/api-auth.md). */
export const TRACK_RULES = {
  /** a person's drag gives a pointer event every frame: a 300 px drag has dozens */
  minPoints: 10,
  /** faster than this is a script */
  minDurationMs: 400,
  maxDurationMs: 120_000,
  /** the last point must be within this many px (or 3 % of the width, whichever is larger) of the end */
  endTolerancePx: 3,
  /** the first point must lie in the first 10 % of the width */
  startFraction: 0.1,
  /** at most this share of the steps may go backwards */
  maxBackwardShare: 0.2,
  /** no single step may cover more than this share of the width */
  maxStepShare: 0.5,
  /** constant speed: the spread of the step speeds (standard deviation / mean) must be at least this */
  minSpeedVariation: 0.2,
  /** a straight line x(t): somewhere the drag must be this share of the width off the line from start to end */
  minLineDeviation: 0.02,
  /** pointer tracks (with y) must move vertically by at least this many px somewhere */
  minVerticalJitterPx: 1,
};

/**
 * Does this drag look like a person pulling the handle to the right end? Besides the shape (starts
 * at the left, ends at the right, time only goes forward, no jumps, little going back) it refuses
 * the tracks a script makes without trying: too few points, too fast, constant speed, x growing
 * in a straight line with time, and (when the track has y) a hand that never moved vertically.
 * Keyboard users' glides carry no y and are eased, so they pass. This is a speed bump for scripts,
 * not a wall: the lockout policy (auth/service.ts) does not rely on it.
 */
export function isHumanTrack(width: number, track: TrackPoint[]): boolean {
  const r = TRACK_RULES;
  if (!(width > 0) || track.length < r.minPoints) return false;
  if (!track.every((p) => p.every((v) => Number.isFinite(v)))) return false;
  const first = track[0];
  const last = track[track.length - 1];
  const duration = last[1] - first[1];
  if (duration < r.minDurationMs || duration > r.maxDurationMs) return false;
  if (first[0] < -r.endTolerancePx || first[0] > width * r.startFraction) return false;
  const tolerance = Math.max(r.endTolerancePx, width * 0.03);
  if (last[0] < width - tolerance || last[0] > width + tolerance) return false;
  let backward = 0;
  const speeds: number[] = [];
  for (let i = 1; i < track.length; i++) {
    const dx = track[i][0] - track[i - 1][0];
    const dt = track[i][1] - track[i - 1][1];
    if (dt < 0) return false; // time never runs backwards
    if (dx < 0) backward++;
    if (Math.abs(dx) > width * r.maxStepShare) return false;
    if (dt > 0) speeds.push(dx / dt);
  }
  if (backward > (track.length - 1) * r.maxBackwardShare) return false;
  // constant speed
  if (speeds.length < 2) return false;
  const mean = speeds.reduce((a, b) => a + b, 0) / speeds.length;
  const sd = Math.sqrt(speeds.reduce((a, v) => a + (v - mean) ** 2, 0) / speeds.length);
  if (!(Math.abs(mean) > 0) || sd / Math.abs(mean) < r.minSpeedVariation) return false;
  // perfectly linear in time
  let deviation = 0;
  for (const [x, t] of track) {
    const onLine = first[0] + ((last[0] - first[0]) * (t - first[1])) / duration;
    deviation = Math.max(deviation, Math.abs(x - onLine));
  }
  if (deviation < width * r.minLineDeviation) return false;
  // no vertical jitter (tracks with y: every point must carry it)
  const withY = track.filter((p) => p.length === 3).length;
  if (withY > 0) {
    if (withY !== track.length) return false;
    const ys = track.map((p) => p[2]!);
    if (Math.max(...ys) - Math.min(...ys) < r.minVerticalJitterPx) return false;
  }
  return true;
}

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
