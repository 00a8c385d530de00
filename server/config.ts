/** Settings of the API server, with their defaults; `configFromEnv` reads the environment. */
import path from 'node:path';
import { parseSmppUrl } from './modules/smsc/config';
import { DEFAULT_PAY_CONFIG, payConfigFromEnv, type PayConfig } from './modules/pay/config';

export interface AppConfig {
  /** check every successful answer against its route's response schema (the tests turn it on; server/http/validation.ts) */
  checkResponses: boolean;
  /** open a session right after registration (the console then shows the certification view) */
  registerAutoLogin: boolean;
  /** smtp(s)://user:pass@host:port ; empty: mails are written to DATA_DIR/outbox/mail */
  smtpUrl: string;
  smtpFrom: string;
  /** idle lifetime of a session (sliding) */
  sessionIdleMs: number;
  /** how long GET /login/timeout may answer from its in-process cache of valid sessions (0: always ask the database) */
  sessionCheckCacheMs: number;
  /**
   * how long a route declared `cachedSession` (the lists under load: send records, tasks,
   * sub-accounts) may take its session and account from an in-process cache after a database
   * check (0: always ask the database). Logout and revocations in this process drop the entries at
   * once; a logout, freeze or password change in another API process takes effect on these routes
   * within this bound.
   */
  cachedSessionMs: number;
  /**
   * the most a request may take to arrive, headers and body (a stalled or trickled body is cut off
   * with 408 and the connection closed); checked every `connectionCheckMs`
   */
  requestTimeoutMs: number;
  /** GET /client/account/validate/mobile calls per agent per hour (the open-account form's check; more would be a lookup of whose numbers are accounts) */
  mobileCheckPerHour: number;
  /** pieces one account's waiting timed tasks accepted uncharged (isCheckAvailableCredit 0) may hold together (send/gate.ts) */
  deferredTimedMax: number;
  /** file parses (number, variable, international files) one account may run at a time in a process */
  parsesPerAccount: number;
  connectionCheckMs: number;
  /** lifetime of a remember-me token (fixed) */
  rememberMs: number;
  /**
   * Failed logins per (login name, client address) before that pair is locked, for how long
   * (doubled at every further failure after a lock, up to lockMaxMs), and after how long without
   * failures the count starts again. The account itself is never locked by failures.
   */
  maxFailedLogins: number;
  lockMs: number;
  lockMaxMs: number;
  failureResetMs: number;
  /** a rotated remember-me token presented again within this window (parallel requests) is not a replay */
  rememberReuseGraceMs: number;
  /** verification codes */
  codeTtlMs: number;
  codeMaxAttempts: number;
  codeCooldownMs: number;
  codeDailyPerTarget: number;
  codeDailyPerIp: number;
  /** SMS codes a business day per destination country code ('*': any other country), all purposes together */
  codeDailyPerCountry: Record<string, number>;
  /** SMS codes a business day, all countries together */
  codeDailyGlobal: number;
  /** slider challenge and token lifetime; image captcha lifetime */
  sliderTtlMs: number;
  imageCaptchaTtlMs: number;
  /** per-IP request limits (@fastify/rate-limit) on the code and login endpoints, per minute */
  ipRateLimitPerMinute: number;
  /** name shown in SMS and e-mail texts */
  platformName: string;
  /**
   * Which proxies may set X-Forwarded-For (the client address every per-address limit uses):
   * '' = none (the socket's peer is the client), a hop count ('1'), or a comma-separated list of
   * proxy addresses / CIDRs ('127.0.0.1,10.0.0.0/8').
   */
  trustProxy: string;
  /** the CSRF token key (same value on every instance); '' = a random one kept in DATA_DIR/csrf-secret */
  csrfSecret: string;
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
  /**
   * The carrier's SMSC: smpp(s)://system_id:password@host:port?window=200&connections=1&source=...
   * (server/modules/smsc/config.ts); '' = the embedded SMPP carrier simulator (SMSC_SIM_* settings).
   */
  smppUrl: string;
  /** send records: most rows /send/exportrecords and /send/exportmologs write (spec: 1,000,000) */
  recordExportMax: number;
  /** send records: most numbers /send/exportRecordsTxt streams (spec: 5,000,000) */
  recordTxtExportMax: number;
  /** send records: rows a list counts at most (totalCount stops there, totalCapped says so) */
  recordCountCap: number;
  /** online payment: sandbox, Alipay / WeChat Pay keys, order lifetime (server/modules/pay/config.ts) */
  pay: PayConfig;
  /** unfinished uploads (chunks and row) untouched for this many hours are purged (0: never) */
  uploadStaleHours: number;
  /** per account: bytes of uploaded files (complete and unfinished) and working files together (docs/api-files.md "Storage limits") */
  uploadQuotaMb: number;
  /** per account: unfinished chunked uploads at once */
  uploadPendingMax: number;
  /** complete uploads and working files are removed this long after their upload (or last re-upload check); 0 = kept */
  uploadKeepHours: number;
  /** uploads are refused while the data directory's disk has less free than this (plus the file) */
  uploadMinFreeMb: number;
  /** credit alarm (额度提醒): after an alarm SMS, further crossings of that account send none for this long (ALARM_COOLDOWN_HOURS, 24) */
  alarmCooldownMs: number;
  /** credit alarm: system budget of alarm SMS a business day, all accounts together (ALARM_SMS_DAILY, 1000); past it, alarms are skipped and logged */
  alarmSmsDaily: number;
  /**
   * The signed HTTP API (docs/api-openapi.md "Unsigned bytes"): body bytes of requests whose
   * signature failed, plus those still arriving unverified, one client address may cost in 10
   * minutes (OPENAPI_UNVERIFIED_MB, 64); past it the address is refused before its body is read.
   * Keep it above the send's 16 MB body limit. 0: no budget.
   */
  openapiUnverifiedBytes: number;
  /**
   * The SMPP listener for customers (server/modules/smpp-server, docs/api-smpp.md): its port
   * (SMPP_SERVER_PORT; 0 = off, the default of buildApp; `npm start` listens on 2775 unless told
   * otherwise; -1 = any free port, for tests) and address (SMPP_SERVER_HOST, 0.0.0.0).
   */
  smppServerPort: number;
  smppServerHost: string;
  /**
   * The SMPP listener over TLS (docs/api-smpp.md "TLS"): SMPP_SERVER_TLS_PORT (0 = none, the
   * default; -1 any free port, tests) with the PEM certificate and key files SMPP_SERVER_TLS_CERT /
   * SMPP_SERVER_TLS_KEY (both required when the port is set).
   */
  smppServerTlsPort: number;
  smppServerTlsCert: string;
  smppServerTlsKey: string;
  /**
   * The CMPP 2.0 / 3.0 listener for customers (docs/api-cmpp.md): its port (CMPP_SERVER_PORT; 0 =
   * off, the default of buildApp; `npm start` listens on 7890 unless told otherwise; -1 = any free
   * port, for tests) and address (CMPP_SERVER_HOST, 0.0.0.0).
   */
  cmppServerPort: number;
  cmppServerHost: string;
  /**
   * The key sealing the interface passwords CMPP needs in clear (lib/interface-secret.ts): env
   * INTERFACE_SECRET_KEY (the same on every instance over one database), else one kept in DATA_DIR.
   */
  interfaceSecretKey: string;
  /**
   * The bytes of unfinished long-message parts one account may have waiting for their other parts,
   * every door and process together (LONG_PARTS_MAX_KB, 1024); beyond them a part is refused
   * (SMPP 0x14) and nothing is stored (docs/api-smpp.md "Long messages").
   */
  longPartsMaxBytes: number;
  /**
   * Test accounts (docs/api-subaccounts.md "Test accounts"): days until one expires
   * (TEST_ACCOUNT_DAYS, 7), the platform's gift pieces to each (TEST_ACCOUNT_GIFT, 20), test
   * accounts one agent may create in 30 days (TEST_ACCOUNTS_PER_AGENT, 3) and the platform's
   * budget of gift pieces a business day, all agents together (TEST_GIFT_DAILY, 1000).
   */
  testAccountDays: number;
  testAccountGift: number;
  testAccountsPerAgent: number;
  testGiftDaily: number;
}

