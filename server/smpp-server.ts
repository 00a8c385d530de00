/**
 * The customers' SMPP listener alone (`npm run smpp-server`; docs/api-smpp.md "Several
 * processes"): no HTTP API, no dispatcher. Several of these (and API servers, which listen too
 * unless SMPP_SERVER_PORT=0) may run behind a TCP balancer over one PostgreSQL: the sessions'
 * `nodenum` count, the `accessSpeed` bucket and the receipt / uplink queues are in the database.
 *
 * Environment: DATABASE_URL (required: PostgreSQL), SMPP_SERVER_PORT (2775), SMPP_SERVER_HOST
 * (0.0.0.0), SMPP_SERVER_TLS_PORT / SMPP_SERVER_TLS_CERT / SMPP_SERVER_TLS_KEY, SMS_SOURCE_PREFIX
 * (106900, as the dispatch's), DB_POOL_SIZE (10), DATABASE_SCHEMA (the schema the tables live in,
 * when not public: tests), DATA_DIR (./data), LOG_LEVEL (info).
 */
import path from 'node:path';
import { buildApp } from './app';
import { configFromEnv } from './config';
import { openDatabase } from './db';
import { closeOnSignals } from './lib/shutdown';

const env = process.env;
if (!env.DATABASE_URL) {
  console.error('npm run smpp-server 需要 DATABASE_URL（PostgreSQL，与 API 服务和发送进程共用的数据库）');
  process.exit(2);
}
let config;
try {
  config = { smppServerPort: 2775, cmppServerPort: 7890, ...configFromEnv(env) };
} catch (e) {
  console.error((e as Error).message);
  process.exit(2);
}
if (!config.smppServerPort && !config.cmppServerPort) {
  console.error('SMPP_SERVER_PORT=0 and CMPP_SERVER_PORT=0: nothing to listen on');
  process.exit(2);
}
const dataDir = path.resolve(env.DATA_DIR ?? './data');
const schema = env.DATABASE_SCHEMA?.trim();
if (schema && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
  console.error('DATABASE_SCHEMA: a plain lower-case PostgreSQL schema name');
  process.exit(2);
}
const handle = await openDatabase({ databaseUrl: env.DATABASE_URL, poolSize: Number(env.DB_POOL_SIZE) || 10, ...(schema ? { schema } : {}) });
// the app gives the services (acceptance, ledger); it never listens for HTTP, only the SMPP module does (on ready)
const app = await buildApp({ db: handle.db, dataDir, logger: { level: env.LOG_LEVEL ?? 'info' }, config, purgeEveryMs: 0 });
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
  `smpp-server ready: port ${server?.port ?? 0}${server?.tlsPort ? ` tls ${server.tlsPort}` : ''}${app.services.cmppServer ? ` cmpp ${app.services.cmppServer.port}` : ''}, process ${server?.processId ?? ''}, database ${handle.location}`,
);

closeOnSignals(app.log, 'shutting down', async () => {
  await app.close();
  await handle.close();
});
