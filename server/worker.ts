/**
 * A dispatch worker without the API (`npm run worker`): claims and submits messages, applies
 * receipts, stores uplinks, releases timed tasks. Several workers (and API servers started with
 * DISPATCH=0) may share one PostgreSQL. Rules: docs/api-dispatch.md "Processes".
 *
 * Environment: docs/configuration.md, read once by loadConfig(). DATABASE_URL is required
 * (PostgreSQL), and SMPP_URL unless channels are configured (SMPP_CHANNELS or `npm run cli --
 * channel add`). A worker never listens: the SMPP and CMPP listener settings are not its.
 */
import { buildApp } from './app';
import { configOrExit } from './config';
import { openDatabase } from './db';
import { startPipeline } from './modules/dispatch/pipeline';
import { expectDispatcher } from './modules/metrics';
import { closeOnSignals } from './lib/shutdown';

const config = configOrExit();
if (!config.db.url) {
  console.error(
    'npm run worker 需要 DATABASE_URL（PostgreSQL），以及 SMPP_URL（smpp://system_id:password@host:port）或通道（SMPP_CHANNELS / npm run cli -- channel add）',
  );
  process.exit(2);
}
const { dataDir } = config;
const handle = await openDatabase({
  databaseUrl: config.db.url,
  poolSize: config.db.poolSize,
  statementTimeoutMs: config.db.statementTimeoutMs,
  prepare: config.db.prepare,
});
// the app gives the services' context (ledger, push URL rules); it never listens for HTTP (METRICS_PORT aside)
const app = await buildApp({
  db: handle.db,
  dataDir,
  logger: { level: config.logLevel },
  config: {
    ...config.app,
    smppServerPort: 0,
    smppServerTlsPort: 0,
    cmppServerPort: 0,
    smgpServerPort: 0,
    sgipServerPort: 0,
  },
  purgeEveryMs: 0,
});
expectDispatcher(app.ctx);
try {
  // no HTTP port: ready starts METRICS_PORT's listener (/metrics, /healthz, /readyz) when it is set
  await app.ready();
} catch (err) {
  app.log.error({ err }, 'cannot start (METRICS_PORT)');
  await handle.close();
  process.exit(1);
}
let pipeline;
try {
  pipeline = await startPipeline(app.ctx, {
    smppUrl: app.ctx.config.smppUrl,
    dispatcher: config.dispatch.options,
    channelsFile: config.dispatch.channelsFile,
    reloadMs: config.dispatch.reloadMs,
    simulator: config.simulator.settings,
    simulatorProtocol: config.simulator.protocol,
    requireLink: true,
  });
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