export const DEFAULT_CONFIG: AppConfig = {
  checkResponses: false,
  registerAutoLogin: true,
  smtpUrl: '',
  smtpFrom: '云讯通短信平台 <no-reply@smsp.local>',
  sessionIdleMs: 2 * 3600_000,
  sessionCheckCacheMs: 0,
  cachedSessionMs: 0,
  requestTimeoutMs: 120_000,
  mobileCheckPerHour: 60,
  parsesPerAccount: 1,
  deferredTimedMax: 100_000,
  connectionCheckMs: 2_000,
  rememberMs: 7 * 86_400_000,
  maxFailedLogins: 5,
  lockMs: 15 * 60_000,
  lockMaxMs: 24 * 3600_000,
  failureResetMs: 24 * 3600_000,
  rememberReuseGraceMs: 10_000,
  codeTtlMs: 5 * 60_000,
  codeMaxAttempts: 5,
  codeCooldownMs: 60_000,
  codeDailyPerTarget: 10,
  codeDailyPerIp: 20,
  codeDailyPerCountry: { '86': 5000, '*': 200 },
  codeDailyGlobal: 10000,
  sliderTtlMs: 2 * 60_000,
  imageCaptchaTtlMs: 5 * 60_000,
  ipRateLimitPerMinute: 30,
  platformName: '云讯通',
  trustProxy: '',
  csrfSecret: '',
  secureCookies: false,
  sensitiveWordsFile: path.resolve(import.meta.dirname, 'config/sensitive-words.txt'),
  docsDir: '',
  autoReview: false,
  signExportMax: 5_000_000,
  smppUrl: '',
  recordExportMax: 1_000_000,
  recordTxtExportMax: 5_000_000,
  recordCountCap: 5_000,
  pay: DEFAULT_PAY_CONFIG,
  uploadStaleHours: 24,
  uploadQuotaMb: 1024,
  uploadPendingMax: 10,
  uploadKeepHours: 72,
  uploadMinFreeMb: 512,
  alarmCooldownMs: 24 * 3600_000,
  alarmSmsDaily: 1000,
  openapiUnverifiedBytes: 64 * 1024 * 1024,
  smppServerPort: 0,
  smppServerHost: '0.0.0.0',
  smppServerTlsPort: 0,
  smppServerTlsCert: '',
  smppServerTlsKey: '',
  cmppServerPort: 0,
  cmppServerHost: '0.0.0.0',
  interfaceSecretKey: '',
  longPartsMaxBytes: 1024 * 1024,
  testAccountDays: 7,
  testAccountGift: 20,
  testAccountsPerAgent: 3,
  testGiftDaily: 1000,
};

