/**
 * Starts the API server (and the built console when dist/ exists), the customers' SMPP and CMPP
 * listeners and, unless DISPATCH is off, a dispatcher with its carrier link (SMPP_URL, channels,
 * or the embedded simulator).
 *
 * Environment: docs/configuration.md (schemas/config/env.json), read once by loadConfig(); a bad
 * value stops the start with a message naming the variable. HTTP_REUSE_PORT needs DATABASE_URL
 * (several processes on the embedded database cannot be).
 */
import { installOperatorChannel } from './cli/operator-channel';
import fs from 'node:fs';
import type { FastifyListenOptions } from 'fastify';
import path from 'node:path';
import { buildApp } from './app';
import { configOrExit } from './config';
import { openDatabase } from './db';
import { seed } from './db/seed';
import { startPipeline, type Pipeline } from './modules/dispatch/pipeline';
import { expectDispatcher } from './modules/metrics';
import { closeOnSignals } from './lib/shutdown';

const started = Date.now();
const config = configOrExit();
const { port, host, reusePort } = config.http;
const { dataDir } = config;
const distDir = path.resolve(import.meta.dirname, '../dist');

// several API processes on one port (SO_REUSEPORT): only on PostgreSQL, the embedded database is one process's
if (reusePort && !config.db.url) {
  console.error('HTTP_REUSE_PORT=1 需要 DATABASE_URL（内嵌数据库只允许一个进程打开）');
  process.exit(2);
}

const handle = await openDatabase({
  databaseUrl: config.db.url,
  dataDir,
  statementTimeoutMs: config.db.statementTimeoutMs,
  prepare: config.db.prepare,
});
const created = await seed(handle.db);

const staticDir = fs.existsSync(path.join(distDir, 'index.html')) ? distDir : undefined;
const app = await buildApp({
  db: handle.db,
  dataDir,
  staticDir,
  logger: { level: config.logLevel },
  // the customers' SMPP listener on 2775, CMPP listener on 7890 and SMGP listener on 8890 unless SMPP_SERVER_PORT / CMPP_SERVER_PORT / SMGP_SERVER_PORT say otherwise (0: off)
  config: config.app,
});

const operator = installOperatorChannel(app, dataDir);
// /readyz answers 503 until the dispatcher this process runs has started (server/modules/metrics)
if (config.dispatch.enabled) expectDispatcher(app.ctx);

let pipeline: Pipeline | null = null;
const { closing } = closeOnSignals(app.log, 'shutting down', async () => {
  operator.unpublish();
  await pipeline?.stop();
  await app.close();
  await handle.close();
});

try {
  // reusePort: Node ≥ 22.12 on Linux (FastifyListenOptions does not list it; Fastify hands the options to net's listen)
  const listen: FastifyListenOptions & { reusePort?: boolean } = {
    port,
    host,
    ...(reusePort ? { reusePort: true } : {}),
  };
  await app.listen(listen);
} catch (err) {
  app.log.error({ err }, 'cannot listen');
  await handle.close();
  process.exit(1);
}
operator.publish(port);
if (config.dispatch.enabled && !closing()) {
  try {
    pipeline = await startPipeline(app.ctx, {
      smppUrl: app.ctx.config.smppUrl,
      dispatcher: config.dispatch.options,
      channelsFile: config.dispatch.channelsFile,
      reloadMs: config.dispatch.reloadMs,
      simulator: config.simulator.settings,
      simulatorProtocol: config.simulator.protocol,
    });
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
