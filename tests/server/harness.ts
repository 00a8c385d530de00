/**
 * Test harness: a fresh database per test file on each backend — in-memory PGlite always, and
 * PostgreSQL when TEST_DATABASE_URL is set (a unique schema per server, dropped afterwards) —
 * plus an HTTP client over `app.inject` with a cookie jar and the CSRF header.
 *
 *   describe.each(backends)('%s', (backend) => { const t = useServer(backend); ... })
 */
import { farIds } from './far-ids';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp, type BuildAppOptions } from '../../server/app';
import type { AppConfig } from '../../server/config';
import { createDb, openDatabase, type DbHandle } from '../../server/db';
import { seed } from '../../server/db/seed';
import { trekCaptcha } from '../../server/modules/captcha/service';
import { latestMailCode, latestSmsCode } from '../../server/modules/verification/outbox';
import { testResolver } from '../fixtures/resolver';
import { startOfBusinessDay } from '../../server/lib/time';

// here, not in global-setup.ts: every project that compiles the harness sees it
declare module 'vitest' {
  export interface ProvidedContext {
    /** the dump of a migrated, seeded PGlite data directory (tests/server/global-setup.ts) */
    pgliteTemplate: string;
  }
}

export type Backend = 'pglite' | 'postgres';
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
export const backends: Backend[] = TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export const DEMO_PASSWORD = 'Demo1234';
export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** A movable clock. */
export class TestClock {
  t = Date.now();
  now = () => new Date(this.t);
  advance(ms: number) {
    this.t += ms;
  }
  /**
   * Moves forward to 01:00 of the next business day (Asia/Shanghai): a test of a per-day limit then
   * cannot straddle midnight, whatever the time of day it runs at.
   */
  toNextBusinessMorning() {
    this.t = startOfBusinessDay(new Date(this.t + 86_400_000)).getTime() + 3_600_000;
  }
}

export interface ApiResponse {
  status: number;
  headers: LightMyRequestResponse['headers'];
  body: any;
  raw: LightMyRequestResponse;
  /** Set-Cookie values of this response, by name */
  setCookies: Record<string, string>;
}

/** A browser: keeps cookies, echoes XSRF-TOKEN in X-XSRF-TOKEN, posts forms by default. */
export class Client {
  readonly jar = new Map<string, string>();
  constructor(
    readonly server: TestServer,
    readonly ip = `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0] || 1}`,
  ) {}