function bool(v: string | undefined, dflt: boolean): boolean {
  if (v === undefined || v === '') return dflt;
  return !['0', 'false', 'no', 'off'].includes(v.toLowerCase());
}

/** "86=5000,1=50,*=200" (or a single number for every country) → { '86': 5000, '1': 50, '*': 200 } */
export function parseCountryCaps(v: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of v
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(?:(\*|\d{1,4})\s*[=:]\s*)?(\d+)$/.exec(part);
    if (!m) throw new Error(`CODE_DAILY_PER_COUNTRY: cannot read "${part}" (expected e.g. 86=5000,*=200)`);
    out[m[1] ?? '*'] = Number(m[2]);
  }
  out['*'] ??= DEFAULT_CONFIG.codeDailyPerCountry['*'];
  return out;
}

/** Fastify's trustProxy from TRUST_PROXY: false, a hop count or a list of addresses / CIDRs. */
export function trustProxyOption(v: string): boolean | string[] | ((address: string, hop: number) => boolean) {
  const t = v.trim();
  if (!t || ['0', 'false', 'no', 'off', 'none'].includes(t.toLowerCase())) return false;
  if (/^\d+$/.test(t)) {
    // the nearest N hops are proxies (what Fastify does for a number)
    const hops = Number(t);
    return (_address, hop) => hop < hops;
  }
  return t
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function num(v: string | undefined): number | undefined {
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`not a number: ${v}`);
  return n;
}

