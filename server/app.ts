/**
 * The API server as a Fastify app (no listen): `main.ts` starts it, tests drive it with inject.
 * Every route lives under /api; with `staticDir` the built console is served too, and any other
 * GET answers its index.html (client-side routes, the Not Found page).
 */
import fs from 'node:fs';
import { systemResolver, type HostResolver } from './lib/safe-url';
import path from 'node:path';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { DEFAULT_CONFIG, trustProxyOption, type AppConfig } from './config';
import type { AppContext, Services } from './context';
import type { Db } from './db';
import { purgeExpired } from './db/maintenance';
import { installCsrf, loadCsrfSecret } from './http/csrf';
import { installSecurityHeaders } from './http/headers';
import { errors, frameworkErrors, installErrorHandler } from './http/errors';
import { RefusalCounts } from './http/refusals';
import { installInputGuards } from './http/guards';
import { installHttpMetrics } from './http/metrics';
import { installAccess } from './http/route';
import { installResponseCheck, installSchemaValidation, installSerializer } from './http/validation';
import { systemClock, type Clock } from './lib/time';
import { inDependencyOrder, MODULES } from './modules';
import { isOpenApiPath, OPENAPI_PREFIX, openApiNotFound } from './modules/openapi';
import { ServerSchemas, DEFAULT_SCHEMA_DIR } from './schemas';
import { SessionService } from './http/session';
import { OperatorSessions } from './http/operator-session';
import { NodeMailer, type Mailer } from './modules/verification/mail';
import { OutboxSmsChannel, type SmsChannel } from './modules/verification/sms';
import { VerificationService } from './modules/verification/service';
import { SensitiveWords } from './modules/content/sensitive-words';
import { registerOpenApi } from './modules/help/openapi';
import { brandedConsolePage } from './modules/site/console-page';
import type { ImageCaptchaGenerator } from './modules/captcha/service';

/**
 * Module names whose services this file still builds by hand (above: `services`); a module that
 * becomes a plugin (server/modules/module.ts) leaves this list, and other modules may name it in
 * their `dependencies` either way.
 */
const LEGACY_MODULES: string[] = [];

export interface BuildAppOptions {
  db: Db;
  /** outbox files (SMS, mail) go under `${dataDir}/outbox` */
  dataDir: string;
  /** the schemas/ folder (forms and their messages); defaults to the repository's */
  schemaDir?: string;
  /** the built console (dist/) to serve, with SPA fallback */
  staticDir?: string;
  logger?: FastifyServerOptions['logger'];
  config?: Partial<AppConfig>;
  /** the clock every expiry and limit uses (tests move it) */
  now?: Clock;
  /** replace the embedded SMS outbox / mail transport */
  sms?: SmsChannel;
  mailer?: Mailer;
  /** replace the image captcha generator (tests record the answer) */
  imageCaptcha?: ImageCaptchaGenerator;
  /** purge expired rows every this many ms (0: never; default 10 min) */
  purgeEveryMs?: number;
  /** resolves callback URL hosts (default: the system resolver) */
  resolveHost?: HostResolver;
  /** send the recorded credit-alarm crossings every this many ms (0: never; default 1 s) */
  alarmEveryMs?: number;
  /** purge unfinished uploads older than config.uploadStaleHours every this many ms (0: never; default 1 h, the first a minute after the start) */
  uploadPurgeEveryMs?: number;
  /** fold the report deltas (migration 0041) into report_daily every this many ms (0: never; default 1 s) */
  reportFoldEveryMs?: number;
  /** free bytes of the data directory's file system (default: statfs); tests inject a small disk */
  diskFree?: (dir: string) => Promise<number>;
}

/**
 * The services of the modules not yet loaded as plugins (server/modules/module.ts); the plugin
 * modules add theirs to `Services` (server/context.ts) themselves.
 */
declare module './context' {
  interface Services {
    /** the sessions (core: the access guard of every route reads them) */
    sessions: SessionService;
    /** the operators' sessions (core as well: the guard of the operator routes) */
    operatorSessions: OperatorSessions;
    /** verification codes (core: registration, password reset and account changes send them) */
    codes: VerificationService;
  }
}

export type { Services };

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    services: Services;
  }
}