  private cookieHeader() {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(
    method: string,
    url: string,
    payload?: unknown,
    opts: { json?: boolean; headers?: Record<string, string>; csrf?: boolean } = {},
  ): Promise<ApiResponse> {
    const headers: Record<string, string> = { host: 'localhost:8080', ...opts.headers };
    if (this.jar.size) headers.cookie = this.cookieHeader();
    if (opts.csrf !== false && this.jar.has('XSRF-TOKEN') && !('x-xsrf-token' in headers))
      headers['x-xsrf-token'] = this.jar.get('XSRF-TOKEN')!;
    let body: string | Buffer | undefined;
    if (payload !== undefined) {
      if (opts.json || typeof payload === 'string') {
        body = typeof payload === 'string' ? payload : JSON.stringify(payload);
        headers['content-type'] ??= opts.json ? 'application/json' : 'application/x-www-form-urlencoded';
      } else {
        const form = new URLSearchParams();
        for (const [k, v] of Object.entries(payload as Record<string, unknown>))
          if (v !== undefined) form.append(k, String(v));
        body = form.toString();
        headers['content-type'] = 'application/x-www-form-urlencoded';
      }
    }
    const raw = await this.server.app.inject({
      method: method as any,
      url,
      headers,
      payload: body,
      remoteAddress: this.ip,
    });
    const setCookies: Record<string, string> = {};
    for (const c of raw.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      setCookies[c.name] = c.value;
      const expired =
        c.value === '' || (c.maxAge !== undefined && c.maxAge <= 0) || (c.expires && c.expires.getTime() < Date.now());
      if (expired) this.jar.delete(c.name);
      else this.jar.set(c.name, c.value);
    }
    let parsed: any = raw.body;
    if (String(raw.headers['content-type'] ?? '').includes('json')) parsed = raw.json();
    return { status: raw.statusCode, headers: raw.headers, body: parsed, raw, setCookies };
  }

  get(url: string) {
    return this.request('GET', url);
  }
  post(url: string, payload?: unknown, opts?: { json?: boolean; headers?: Record<string, string>; csrf?: boolean }) {
    return this.request('POST', url, payload, opts);
  }

  /** GET /login/timeout once so that the XSRF-TOKEN cookie is set. */
  async init() {
    await this.get('/api/login/timeout');
    return this;
  }

  /** Passes the slider with a human-looking track; returns { server, token }. */
  async slider(width = 260): Promise<{ server: string; token: string }> {
    const { body } = await this.get('/api/captcha/slider');
    const server = body.data.server;
    const v = await this.post(
      '/api/captcha/slider/verify',
      { server, width, track: humanTrack(width) },
      { json: true },
    );
    if (v.body.code !== 0) throw new Error(`slider failed: ${JSON.stringify(v.body)}`);
    return { server, token: v.body.data.token };
  }

  /** Login with the slider passed; `password` is the plain password (sent as its SHA-256). */
  async login(username: string, password = DEMO_PASSWORD, extra: Record<string, unknown> = {}) {
    const s = await this.slider();
    return this.post('/api/login', { username, password: sha256(password), ...s, ...extra });
  }

  /** POST /userCenter/sendCode with a passed slider (the anonymous registration code needs one). */
  async sendCode(payload: Record<string, unknown>) {
    const s = await this.slider();
    return this.post('/api/userCenter/sendCode', { ...payload, ...s });
  }

  /** Image captcha: fetches /captcha.jpg and returns the answer the generator recorded. */
  async imageCaptcha(): Promise<string> {
    const r = await this.get('/api/captcha.jpg');
    if (r.status !== 200) throw new Error('captcha.jpg failed');
    return this.server.lastCaptchaAnswer!;
  }
}

/**
 * A track like a person's: accelerating then slowing down, a small wobble back, uneven sampling,
 * ~640 ms, the hand drifting a pixel or two vertically, ending at the width. [x, ms, y] points.
 */
export function humanTrack(width: number, opts: { ms?: number; points?: number } = {}): [number, number, number][] {
  const ms = opts.ms ?? 640;
  const n = opts.points ?? 24;
  const track: [number, number, number][] = [];
  for (let i = 0; i <= n; i++) {
    const p = i / n;
    const eased = 1 - Math.pow(1 - p, 2.2);
    let x = Math.round(width * eased * 100) / 100;
    if (i === n - 3) x -= 1.5;
    const jitterMs = i > 0 && i < n ? (i % 3) - 1 : 0;
    track.push([Math.max(0, x), Math.round(ms * p) + jitterMs, [0, 0, 1, 1, 2, 1][i % 6]]);
  }
  track[n][0] = width;
  return track;
}

export interface TestServer {
  app: FastifyInstance;
  handle: DbHandle;
  dataDir: string;
  clock: TestClock;
  backend: Backend;
  lastCaptchaAnswer?: string;
  client(ip?: string): Client;
  smsCode(mobile: string, purpose?: string): string | undefined;
  mailCode(to: string): string | undefined;
  close(): Promise<void>;
}

export interface ServerOptions {
  config?: Partial<AppConfig>;
  schemaDir?: string;
  staticDir?: string;
  /** file-backed PGlite in this directory instead of memory (restart tests) */
  pgliteDir?: string;
  /** PostgreSQL: reuse this schema (restart tests) and do not drop it on close */
  pgSchema?: string;
  keepSchema?: boolean;
  /** PostgreSQL: the pool's statement_timeout (DB_STATEMENT_TIMEOUT_MS of the server) */
  statementTimeoutMs?: number;
  build?: Partial<BuildAppOptions>;
}

export async function withPg<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** One statement on TEST_DATABASE_URL's own connection (a schema made or dropped around a test). */
export async function pgAdmin(q: string): Promise<void> {
  await withPg((c) => c.query(q));
}

/** A database of a test's own, not migrated (scratchDb). */
export interface ScratchDb {
  /** the PGlite directory (empty on PostgreSQL) */
  dir: string;
  /** the PostgreSQL schema (made on PostgreSQL only) */
  schema: string;
  /** the schema the migrations run in: `schema`, or 'public' on PGlite */
  migrationSchema: string;
  /** a handle on it (close it before `remove`) */
  open: () => Promise<DbHandle>;
  /** the directory and the schema, gone */
  remove: () => Promise<void>;
}

/**
 * An empty database for a migration test, which migrates it to an old version itself: a PGlite
 * directory, or a new schema on TEST_DATABASE_URL.
 */
export async function scratchDb(backend: Backend): Promise<ScratchDb> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smsp-mig-'));
  const schema = `t_${randomBytes(6).toString('hex')}`;
  if (backend === 'postgres') await pgAdmin(`create schema ${schema}`);
  return {
    dir,
    schema,
    migrationSchema: backend === 'pglite' ? 'public' : schema,
    open: () =>
      backend === 'pglite'
        ? createDb({ dataDir: dir })
        : createDb({ databaseUrl: TEST_DATABASE_URL!, schema, poolSize: 2 }),
    remove: async () => {
      fs.rmSync(dir, { recursive: true, force: true });
      if (backend === 'postgres') await pgAdmin(`drop schema if exists ${schema} cascade`);
    },
  };
}

