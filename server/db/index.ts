/**
 * Database connection: embedded PGlite (file-backed under DATA_DIR/pgdata, or in memory for
 * tests) by default, or a PostgreSQL pool when a database URL is given. Same migrations and
 * queries for both.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import type { Database } from './types';
import { migrateToLatest } from './migrations';
import { prepareHotStatements, type PrepareOptions } from './prepared';
import { statementPerTurn } from './pglite-turns';

export type { Database } from './types';
export type Db = Kysely<Database>;

export interface CreateDbOptions {
  /** postgres://… : use PostgreSQL instead of the embedded PGlite */
  databaseUrl?: string;
  /** PGlite keeps its files in `${dataDir}/pgdata` */
  dataDir?: string;
  /** PGlite in memory (tests) */
  memory?: boolean;
  /** PGlite in memory, started from this dump of a data directory (`dumpDataDir()`: tests start from a migrated, seeded template) */
  loadDataDir?: Blob;
  /** PostgreSQL: put every table in this schema (search_path); tests use one schema per file */
  schema?: string;
  /** PostgreSQL pool size */
  poolSize?: number;
  /**
   * PostgreSQL: `statement_timeout` of every pooled connection, in ms (0 / undefined: none). A
   * statement that runs longer is cancelled by the server (SQLSTATE 57014) and its request answers
   * 查询超时 (server/http/errors.ts). Migrations run without it (openDatabase). PGlite has none: it
   * runs each statement to its end in the server's own thread (its statement_timeout never fires).
   */
  statementTimeoutMs?: number;
  /** PostgreSQL: name the statements this process runs often (server/db/prepared.ts; default: DB_PREPARE_THRESHOLD, DB_PREPARED_MAX) */
  prepare?: PrepareOptions;
}

export interface DbHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** where the data lives, for logs */
  location: string;
  /** closes the pool or PGlite cleanly (a restart keeps the data) and releases the data lock */
  close(): Promise<void>;
  /** PGlite: its data directory as an uncompressed tar (a template for `loadDataDir`) */
  dump?(): Promise<Blob>;
}

const statements = new AsyncLocalStorage<{ n: number }>();

/** Kysely's log hook: counts each statement for the countQueries() it runs under (if any). */
function countStatement(_e: LogEvent): void {
  const c = statements.getStore();
  if (c) c.n++;
}

/** Told of every statement of a database handle: its time in ms and whether it failed (`observeStatements`). */
export type StatementObserver = (ms: number, failed: boolean) => void;

/** What the metrics read of a handle (server/modules/metrics): its driver, its pool, who observes its statements. */
interface HandleInfo {
  kind: DbHandle['kind'];
  pool: pg.Pool | null;
  /** the pool's most connections */
  max: number;
  observers: Set<StatementObserver>;
}
const handles = new WeakMap<Db, HandleInfo>();

/**
 * Kysely's log hook of one handle: the countQueries() count, then the observers (none unless the
 * metrics module is on: then one Set lookup and a call each, beside the statement's own timing,
 * which Kysely takes for this hook anyway).
 */
function logHook(observers: Set<StatementObserver>) {
  return (e: LogEvent) => {
    countStatement(e);
    if (observers.size) for (const f of observers) f(e.queryDurationMillis, e.level === 'error');
  };
}

/**
 * Calls `fn` after every statement of `db` (its transactions' too) with its time in ms, until the
 * returned function is called. The metrics module's statement histogram; a handle shared by several
 * apps (tests) tells each of them.
 */
export function observeStatements(db: Db, fn: StatementObserver): () => void {
  const info = handles.get(db);
  if (!info) return () => {};
  info.observers.add(fn);
  return () => info.observers.delete(fn);
}

/** The PostgreSQL pool's connections now (null on PGlite, which has one connection and no pool). */
export function poolStats(db: Db): { max: number; total: number; idle: number; waiting: number } | null {
  const info = handles.get(db);
  if (!info?.pool) return null;
  return { max: info.max, total: info.pool.totalCount, idle: info.pool.idleCount, waiting: info.pool.waitingCount };
}

/** The driver under a handle ('pglite' or 'postgres'; undefined for a Kysely made elsewhere). */
export function databaseKind(db: Db): DbHandle['kind'] | undefined {
  return handles.get(db)?.kind;
}

/**
 * Runs `fn` and counts the database statements it makes (and everything it awaits: a request
 * sent with app.inject, its hooks and handler). Tests hold a request path to its number of round
 * trips with it (tests/server/list-queries.test.ts).
 */
export async function countQueries<T>(fn: () => Promise<T>): Promise<{ result: T; queries: number }> {
  const c = { n: 0 };
  const result = await statements.run(c, fn);
  return { result, queries: c.n };
}