/**
 * DB_STATEMENT_TIMEOUT_MS: the PostgreSQL statement_timeout of the API server's and the worker's
 * pools (30 s by default; 0: none). A request whose statement runs longer answers 查询超时 instead of
 * holding a pooled connection; migrations run without it.
 */
export function statementTimeoutFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return num(env.DB_STATEMENT_TIMEOUT_MS) ?? 30_000;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Partial<AppConfig> {
  const out: Partial<AppConfig> = {};
  // the running server answers session checks from a 2-second cache (0 turns it off)
  if (env.PARSES_PER_ACCOUNT !== undefined && Number(env.PARSES_PER_ACCOUNT) > 0) out.parsesPerAccount = Number(env.PARSES_PER_ACCOUNT);
  if (env.MOBILE_CHECK_PER_HOUR !== undefined && Number(env.MOBILE_CHECK_PER_HOUR) > 0) out.mobileCheckPerHour = Number(env.MOBILE_CHECK_PER_HOUR);
  if (env.DEFERRED_TIMED_MAX !== undefined && Number(env.DEFERRED_TIMED_MAX) >= 0) out.deferredTimedMax = Number(env.DEFERRED_TIMED_MAX);
  if (env.REQUEST_TIMEOUT_MS !== undefined && Number(env.REQUEST_TIMEOUT_MS) > 0) out.requestTimeoutMs = Number(env.REQUEST_TIMEOUT_MS);
  out.sessionCheckCacheMs = env.SESSION_CHECK_CACHE_MS !== undefined ? Math.max(0, Number(env.SESSION_CHECK_CACHE_MS) || 0) : 2000;
  // the lists under load take a session checked within 1 s (at most 1 s for a logout elsewhere)
  out.cachedSessionMs = env.CACHED_SESSION_MS !== undefined ? Math.min(5000, Math.max(0, Number(env.CACHED_SESSION_MS) || 0)) : 1000;
  if (env.SMTP_URL) out.smtpUrl = env.SMTP_URL;
  if (env.SMTP_FROM) out.smtpFrom = env.SMTP_FROM;
  out.registerAutoLogin = bool(env.REGISTER_AUTO_LOGIN, DEFAULT_CONFIG.registerAutoLogin);
  out.secureCookies = bool(env.SECURE_COOKIES, false);
  if (env.SENSITIVE_WORDS_FILE) out.sensitiveWordsFile = path.resolve(env.SENSITIVE_WORDS_FILE);
  if (env.DOCS_DIR) out.docsDir = path.resolve(env.DOCS_DIR);
  out.autoReview = bool(env.AUTO_REVIEW, false);
  if (env.TRUST_PROXY) out.trustProxy = env.TRUST_PROXY;
  if (env.CSRF_SECRET) out.csrfSecret = env.CSRF_SECRET;
  if (env.CODE_DAILY_PER_COUNTRY) out.codeDailyPerCountry = parseCountryCaps(env.CODE_DAILY_PER_COUNTRY);
  const global = num(env.CODE_DAILY_GLOBAL);
  if (global !== undefined) out.codeDailyGlobal = global;
  const maxFailed = num(env.MAX_FAILED_LOGINS);
  if (maxFailed !== undefined) out.maxFailedLogins = Math.max(1, maxFailed);
  if (env.SMPP_URL?.trim()) {
    parseSmppUrl(env.SMPP_URL); // a bad SMPP_URL stops the start with its message
    out.smppUrl = env.SMPP_URL.trim();
  }
  out.pay = payConfigFromEnv(env);
  const staleHours = num(env.UPLOAD_STALE_HOURS);
  if (staleHours !== undefined) out.uploadStaleHours = staleHours;
  const quota = num(env.UPLOAD_QUOTA_MB);
  if (quota !== undefined) out.uploadQuotaMb = quota;
  const pendingMax = num(env.UPLOAD_PENDING_MAX);
  if (pendingMax !== undefined) out.uploadPendingMax = Math.max(1, Math.floor(pendingMax));
  const keep = num(env.UPLOAD_KEEP_HOURS);
  if (keep !== undefined) out.uploadKeepHours = keep;
  const minFree = num(env.UPLOAD_MIN_FREE_MB);
  if (minFree !== undefined) out.uploadMinFreeMb = minFree;
  const cooldownHours = num(env.ALARM_COOLDOWN_HOURS);
  if (cooldownHours !== undefined) out.alarmCooldownMs = cooldownHours * 3600_000;
  const alarmDaily = num(env.ALARM_SMS_DAILY);
  if (alarmDaily !== undefined) out.alarmSmsDaily = Math.floor(alarmDaily);
  const unverifiedMb = num(env.OPENAPI_UNVERIFIED_MB);
  if (unverifiedMb !== undefined) out.openapiUnverifiedBytes = Math.max(0, unverifiedMb) * 1024 * 1024;
  const smppPort = num(env.SMPP_SERVER_PORT);
  if (smppPort !== undefined) out.smppServerPort = Math.floor(smppPort);
  if (env.SMPP_SERVER_HOST?.trim()) out.smppServerHost = env.SMPP_SERVER_HOST.trim();
  const tlsPort = num(env.SMPP_SERVER_TLS_PORT);
  if (tlsPort !== undefined) out.smppServerTlsPort = Math.floor(tlsPort);
  if (env.SMPP_SERVER_TLS_CERT?.trim()) out.smppServerTlsCert = env.SMPP_SERVER_TLS_CERT.trim();
  if (env.SMPP_SERVER_TLS_KEY?.trim()) out.smppServerTlsKey = env.SMPP_SERVER_TLS_KEY.trim();
  const cmppPort = num(env.CMPP_SERVER_PORT);
  if (cmppPort !== undefined) out.cmppServerPort = Math.floor(cmppPort);
  if (env.CMPP_SERVER_HOST?.trim()) out.cmppServerHost = env.CMPP_SERVER_HOST.trim();
  if (env.INTERFACE_SECRET_KEY?.trim()) out.interfaceSecretKey = env.INTERFACE_SECRET_KEY.trim();
  const partsKb = num(env.LONG_PARTS_MAX_KB);
  if (partsKb !== undefined) out.longPartsMaxBytes = Math.max(1, Math.floor(partsKb)) * 1024;
  if (out.smppServerTlsPort && (!out.smppServerTlsCert || !out.smppServerTlsKey))
    throw new Error('SMPP_SERVER_TLS_PORT needs SMPP_SERVER_TLS_CERT and SMPP_SERVER_TLS_KEY (PEM files)');
  for (const [k, key] of [
    ['TEST_ACCOUNT_DAYS', 'testAccountDays'],
    ['TEST_ACCOUNT_GIFT', 'testAccountGift'],
    ['TEST_ACCOUNTS_PER_AGENT', 'testAccountsPerAgent'],
    ['TEST_GIFT_DAILY', 'testGiftDaily'],
  ] as const) {
    const v = num(env[k]);
    if (v !== undefined && v >= 0) out[key] = Math.floor(v);
  }
  return out;
}
