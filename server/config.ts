/**
 * The configuration of every process, from one place. `loadConfig()` reads the environment once at
 * each entry point (server/main.ts, worker.ts, smpp-server.ts, cli.ts, modules/smsc/sim-main.ts):
 * the variables are described in schemas/config/env.json and checked by server/env.ts; a bad
 * value stops the start with a message naming the variable (`configOrExit`). This is the only
 * file that touches `process.env` (ESLint refuses it elsewhere in server/).
 *
 * `AppConfig` is what the API app (buildApp) and its modules read as `ctx.config`; `Config` adds
 * what only the processes use (ports, database, dispatcher, simulator).
 */
import path from 'node:path';
import { simulatorSettingsFromEnv } from './modules/smsc/config';
import { payConfigFromEnv, DEFAULT_PAY_CONFIG, type PayConfig } from './modules/pay/config';
import { ConfigError, ENV_DEFAULTS, parseCountryCaps, readEnv, type RawEnv, type ServerEnv } from './env';
import type { PrepareOptions } from './db/prepared';
import type { DispatcherOptions } from './modules/dispatch/dispatcher';
import type { SimulatorSettings } from './modules/smsc/simulator';

export { ConfigError, ENV_DEFAULTS, parseCountryCaps, type ServerEnv };

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
  /** SMPP_CHANNELS: the channel file the workers read beside the channel table ('' = none; the operator console shows it read-only) */
  channelsFile: string;
  /** folder of the downloadable help documents; '' = `${dataDir}/docs` */
  docsDir: string;
  /** demo: new signs, templates and certifications are approved at once (env AUTO_REVIEW) */
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
   * The SMGP 3.0 listener for customers (docs/api-smgp.md): its port (SMGP_SERVER_PORT; 0 = off,
   * the default of buildApp; `npm start` listens on 8890 unless told otherwise; -1 = any free
   * port, for tests) and address (SMGP_SERVER_HOST, 0.0.0.0).
   */
  smgpServerPort: number;
  smgpServerHost: string;
  /**
   * The SGIP 1.2 listener for customers (docs/api-sgip.md): its port (SGIP_SERVER_PORT; 0 = off,
   * the default of buildApp; `npm start` listens on 8801; -1 = any free port, for tests), address
   * (SGIP_SERVER_HOST) and the platform's node id in its sequence numbers (SGIP_NODE_ID).
   */
  sgipServerPort: number;
  sgipServerHost: string;
  sgipNodeId: number;
  /**
   * The platform's prefix of every message's source address (SMS_SOURCE_PREFIX): source = prefix +
   * the account's id (+ extension). The SMPP and CMPP listeners read it here; the dispatcher gets
   * the same value in its options.
   */
  smsSourcePrefix: string;
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
  /**
   * Metrics and health (docs/api-metrics.md): collect this process's metrics (METRICS; off:
   * `/metrics` answers 404, no timings, no per-minute flushes); the bearer token `/metrics` asks
   * for (METRICS_TOKEN; '' = loopback clients only); a listener of their own (METRICS_PORT, 0 =
   * none, -1 = any free port: tests) on METRICS_HOST.
   */
  metrics: boolean;
  metricsToken: string;
  metricsPort: number;
  metricsHost: string;
  /** each process adds its share of the per-minute series (server/modules/metrics/monitor.ts) this often, in ms (0: never) */
  monitorFlushMs: number;
  /** per-minute series rows older than this many days are purged */
  monitorKeepDays: number;
  /** send records are kept this many whole months before this one (RECORDS_KEEP_MONTHS; retention/partitions.ts) */
  recordsKeepMonths: number;
  /** a send-record month is written to DATA_DIR/archive before its partition is dropped (RECORDS_ARCHIVE; retention/archive.ts) */
  recordsArchive: boolean;
  /** uplinks are kept this many months (MO_KEEP_MONTHS; server/modules/retention) */
  moKeepMonths: number;
  /** push_outbox rows delivered or given up are kept this many days (PUSH_KEEP_DAYS) */
  pushKeepDays: number;
}

/** The settings no variable sets. */
const FIXED = {
  checkResponses: false,
  sessionIdleMs: 2 * 3600_000,
  connectionCheckMs: 2_000,
  rememberMs: 7 * 86_400_000,
  lockMs: 15 * 60_000,
  lockMaxMs: 24 * 3600_000,
  failureResetMs: 24 * 3600_000,
  rememberReuseGraceMs: 10_000,
  codeTtlMs: 5 * 60_000,
  codeMaxAttempts: 5,
  codeCooldownMs: 60_000,
  codeDailyPerTarget: 10,
  codeDailyPerIp: 20,
  sliderTtlMs: 2 * 60_000,
  imageCaptchaTtlMs: 5 * 60_000,
  ipRateLimitPerMinute: 30,
  platformName: '云讯通',
  signExportMax: 5_000_000,
  recordExportMax: 1_000_000,
  recordTxtExportMax: 5_000_000,
  recordCountCap: 5_000,
  monitorFlushMs: 10_000,
  monitorKeepDays: 8,
} satisfies Partial<AppConfig>;