/** One process at a time may open a PGlite data directory: a second one would corrupt it. */
function acquireDataLock(dir: string): () => void {
  const lock = path.join(dir, 'pgdata.lock');
  try {
    const pid = Number(fs.readFileSync(lock, 'utf8'));
    if (pid && pid !== process.pid) {
      let alive = true;
      try {
        process.kill(pid, 0);
      } catch {
        alive = false;
      }
      if (alive) {
        throw new Error(
          `数据目录 ${dir} 正被进程 ${pid} 使用（内嵌数据库只允许一个进程打开）。请先停止该进程，或使用 DATABASE_URL 连接 PostgreSQL。`,
        );
      }
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException)?.code !== 'ENOENT') throw e;
  }
  fs.writeFileSync(lock, String(process.pid));
  return () => {
    try {
      if (fs.readFileSync(lock, 'utf8') === String(process.pid)) fs.unlinkSync(lock);
    } catch {
      /* already gone */
    }
  };
}

/**
 * PostgreSQL's DATE (a calendar day: accounts.expire_date, the report days) is read as its text
 * 'YYYY-MM-DD' by both drivers. Their default differs: node-postgres makes a Date at the local
 * midnight, PGlite one at UTC midnight, so the same day could print as another day.
 */
const DATE_OID = 1082;
const dayText = (value: string) => value;
/**
 * A BIGINT (the ids of messages and the other traffic tables, migration 0050; count(*)) is read as
 * a number while it is a safe integer, else as a BigInt: what PGlite does, so both drivers give the
 * same value (node-postgres' default is the text).
 */
const INT8_OID = 20;
const int8Value = (value: string) => {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : BigInt(value);
};
const INT8_ARRAY_OID = 1016;
const int8Texts = pg.types.getTypeParser(INT8_ARRAY_OID as Parameters<typeof pg.types.getTypeParser>[0], 'text') as (
  value: string,
) => (string | null)[];
const int8Values = (value: string) => int8Texts(value).map((v) => (v === null ? null : int8Value(v)));
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    format === 'binary'
      ? pg.types.getTypeParser(oid, format)
      : oid === DATE_OID
        ? dayText
        : oid === INT8_OID
          ? int8Value
          : oid === INT8_ARRAY_OID
            ? int8Values
            : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export async function createDb(opts: CreateDbOptions): Promise<DbHandle> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 10,
      types: pgTypes,
      ...(opts.statementTimeoutMs ? { statement_timeout: Math.round(opts.statementTimeoutMs) } : {}),
      ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
    });
    prepareHotStatements(pool, opts.prepare);
    const observers = new Set<StatementObserver>();
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: logHook(observers) });
    handles.set(db, { kind: 'postgres', pool, max: opts.poolSize ?? 10, observers });
    const url = new URL(opts.databaseUrl);
    return {
      db,
      kind: 'postgres',
      location: `postgres://${url.host}${url.pathname}${opts.schema ? ` (schema ${opts.schema})` : ''}`,
      close: () => db.destroy(),
    };
  }
  let release = () => {};
  let pglite: PGlite;
  let location = 'memory';
  if (opts.memory) {
    pglite = await PGlite.create({
      parsers: { [DATE_OID]: dayText },
      ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
    });
  } else {
    if (!opts.dataDir) throw new Error('createDb: dataDir or databaseUrl is required');
    fs.mkdirSync(opts.dataDir, { recursive: true });
    release = acquireDataLock(opts.dataDir);
    location = path.join(opts.dataDir, 'pgdata');
    try {
      pglite = await PGlite.create(location, { parsers: { [DATE_OID]: dayText } });
    } catch (e) {
      release();
      throw e;
    }
  }
  statementPerTurn(pglite);
  const observers = new Set<StatementObserver>();
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }), log: logHook(observers) });
  handles.set(db, { kind: 'pglite', pool: null, max: 1, observers });
  return {
    db,
    kind: 'pglite',
    location,
    dump: () => pglite.dumpDataDir('none'),
    async close() {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
      release();
    },
  };
}

/** createDb + migrations: what the server, the CLI and the tests start with. */
export async function openDatabase(opts: CreateDbOptions): Promise<DbHandle> {
  if (opts.databaseUrl && opts.statementTimeoutMs) {
    // a migration may take longer than a request's statement (an index built over a large table)
    const migrating = await openDatabase({ ...opts, statementTimeoutMs: undefined, poolSize: 1 });
    await migrating.close();
    return createDb(opts);
  }
  const handle = await createDb(opts);
  try {
    await migrateToLatest(handle.db, opts.schema);
  } catch (e) {
    await handle.close();
    throw e;
  }
  return handle;
}