export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const config: AppConfig = { ...DEFAULT_CONFIG, ...opts.config };
  const app = Fastify({
    logger: opts.logger ?? false,
    // X-Forwarded-For only from the proxies TRUST_PROXY names (default: none)
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // a request must arrive whole within requestTimeoutMs: a stalled body never holds a socket
    // (and a parser) for ever; headers within the same time at most
    requestTimeout: config.requestTimeoutMs,
    http: {
      connectionsCheckingInterval: config.connectionCheckMs,
      headersTimeout: Math.min(60_000, config.requestTimeoutMs),
    },
    frameworkErrors,
  });
  const now = opts.now ?? systemClock;
  const ctx: AppContext = {
    db: opts.db,
    config,
    now,
    schemas: ServerSchemas.shared(opts.schemaDir ?? DEFAULT_SCHEMA_DIR),
    dataDir: opts.dataDir,
    log: app.log,
    sms: opts.sms ?? new OutboxSmsChannel(opts.dataDir, app.log, now),
    mailer:
      opts.mailer ??
      new NodeMailer({ smtpUrl: config.smtpUrl, from: config.smtpFrom, dataDir: opts.dataDir, log: app.log, now }),
    words: new SensitiveWords(config.sensitiveWordsFile, { log: (m) => app.log.info(m) }),
    resolveHost: opts.resolveHost ?? systemResolver,
    options: {
      purgeEveryMs: opts.purgeEveryMs ?? 10 * 60_000,
      alarmEveryMs: opts.alarmEveryMs ?? 1000,
      uploadPurgeEveryMs: opts.uploadPurgeEveryMs ?? 3600_000,
      reportFoldEveryMs: opts.reportFoldEveryMs ?? 1000,
      imageCaptcha: opts.imageCaptcha,
      diskFree: opts.diskFree,
    },
  };
  const sessions = new SessionService(ctx);
  const operatorSessions = new OperatorSessions(ctx);
  const codes = new VerificationService(ctx);
  const services = { sessions, operatorSessions, codes } as Services;
  app.decorate('ctx', ctx);
  // refused sends of the HTTP API and the console, flushed into the per-minute series (server/http/refusals.ts)
  app.decorate('refusals', new RefusalCounts());
  app.decorate('services', services);
  app.decorate('appRoot', app);
  app.decorateRequest('currentSession', undefined);
  app.decorateRequest('operatorSession', undefined);

  // first: every route of every scope is timed (server/http/metrics.ts; the registry GET /metrics serves)
  installHttpMetrics(app, config.metrics);
  installErrorHandler(app);
  installInputGuards(app);
  installSchemaValidation(app, ctx.schemas);
  installSerializer(app, { exact: config.checkResponses });
  if (config.checkResponses) installResponseCheck(app, ctx.schemas);
  installSecurityHeaders(app);
  await app.register(cookie);
  await app.register(formbody);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => errors.tooManyRequests(),
  });
  installCsrf(app, { secure: config.secureCookies, secret: loadCsrfSecret(config.csrfSecret, opts.dataDir) });
  await registerOpenApi(app, config.platformName);

  await app.register(
    async (api) => {
      installAccess(api, sessions, operatorSessions);
      // the modules that are plugins (server/modules/<area>/index.ts, server/modules/module.ts); the
      // services built above stand for the modules not yet converted, under their module names
      for (const name of LEGACY_MODULES) await api.register(fp(async () => {}, { name }));
      for (const m of inDependencyOrder(MODULES, LEGACY_MODULES)) await api.register(m);
    },
    { prefix: '/api' },
  );
  // the customers' HTTP API (server/modules/openapi): its own prefix, errors and body parser, no cookies
  await app.register(services.openapiRoutes, { prefix: OPENAPI_PREFIX });

  const staticDir =
    opts.staticDir && fs.existsSync(path.join(opts.staticDir, 'index.html')) ? opts.staticDir : undefined;
  // index.html never leaves as the file: every page of the console (/ included) is the page with
  // the host's brand written in (brandedConsolePage); the other built files are served as they are
  const consoleTemplate = staticDir ? fs.readFileSync(path.join(staticDir, 'index.html'), 'utf8') : '';
  if (staticDir)
    await app.register(fastifyStatic, {
      root: path.resolve(staticDir),
      index: false,
      allowedPath: (p) => p !== '/index.html',
      // Vite names every built file under assets/ by its content's hash: a browser keeps it and
      // never asks again (a new build is new names, reached through the no-cache page above)
      setHeaders: (reply, file) => {
        if (path.relative(staticDir, file).startsWith(`assets${path.sep}`))
          reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  const consolePage = async (host: string | undefined) => {
    const name = await services.site.branding(host).then(
      (b) => b.company_name,
      () => undefined, // a host without a branding: the built page as it is (its API calls say why)
    );
    return brandedConsolePage(consoleTemplate, name);
  };
  const sendConsolePage = async (req: FastifyRequest, reply: FastifyReply) =>
    reply
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(await consolePage(req.headers.host));
  // the root is a directory to the static files (no index): its page is answered here
  if (staticDir) app.get('/', { schema: { hide: true } }, sendConsolePage);

  app.setNotFoundHandler(async (req, reply) => {
    const pathOnly = req.url.split('?')[0];
    // the customers' API answers its own 404, whichever route handed the request over
    if (isOpenApiPath(pathOnly)) return openApiNotFound(reply);
    if (
      staticDir &&
      (req.method === 'GET' || req.method === 'HEAD') &&
      !pathOnly.startsWith('/api/') &&
      pathOnly !== '/api'
    ) {
      return sendConsolePage(req, reply);
    }
    return reply.status(404).send({ code: 404, msg: '接口不存在' });
  });

  const purgeEvery = ctx.options.purgeEveryMs;
  if (purgeEvery > 0) {
    const timer = setInterval(() => {
      purgeExpired(ctx.db, now()).catch((err) => app.log.warn({ err }, 'purge of expired rows failed'));
    }, purgeEvery);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }
  app.addHook('onClose', async () => ctx.mailer.close());
  return app;
}