let template: Blob | undefined | null = null;
/** tests/server/global-setup.ts's migrated, seeded PGlite (read once per worker), if it ran */
function pgliteTemplate(): Blob | undefined {
  if (template === null) {
    const file = inject('pgliteTemplate');
    template = file && fs.existsSync(file) ? new Blob([fs.readFileSync(file)]) : undefined;
  }
  return template;
}

export async function startServer(backend: Backend, opts: ServerOptions = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smsp-test-'));
  const clock = new TestClock();
  let schema: string | undefined;
  let handle: DbHandle;
  if (backend === 'postgres') {
    if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
    schema = opts.pgSchema ?? `t_${randomBytes(6).toString('hex')}`;
    await withPg((c) => c.query(`create schema if not exists ${schema}`));
    try {
      handle = await openDatabase({
        databaseUrl: TEST_DATABASE_URL,
        schema,
        poolSize: 4,
        statementTimeoutMs: opts.statementTimeoutMs,
      });
    } catch (e) {
      if (!opts.pgSchema) await withPg((c) => c.query(`drop schema if exists ${schema} cascade`));
      throw e;
    }
  } else if (opts.pgliteDir) {
    handle = await openDatabase({ dataDir: opts.pgliteDir });
  } else {
    handle = await openDatabase({ memory: true, loadDataDir: pgliteTemplate() });
  }
  // the template is seeded already
  if (backend === 'postgres' || opts.pgliteDir || !pgliteTemplate()) {
    await seed(handle.db);
    await farIds(handle.db);
  }
  const server: TestServer = {
    app: undefined as unknown as FastifyInstance,
    handle,
    dataDir,
    clock,
    backend,
    client: (ip?: string) => new Client(server, ip),
    smsCode: (mobile, purpose) => latestSmsCode(dataDir, mobile, purpose),
    mailCode: (to) => latestMailCode(dataDir, to),
    async close() {
      await server.app.close();
      await handle.close();
      if (schema && !opts.keepSchema) await withPg((c) => c.query(`drop schema ${schema} cascade`));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  server.app = await buildApp({
    db: handle.db,
    dataDir,
    now: clock.now,
    schemaDir: opts.schemaDir,
    staticDir: opts.staticDir,
    purgeEveryMs: 0,
    uploadPurgeEveryMs: 0,
    imageCaptcha: async () => {
      const c = await trekCaptcha();
      server.lastCaptchaAnswer = c.answer;
      return c;
    },
    config: { ipRateLimitPerMinute: 1000, checkResponses: true, ...opts.config },
    resolveHost: testResolver,
    ...opts.build,
  });
  await server.app.ready();
  (server as any).schema = schema;
  return server;
}

/** One server per describe block: `const t = useServer(backend)`, then `t.server` in tests. */
export function useServer(backend: Backend, opts: ServerOptions = {}) {
  const holder = {} as { server: TestServer };
  beforeAll(async () => {
    holder.server = await startServer(backend, opts);
  });
  afterAll(async () => {
    await holder.server?.close();
  });
  return holder;
}

/** Reads a row count straight from the database (to prove that a refused call changed nothing). */
export async function countRows(
  server: TestServer,
  table: 'accounts' | 'sessions' | 'remember_tokens' | 'verification_codes' | 'captcha_challenges',
) {
  const r = await server.handle.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
