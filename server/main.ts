/**
 * Starts the API server (and the built console when dist/ exists).
 *
 * Environment: PORT (8080), HOST (0.0.0.0), DATA_DIR (./data), DATABASE_URL (PostgreSQL instead of
 * the embedded PGlite under DATA_DIR/pgdata), SMTP_URL, SMTP_FROM, REGISTER_AUTO_LOGIN (1),
 * SECURE_COOKIES (0), LOG_LEVEL (info); dispatch (docs/api-dispatch.md): SMPP_URL (the SMSC; empty:
 * an embedded simulator on a loopback port), DISPATCH (1; 0 = no dispatcher in this process, when
 * separate `npm run worker` processes run), DISPATCH_BATCH, DISPATCH_LANES, DISPATCH_LEASE_MS,
 * SMS_SOURCE_PREFIX, WORKER_ID; HTTP_REUSE_PORT (0; 1 = several server processes on PostgreSQL share
 * PORT, the kernel spreading the connections: the README's configuration table).
 */
import { installOperatorChannel } from './cli/operator-channel';
import fs from 'node:fs';
import type { FastifyListenOptions } from 'fastify';
import path from 'node:path';
import { buildApp } from './app';
import { configFromEnv, statementTimeoutFromEnv } from './config';
import { openDatabase } from './db';
import { seed } from './db/seed';
import { dispatcherOptionsFromEnv, startPipeline, type Pipeline } from './modules/dispatch/pipeline';
import { closeOnSignals } from './lib/shutdown';

const started = Date.now();
const env = process.env;
const port = Number(env.PORT ?? 8080);
const host = env.HOST ?? '0.0.0.0';
const dataDir = path.resolve(env.DATA_DIR ?? './data');
const distDir = path.resolve(import.meta.dirname, '../dist');

// several API processes on one port (SO_REUSEPORT): only on PostgreSQL, the embedded database is one process's
const reusePort = env.HTTP_REUSE_PORT === '1';
if (reusePort && !env.DATABASE_URL) {
  console.error('HTTP_REUSE_PORT=1 需要 DATABASE_URL（内嵌数据库只允许一个进程打开）');
  process.exit(2);
}

const handle = await openDatabase({ databaseUrl: env.DATABASE_URL || undefined, dataDir, statementTimeoutMs: statementTimeoutFromEnv(env) });
const created = await seed(handle.db);

const staticDir = fs.existsSync(path.join(distDir, 'index.html')) ? distDir : undefined;
const app = await buildApp({
  db: handle.db,
  dataDir,
  staticDir,
  logger: { level: env.LOG_LEVEL ?? 'info' },
  // the customers' SMPP listener on 2775 and CMPP listener on 7890 unless SMPP_SERVER_PORT / CMPP_SERVER_PORT say otherwise (0: off)
  config: { smppServerPort: 2775, cmppServerPort: 7890, ...configFromEnv(env) },
});

const operator = installOperatorChannel(app, dataDir);

let pipeline: Pipeline | null = null;
const { closing } = closeOnSignals(app.log, 'shutting down', async () => {
  operator.unpublish();
  await pipeline?.stop();
  await app.close();
  await handle.close();
});

try {
  // reusePort: Node ≥ 22.12 on Linux (FastifyListenOptions does not list it; Fastify hands the options to net's listen)
  const listen: FastifyListenOptions & { reusePort?: boolean } = { port, host, ...(reusePort ? { reusePort: true } : {}) };
  await app.listen(listen);
} catch (err) {
  app.log.error({ err }, 'cannot listen');
  await handle.close();
  process.exit(1);
}
operator.publish(port);
if (env.DISPATCH !== '0' && !closing()) {
  try {
    pipeline = await startPipeline(app.ctx, { smppUrl: app.ctx.config.smppUrl, dispatcher: dispatcherOptionsFromEnv(env) });
    app.log.info(`dispatcher ${pipeline.dispatcher.workerId} started: ${pipeline.smsc}`);
  } catch (err) {
    app.log.error({ err }, 'cannot start the dispatcher');
    await app.close();
    await handle.close();
    process.exit(1);
  }
}
if (created.length) app.log.info(`demo accounts created: ${created.join(', ')} (password Demo1234)`);
const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
app.log.info(
  `短信平台已启动: http://${shownHost}:${port}/ (database: ${handle.kind} ${handle.location}; console: ${
    staticDir ? 'dist/' : 'not built (npm run build), API only'
  }; ${Date.now() - started} ms)`,
);