/** the sensitive-word list that comes with the server */
const SENSITIVE_WORDS_FILE = path.resolve(import.meta.dirname, 'config/sensitive-words.txt');

/** The API app's settings from the (checked) environment. */
export function configFromEnv(env: ServerEnv): AppConfig {
  return {
    ...FIXED,
    registerAutoLogin: env.REGISTER_AUTO_LOGIN,
    smtpUrl: env.SMTP_URL ?? '',
    smtpFrom: env.SMTP_FROM,
    sessionCheckCacheMs: env.SESSION_CHECK_CACHE_MS,
    cachedSessionMs: env.CACHED_SESSION_MS,
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
    mobileCheckPerHour: env.MOBILE_CHECK_PER_HOUR,
    deferredTimedMax: env.DEFERRED_TIMED_MAX,
    parsesPerAccount: env.PARSES_PER_ACCOUNT,
    maxFailedLogins: env.MAX_FAILED_LOGINS,
    codeDailyPerCountry: parseCountryCaps(env.CODE_DAILY_PER_COUNTRY),
    codeDailyGlobal: env.CODE_DAILY_GLOBAL,
    trustProxy: env.TRUST_PROXY ?? '',
    csrfSecret: env.CSRF_SECRET ?? '',
    secureCookies: env.SECURE_COOKIES,
    sensitiveWordsFile: env.SENSITIVE_WORDS_FILE ? path.resolve(env.SENSITIVE_WORDS_FILE) : SENSITIVE_WORDS_FILE,
    channelsFile: env.SMPP_CHANNELS?.trim() ? path.resolve(env.SMPP_CHANNELS.trim()) : '',
    docsDir: env.DOCS_DIR ? path.resolve(env.DOCS_DIR) : '',
    autoReview: env.AUTO_REVIEW,
    smppUrl: env.SMPP_URL ?? '',
    pay: payConfigFromEnv(env),
    uploadStaleHours: env.UPLOAD_STALE_HOURS,
    uploadQuotaMb: env.UPLOAD_QUOTA_MB,
    uploadPendingMax: env.UPLOAD_PENDING_MAX,
    uploadKeepHours: env.UPLOAD_KEEP_HOURS,
    uploadMinFreeMb: env.UPLOAD_MIN_FREE_MB,
    alarmCooldownMs: env.ALARM_COOLDOWN_HOURS * 3600_000,
    alarmSmsDaily: env.ALARM_SMS_DAILY,
    openapiUnverifiedBytes: env.OPENAPI_UNVERIFIED_MB * 1024 * 1024,
    smppServerPort: env.SMPP_SERVER_PORT,
    smppServerHost: env.SMPP_SERVER_HOST,
    smppServerTlsPort: env.SMPP_SERVER_TLS_PORT,
    smppServerTlsCert: env.SMPP_SERVER_TLS_CERT ?? '',
    smppServerTlsKey: env.SMPP_SERVER_TLS_KEY ?? '',
    cmppServerPort: env.CMPP_SERVER_PORT,
    cmppServerHost: env.CMPP_SERVER_HOST,
    smgpServerPort: env.SMGP_SERVER_PORT,
    smgpServerHost: env.SMGP_SERVER_HOST,
    sgipServerPort: env.SGIP_SERVER_PORT,
    sgipServerHost: env.SGIP_SERVER_HOST,
    sgipNodeId: env.SGIP_NODE_ID,
    smsSourcePrefix: env.SMS_SOURCE_PREFIX,
    interfaceSecretKey: env.INTERFACE_SECRET_KEY ?? '',
    longPartsMaxBytes: env.LONG_PARTS_MAX_KB * 1024,
    testAccountDays: env.TEST_ACCOUNT_DAYS,
    testAccountGift: env.TEST_ACCOUNT_GIFT,
    testAccountsPerAgent: env.TEST_ACCOUNTS_PER_AGENT,
    testGiftDaily: env.TEST_GIFT_DAILY,
    metrics: env.METRICS,
    metricsToken: env.METRICS_TOKEN ?? '',
    metricsPort: env.METRICS_PORT,
    metricsHost: env.METRICS_HOST,
    recordsKeepMonths: env.RECORDS_KEEP_MONTHS,
    recordsArchive: env.RECORDS_ARCHIVE,
    moKeepMonths: env.MO_KEEP_MONTHS,
    pushKeepDays: env.PUSH_KEEP_DAYS,
  };
}

