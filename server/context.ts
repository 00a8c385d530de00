import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config';
import type { Db } from './db';
import type { HostResolver } from './lib/safe-url';
import type { Clock } from './lib/time';
import type { ServerSchemas } from './schemas';
import type { Mailer } from './modules/verification/mail';
import type { SmsChannel } from './modules/verification/sms';
import type { SensitiveWords } from './modules/content/sensitive-words';

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
}
