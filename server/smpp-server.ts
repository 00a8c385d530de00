/**
 * The customers' SMPP listener alone (`npm run smpp-server`; docs/api-smpp.md "Several
 * processes"): no HTTP API, no dispatcher. Several of these (and API servers, which listen too
 * unless SMPP_SERVER_PORT=0) may run behind a TCP balancer over one PostgreSQL: the sessions'
 * `nodenum` count, the `accessSpeed` bucket and the receipt / uplink queues are in the database.
 *
 * Environment: docs/configuration.md, read once by loadConfig(): DATABASE_URL is required
 * (PostgreSQL); the listeners' SMPP_SERVER_* / CMPP_SERVER_* settings (2775 and 7890 by default),
 * SMS_SOURCE_PREFIX (as the dispatch's), DB_POOL_SIZE, DATABASE_SCHEMA (the schema the tables
 * live in, when not public: tests).
 */
import { buildApp } from './app';
import { configOrExit } from './config';
import { openDatabase } from './db';
import { closeOnSignals } from './lib/shutdown';

const loaded = configOrExit();
if (!loaded.db.url) {
  console.error('npm run smpp-server 需要 DATABASE_URL（PostgreSQL，与 API 服务和发送进程共用的数据库）');
  process.exit(2);
}
const config = loaded.app;
if (!config.smppServerPort && !config.cmppServerPort && !config.smgpServerPort && !config.sgipServerPort) {
  console.error(
    'SMPP_SERVER_PORT=0, CMPP_SERVER_PORT=0, SMGP_SERVER_PORT=0 and SGIP_SERVER_PORT=0: nothing to listen on',
  );
  process.exit(2);
}
const { dataDir } = loaded;
const schema = loaded.db.schema;
const handle = await openDatabase({
  databaseUrl: loaded.db.url,
  poolSize: loaded.db.poolSize,
  prepare: loaded.db.prepare,
  ...(schema ? { schema } : {}),
});
// the app gives the services (acceptance, ledger); it never listens for HTTP, only the SMPP module does (on ready)
const app = await buildApp({ db: handle.db, dataDir, logger: { level: loaded.logLevel }, config, purgeEveryMs: 0 });
try {
  await app.ready();
} catch (err) {
  app.log.error({ err }, 'cannot start the SMPP listener');
  await handle.close();
  process.exit(1);
}
const server = app.services.smppServer;
// one line the operator (and tests) can read: where it listens
console.log(
  `smpp-server ready: port ${server?.port ?? 0}${server?.tlsPort ? ` tls ${server.tlsPort}` : ''}${app.services.cmppServer ? ` cmpp ${app.services.cmppServer.port}` : ''}${app.services.smgpServer ? ` smgp ${app.services.smgpServer.port}` : ''}${app.services.sgipServer ? ` sgip ${app.services.sgipServer.port}` : ''}, process ${server?.processId ?? ''}, database ${handle.location}`,
);

closeOnSignals(app.log, 'shutting down', async () => {
  await app.close();
  await handle.close();
});
