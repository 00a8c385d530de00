/** Settings of the API server, with their defaults; `configFromEnv` reads the environment. */
import path from 'node:path';

export interface AppConfig {
  /** open a session right after registration (the console then shows the certification view) */
  registerAutoLogin: boolean;
  /** smtp(s)://user:pass@host:port ; empty: mails are written to DATA_DIR/outbox/mail */
  smtpUrl: string;
  smtpFrom: string;
  /** idle lifetime of a session (sliding) */
  sessionIdleMs: number;
  /** how long GET /login/timeout may answer from its in-process cache of valid sessions (0: always ask the database) */
  sessionCheckCacheMs: number;
  /** lifetime of a remember-me token (fixed) */
  rememberMs: number;
  /** failed logins before the account is locked, and for how long */
  maxFailedLogins: number;
  lockMs: number;
  /** verification codes */
  codeTtlMs: number;
  codeMaxAttempts: number;
  codeCooldownMs: number;
  codeDailyPerTarget: number;
  codeDailyPerIp: number;
  /** slider challenge and token lifetime; image captcha lifetime */
  sliderTtlMs: number;
  imageCaptchaTtlMs: number;
  /** per-IP request limits (@fastify/rate-limit) on the code and login endpoints, per minute */
  ipRateLimitPerMinute: number;
  /** name shown in SMS and e-mail texts */
  platformName: string;
  /** mark cookies Secure (behind HTTPS) */
  secureCookies: boolean;
  /** the sensitive-word list (one word a line; reloaded when it changes) */
  sensitiveWordsFile: string;
  /** folder of the downloadable help documents; '' = `${dataDir}/docs` */
  docsDir: string;
  /** demo: new signs are approved at once (env AUTO_REVIEW=1) */
  autoReview: boolean;
  /** most rows a sign export may hold (spec: 5,000,000) */
  signExportMax: number;
}

export const DEFAULT_CONFIG: AppConfig = {
  registerAutoLogin: true,
  smtpUrl: '',
  smtpFrom: '云讯通短信平台 <no-reply@smsp.local>',
  sessionIdleMs: 2 * 3600_000,
  sessionCheckCacheMs: 0,
  rememberMs: 7 * 86_400_000,
  maxFailedLogins: 5,
  lockMs: 15 * 60_000,
  codeTtlMs: 5 * 60_000,
  codeMaxAttempts: 5,
  codeCooldownMs: 60_000,
  codeDailyPerTarget: 10,
  codeDailyPerIp: 20,
  sliderTtlMs: 2 * 60_000,
  imageCaptchaTtlMs: 5 * 60_000,
  ipRateLimitPerMinute: 30,
  platformName: '云讯通',
  secureCookies: false,
  sensitiveWordsFile: path.resolve(import.meta.dirname, 'config/sensitive-words.txt'),
  docsDir: '',
  autoReview: false,
  signExportMax: 5_000_000,
};

function bool(v: string | undefined, dflt: boolean): boolean {
  if (v === undefined || v === '') return dflt;
  return !['0', 'false', 'no', 'off'].includes(v.toLowerCase());
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Partial<AppConfig> {
  const out: Partial<AppConfig> = {};
  // the running server answers session checks from a 2-second cache (0 turns it off)
  out.sessionCheckCacheMs = env.SESSION_CHECK_CACHE_MS !== undefined ? Math.max(0, Number(env.SESSION_CHECK_CACHE_MS) || 0) : 2000;
  if (env.SMTP_URL) out.smtpUrl = env.SMTP_URL;
  if (env.SMTP_FROM) out.smtpFrom = env.SMTP_FROM;
  out.registerAutoLogin = bool(env.REGISTER_AUTO_LOGIN, DEFAULT_CONFIG.registerAutoLogin);
  out.secureCookies = bool(env.SECURE_COOKIES, false);
  if (env.SENSITIVE_WORDS_FILE) out.sensitiveWordsFile = path.resolve(env.SENSITIVE_WORDS_FILE);
  if (env.DOCS_DIR) out.docsDir = path.resolve(env.DOCS_DIR);
  out.autoReview = bool(env.AUTO_REVIEW, false);
  return out;
}
