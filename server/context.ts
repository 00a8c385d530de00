import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config';
import type { Db } from './db';
import type { HostResolver } from './lib/safe-url';
import type { Clock } from './lib/time';
import type { ServerSchemas } from './schemas';
import type { Mailer } from './modules/verification/mail';
import type { SmsChannel } from './modules/verification/sms';
import type { SensitiveWords } from './modules/content/sensitive-words';
import type { ImageCaptchaGenerator } from './modules/captcha/service';

/**
 * The services the modules publish for each other (`app.services`): each module adds its own with
 * `declare module '../../context' { interface Services { x: XService } }` in its index.ts.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Services {}

/** Settings of buildApp that modules read (timers, test hooks). */
export interface ModuleOptions {
  /** purge expired rows every this many ms (0: never) */
  purgeEveryMs: number;
  /** send the recorded credit-alarm crossings every this many ms (0: never) */
  alarmEveryMs: number;
  /** purge unfinished uploads every this many ms (0: never) */
  uploadPurgeEveryMs: number;
  /** fold the report deltas into report_daily every this many ms (0: never) */
  reportFoldEveryMs: number;
  /** replaces the image captcha generator (tests record the answer) */
  imageCaptcha?: ImageCaptchaGenerator;
  /** free bytes of the data directory's file system (default: statfs; tests inject a small disk) */
  diskFree?: (dir: string) => Promise<number>;
}

/** What every module's service needs: built once per app by buildApp. */
export interface AppContext {
  db: Db;
  config: AppConfig;
  now: Clock;
  schemas: ServerSchemas;
  dataDir: string;
  log: FastifyBaseLogger;
  sms: SmsChannel;
  mailer: Mailer;
  /** the one sensitive-word matcher (content test, templates, sending) */
  words: SensitiveWords;
  /** resolves callback URL hosts (lib/safe-url); tests inject one */
  resolveHost: HostResolver;
  /** buildApp's settings for the modules' timers */
  options: ModuleOptions;
}
