/**
 * A dispatch worker without the API (`npm run worker`): claims and submits messages, applies
 * receipts, stores uplinks, releases timed tasks. Several workers (and API servers started with
 * DISPATCH=0) may share one PostgreSQL. Rules: docs/api-dispatch.md "Processes".
 *
 * Environment: DATABASE_URL (required: PostgreSQL), SMPP_URL (required unless channels are configured:
 * SMPP_CHANNELS or `npm run cli -- channel add`), DATA_DIR (./data),
 * DISPATCH_BATCH, DISPATCH_LANES, DISPATCH_LEASE_MS, SMS_SOURCE_PREFIX, WORKER_ID, LOG_LEVEL (info).
 */
import path from 'node:path';
import { buildApp } from './app';
import { configFromEnv, statementTimeoutFromEnv } from './config';
import { openDatabase } from './db';
import { dispatcherOptionsFromEnv, startPipeline } from './modules/dispatch/pipeline';
import { closeOnSignals } from './lib/shutdown';

const env = process.env;
if (!env.DATABASE_URL) {
  console.error('npm run worker 需要 DATABASE_URL（PostgreSQL），以及 SMPP_URL（smpp://system_id:password@host:port）或通道（SMPP_CHANNELS / npm run cli -- channel add）');
  process.exit(2);
}
let dispatcherOptions;
try {
  dispatcherOptions = dispatcherOptionsFromEnv(env);
} catch (e) {
  console.error((e as Error).message);
  process.exit(2);
}
const dataDir = path.resolve(env.DATA_DIR ?? './data');
const handle = await openDatabase({ databaseUrl: env.DATABASE_URL, poolSize: Number(env.DB_POOL_SIZE) || 10, statementTimeoutMs: statementTimeoutFromEnv(env) });
// the app gives the services' context (ledger, push URL rules); it never listens
const app = await buildApp({ db: handle.db, dataDir, logger: { level: env.LOG_LEVEL ?? 'info' }, config: configFromEnv(env), purgeEveryMs: 0 });
let pipeline;
try {
  pipeline = await startPipeline(app.ctx, { smppUrl: app.ctx.config.smppUrl, dispatcher: dispatcherOptions, requireLink: true });
} catch (err) {
  app.log.error({ err }, 'cannot start the dispatcher');
  await app.close();
  await handle.close();
  process.exit(1);
}
app.log.info(`dispatch worker ${pipeline.dispatcher.workerId} started: ${pipeline.smsc}, database ${handle.location}`);

closeOnSignals(app.log, 'stopping the dispatch worker', async () => {
  await pipeline.stop();
  await app.close();
  await handle.close();
});