/**
 * buildApp's defaults (what tests start from): the environment's defaults, except what a test
 * turns on itself: the session caches, the SMPP and CMPP listeners and the sandbox payment
 * provider are off.
 */
export const DEFAULT_CONFIG: AppConfig = {
  ...configFromEnv(ENV_DEFAULTS),
  sessionCheckCacheMs: 0,
  cachedSessionMs: 0,
  smppServerPort: 0,
  cmppServerPort: 0,
  smgpServerPort: 0,
  sgipServerPort: 0,
  pay: DEFAULT_PAY_CONFIG,
};

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

/** The dispatcher's options from DISPATCH_*, SMS_SOURCE_PREFIX and WORKER_ID (hooks are the pipeline's). */
export function dispatcherOptionsFromEnv(env: ServerEnv): DispatcherOptions {
  return {
    batchSize: env.DISPATCH_BATCH,
    lanes: env.DISPATCH_LANES,
    leaseMs: env.DISPATCH_LEASE_MS,
    sourcePrefix: env.SMS_SOURCE_PREFIX,
    markSubmittedMs: env.DISPATCH_MARK_MS,
    matchUnconfirmedMs: env.DISPATCH_MATCH_UNCONFIRMED_MS,
    throttleFailoverMs: env.DISPATCH_THROTTLE_FAILOVER_MS,
    // unset: the channel file's failover_ms
    ...(env.DISPATCH_FAILOVER_MS !== undefined ? { failoverMs: env.DISPATCH_FAILOVER_MS } : {}),
    ...(env.WORKER_ID ? { workerId: env.WORKER_ID } : {}),
  };
}

/** Everything a process reads from its environment, typed. */
export interface Config {
  /** the variables as read: checked, typed, with the schema's defaults */
  env: ServerEnv;
  /** the API app's settings (buildApp's `config`, the modules' `ctx.config`) */
  app: AppConfig;
  /** the HTTP listener of `npm start` (PORT, HOST, HTTP_REUSE_PORT) */
  http: { port: number; host: string; reusePort: boolean };
  /** DATA_DIR, resolved */
  dataDir: string;
  logLevel: ServerEnv['LOG_LEVEL'];
  db: {
    /** DATABASE_URL; undefined: the embedded PGlite under dataDir */
    url: string | undefined;
    /** DATABASE_SCHEMA (npm run smpp-server) */
    schema: string | undefined;
    /** DB_POOL_SIZE (npm run worker, npm run smpp-server) */
    poolSize: number;
    statementTimeoutMs: number;
    prepare: PrepareOptions;
  };
  dispatch: {
    /** DISPATCH: `npm start` runs a dispatcher */
    enabled: boolean;
    options: DispatcherOptions;
    /** SMPP_CHANNELS */
    channelsFile: string | undefined;
    /** DISPATCH_CHANNEL_RELOAD_MS */
    reloadMs: number;
  };
  /** the carrier simulator (embedded, or npm run smsc-sim) */
  simulator: {
    protocol: ServerEnv['SMSC_SIM_PROTOCOL'];
    settings: Partial<SimulatorSettings>;
    countsFile: string;
    countsRefs: boolean;
  };
}

/**
 * Reads and checks the environment (schemas/config/env.json) and derives every setting from it.
 * Throws a ConfigError naming each bad variable.
 */
export function loadConfig(raw: RawEnv = process.env): Config {
  const env = readEnv(raw);
  return {
    env,
    app: configFromEnv(env),
    http: { port: env.PORT, host: env.HOST, reusePort: env.HTTP_REUSE_PORT },
    dataDir: path.resolve(env.DATA_DIR),
    logLevel: env.LOG_LEVEL,
    db: {
      url: env.DATABASE_URL,
      schema: env.DATABASE_SCHEMA,
      poolSize: env.DB_POOL_SIZE,
      statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS,
      prepare: { threshold: env.DB_PREPARE_THRESHOLD, max: env.DB_PREPARED_MAX },
    },
    dispatch: {
      enabled: env.DISPATCH,
      options: dispatcherOptionsFromEnv(env),
      channelsFile: env.SMPP_CHANNELS,
      reloadMs: env.DISPATCH_CHANNEL_RELOAD_MS,
    },
    simulator: {
      protocol: env.SMSC_SIM_PROTOCOL,
      settings: simulatorSettingsFromEnv(env),
      countsFile: path.resolve(env.SMSC_SIM_COUNTS_FILE),
      countsRefs: env.SMSC_SIM_COUNTS_REFS,
    },
  };
}

/** loadConfig() for an entry point: a bad environment prints its message (no stack) and exits with 1. */
export function configOrExit(raw: RawEnv = process.env): Config {
  try {
    return loadConfig(raw);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(e.message);
    process.exit(1);
  }
}
