/**
 * Metrics and health (issue 39; docs/api-metrics.md) on both databases: who may read GET /metrics
 * (loopback by the socket's address, the bearer token, METRICS_PORT's own listener), its content
 * type and the named families, /healthz and /readyz (the console's SPA fallback never takes them;
 * readiness fails with the database gone, a dispatcher expected but not running), the dispatcher's
 * final outcomes by carrier and channel, and the per-minute series: two app instances over one
 * database adding up, report_fold()'s message figures, the database gauges, the purge.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { createDb, openDatabase, type DbHandle } from '../../server/db';
import { Dispatcher } from '../../server/modules/dispatch/dispatcher';
import {
  expectDispatcher,
  metricsAccess,
  watchDispatcher,
  type DispatcherView,
  type DoorView,
} from '../../server/modules/metrics';
import { insertFixtureTask } from '../../bench/lib/dispatch-fixture';
import { FakeLink } from '../fixtures/fake-smsc';
import { backends, pgAdmin, TEST_DATABASE_URL, useServer, type TestServer } from './harness';
import { formatDateTime, startOfBusinessDay } from '../../server/lib/time';

const TOKEN = 'metrics-token-0123456789abcdef';

/** Prometheus text → its samples: `name{a="b",…} value` */
function samples(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  const out: { name: string; labels: Record<string, string>; value: number }[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    out.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return out;
}

/** the value of the sample of `name` whose labels include `labels` (undefined: none) */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  return samples(text).find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    ?.value;
}

const get = (app: FastifyInstance, url: string, remoteAddress: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, remoteAddress, headers: { host: 'localhost:8080', ...headers } });

/** a dispatcher's counters as the metrics read them, set by the test */
type Finals = Map<string, { carrier: number; channel: string; delivered: number; failed: number }>;
function fakeDispatcher(): DispatcherView & {
  running: boolean;
  channels: Map<string, { submitted: number; bound: boolean }>;
  finals: Finals;
} {
  const channels = new Map<string, { submitted: number; bound: boolean }>();
  const view = {
    workerId: 'fake',
    running: true,
    get isRunning() {
      return view.running;
    },
    stats: {
      claimed: 7,
      accepted: 5,
      rejected: 1,
      retried: 1,
      unconfirmed: 0,
      receiptsStored: 0,
      receiptsApplied: 4,
      expanded: 0,
      mo: 0,
      recovered: 0,
      marked: 0,
      matchedUnconfirmed: 0,
      errors: 0,
    },
    channels,
    channelCounters: () =>
      [...channels].map(([name, c]) => ({
        name,
        bound: c.bound,
        counters: {
          submitted: c.submitted,
          accepted: c.submitted,
          refused: 0,
          retried: 0,
          unconfirmed: 0,
          receipts: 0,
          latencyMsSum: 12,
          latencyCount: 3,
        },
      })),
    finals: new Map() as Finals,
  };
  return view;
}

/** a door as the metrics read it: `sessions` bound ones, refusals by `code reason` */
function fakeDoor(
  sessions: number,
  refused: Record<string, number>,
): DoorView & { refuse(key: string, n: number): void } {
  const stats = {
    accepted: 3,
    refused: Object.fromEntries(Object.entries(refused).map(([k, count]) => [k, { count, last: '' }])) as Record<
      string,
      { count: number; last: string }
    >,
  };
  return {
    port: 1,
    stats,
    core: { sessions: [...Array.from({ length: sessions }, () => ({ accountId: 1 })), { accountId: null }] },
    connectionCount: () => sessions + 1,
    refuse(key, n) {
      (stats.refused[key] ??= { count: 0, last: '' }).count += n;
    },
  };
}

describe('metricsAccess', () => {
  it('a token wins everywhere; without one, loopback sockets without a forwarding header, or the own port', () => {
    const bearer = { authorization: `Bearer ${TOKEN}` };
    expect(metricsAccess(bearer, '203.0.113.9', TOKEN, false)).toBe('ok');
    expect(metricsAccess(bearer, '203.0.113.9', TOKEN, true)).toBe('ok');
    expect(metricsAccess({ authorization: `bearer   ${TOKEN} ` }, '10.0.0.1', TOKEN, false)).toBe('ok');
    expect(metricsAccess({}, '127.0.0.1', TOKEN, false)).toBe('unauthorized');
    expect(metricsAccess({}, '127.0.0.1', TOKEN, true)).toBe('unauthorized');
    expect(metricsAccess({ authorization: `Bearer ${TOKEN}x` }, '127.0.0.1', TOKEN, false)).toBe('unauthorized');
    expect(metricsAccess({ authorization: `Basic ${TOKEN}` }, '127.0.0.1', TOKEN, false)).toBe('unauthorized');
    expect(metricsAccess({ authorization: 'Bearer ' }, '127.0.0.1', TOKEN, false)).toBe('unauthorized');
    for (const peer of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])
      expect(metricsAccess({}, peer, '', false), peer).toBe('ok');
    for (const peer of ['10.0.0.1', '::ffff:10.0.0.1', '1.127.0.0', '::2', undefined])
      expect(metricsAccess({}, peer, '', false), String(peer)).toBe('forbidden');
    for (const h of ['x-forwarded-for', 'forwarded', 'x-real-ip'])
      expect(metricsAccess({ [h]: '203.0.113.9' }, '127.0.0.1', '', false), h).toBe('forbidden');
    expect(metricsAccess({}, '203.0.113.9', '', true)).toBe('ok');
  });
});

describe.each(backends)('metrics and health (%s)', (backend) => {
  describe('default: /metrics on loopback only', () => {
    const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smsp-static-'));
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>console</title>');
    // X-Forwarded-For from 10/8 would be believed for req.ip: /metrics must not believe it
    const t = useServer(backend, {
      staticDir,
      config: { trustProxy: '10.0.0.0/8', smppServerPort: -1, smppServerHost: '127.0.0.1' },
    });
    afterAll(() => fs.rmSync(staticDir, { recursive: true, force: true }));

    it('answers loopback sockets, never an address a header claims', async () => {
      const { app } = t.server;
      expect((await get(app, '/metrics', '127.0.0.1')).statusCode).toBe(200);
      expect((await get(app, '/metrics', '::1')).statusCode).toBe(200);
      const remote = await get(app, '/metrics', '10.1.2.3');
      expect(remote.statusCode).toBe(403);
      expect(remote.json()).toMatchObject({ code: 403 });
      // a trusted proxy says the client is loopback: the socket is not
      expect((await get(app, '/metrics', '10.1.2.3', { 'x-forwarded-for': '127.0.0.1' })).statusCode).toBe(403);
      // a proxy on the same host forwarding a public client
      expect((await get(app, '/metrics', '127.0.0.1', { 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(403);
      expect((await get(app, '/metrics', '127.0.0.1', { forwarded: 'for=203.0.113.9' })).statusCode).toBe(403);
    });

    it('is never the console page: /metrics, /healthz and /readyz are routes, other paths still get the page', async () => {
      const { app } = t.server;
      const page = await get(app, '/some/console/route', '10.1.2.3');
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      for (const url of ['/metrics', '/healthz', '/readyz']) {
        const r = await get(app, url, '10.1.2.3');
        expect(String(r.headers['content-type']), url).toContain('application/json');
        expect(r.body, url).not.toContain('<title>');
      }
      // HEAD too (a load balancer's probe)
      expect((await app.inject({ method: 'HEAD', url: '/healthz', remoteAddress: '10.1.2.3' })).statusCode).toBe(200);
    });

    it('serves the Prometheus text with the named families', async () => {
      const { app } = t.server;
      await get(app, '/api/login/timeout', '10.1.2.3');
      await get(app, '/api/no/such/route', '10.1.2.3');
      const fake = fakeDispatcher();
      fake.channels.set('a', { submitted: 11, bound: true });
      fake.channels.set('', { submitted: 2, bound: false });
      fake.finals.set('1 a', { carrier: 1, channel: 'a', delivered: 9, failed: 1 });
      watchDispatcher(app.ctx, fake);
      const r = await get(app, '/metrics', '127.0.0.1');
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(r.headers['cache-control']).toBe('no-store');
      const text = r.body;
      // HTTP by route pattern and code; an unknown path is one label, not its URL
      expect(
        valueOf(text, 'sms_http_request_duration_seconds_count', {
          method: 'GET',
          route: '/api/login/timeout',
          code: '200',
        }),
      ).toBeGreaterThanOrEqual(1);
      expect(
        valueOf(text, 'sms_http_request_duration_seconds_count', { route: '(unmatched)', code: '404' }),
      ).toBeGreaterThanOrEqual(1);
      expect(text).not.toContain('/api/no/such/route');
      // the database
      expect(valueOf(text, 'sms_db_statement_duration_seconds_count')).toBeGreaterThan(0);
      expect(valueOf(text, 'sms_db_statement_errors_total')).toBe(0);
      if (backend === 'postgres') {
        expect(valueOf(text, 'sms_db_pool_connections', { state: 'max' })).toBe(4);
        expect(valueOf(text, 'sms_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
        expect(valueOf(text, 'sms_db_pool_waiting')).toBe(0);
      } else expect(valueOf(text, 'sms_db_pool_connections', { state: 'max' })).toBeUndefined();
      // the SMPP door listens in this server: its sessions and submits; the others are off
      expect(valueOf(text, 'sms_door_sessions', { protocol: 'smpp' })).toBe(0);
      expect(valueOf(text, 'sms_door_submits_total', { protocol: 'smpp', result: 'accepted' })).toBe(0);
      expect(valueOf(text, 'sms_door_sessions', { protocol: 'cmpp' })).toBeUndefined();
      // the dispatcher, its channels and final outcomes
      expect(valueOf(text, 'sms_dispatch_running')).toBe(1);
      expect(valueOf(text, 'sms_dispatch_claimed_total')).toBe(7);
      expect(valueOf(text, 'sms_dispatch_outcomes_total', { outcome: 'accepted' })).toBe(5);
      expect(valueOf(text, 'sms_dispatch_outcomes_total', { outcome: 'unconfirmed' })).toBe(0);
      expect(valueOf(text, 'sms_dispatch_receipts_total', { result: 'applied' })).toBe(4);
      expect(valueOf(text, 'sms_dispatch_queue_depth')).toBe(0);
      expect(valueOf(text, 'sms_dispatch_inflight')).toBeGreaterThanOrEqual(0);
      expect(valueOf(text, 'sms_dispatch_finals_total', { carrier: '1', channel: 'a', result: 'delivered' })).toBe(9);
      expect(valueOf(text, 'sms_channel_messages_total', { channel: 'a', outcome: 'submitted' })).toBe(11);
      expect(valueOf(text, 'sms_channel_messages_total', { channel: '(default)', outcome: 'submitted' })).toBe(2);
      expect(valueOf(text, 'sms_channel_bound', { channel: 'a' })).toBe(1);
      expect(valueOf(text, 'sms_channel_submit_seconds_total', { channel: 'a' })).toBeCloseTo(0.012);
      expect(valueOf(text, 'sms_channel_submit_slices_total', { channel: 'a' })).toBe(3);
      // the process: memory, event-loop lag
      expect(valueOf(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(valueOf(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
      expect(valueOf(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
      // every family once (the process's and the app's registries never share a name)
      const families = text.split('\n').filter((l) => l.startsWith('# TYPE '));
      expect(new Set(families).size).toBe(families.length);
      fake.running = false;
      expect(valueOf((await get(app, '/metrics', '127.0.0.1')).body, 'sms_dispatch_running')).toBe(0);
    });

    it('/healthz without the database; /readyz: database, migrations, the doors and the dispatcher this process runs', async () => {
      const { app } = t.server;
      expect((await get(app, '/healthz', '10.1.2.3')).json()).toEqual({ status: 'ok' });
      // the fake dispatcher of the test above is stopped: a process that runs one is not ready
      let r = await get(app, '/readyz', '10.1.2.3');
      expect(r.statusCode).toBe(503);
      expect(r.json()).toMatchObject({
        status: 'unready',
        reason: 'dispatcher: stopped',
        checks: { database: 'ok', migrations: 'ok', dispatcher: 'stopped' },
      });
      const fake = fakeDispatcher();
      watchDispatcher(app.ctx, fake);
      r = await get(app, '/readyz', '10.1.2.3');
      expect(r.statusCode).toBe(200);
      expect(r.json()).toEqual({
        status: 'ready',
        checks: {
          database: 'ok',
          migrations: 'ok',
          dispatcher: 'running',
          smpp: `listening on ${app.services.smppServer!.port}`,
        },
      });
      expect(r.headers['cache-control']).toBe('no-store');
    });

    it("counts a real dispatcher's final outcomes by carrier and channel, once committed", async () => {
      const server: TestServer = t.server;
      const account = await server.handle.db
        .selectFrom('accounts')
        .select('id')
        .where('clientid', '=', 'client1')
        .executeTakeFirstOrThrow();
      const { id } = await insertFixtureTask(server.handle.db, {
        accountId: account.id,
        count: 12,
        nextAt: server.clock.now(),
      });
      const link = new FakeLink((req) => (req.to.endsWith('3') ? 'reject' : 'accept'));
      link.delivered = (ref) => ref % 3 !== 0;
      const d = new Dispatcher(server.app.ctx, [{ name: 'ch1', link }], {
        maintenanceMs: 0,
        batchSize: 5,
        markSubmittedMs: 0,
      });
      while ((await d.dispatchOnce()) > 0);
      await link.flushReceipts();
      await d.applyOnce();
      const r = await sql<{ carrier: number; delivered: number; failed: number }>`
        select carrier, count(*) filter (where state = 3)::int as delivered, count(*) filter (where state in (4, 6))::int as failed
        from sms_messages where task_id = ${id} group by carrier order by carrier`.execute(server.handle.db);
      const counted = [...d.finals.values()].sort((a, b) => a.carrier - b.carrier);
      expect(counted).toEqual(
        r.rows.map((x) => ({ carrier: x.carrier, channel: 'ch1', delivered: x.delivered, failed: x.failed })),
      );
      expect(counted.reduce((n, f) => n + f.delivered + f.failed, 0)).toBe(12);
      watchDispatcher(server.app.ctx, d);
      const text = (await get(server.app, '/metrics', '127.0.0.1')).body;
      for (const f of counted)
        expect(
          valueOf(text, 'sms_dispatch_finals_total', {
            carrier: String(f.carrier),
            channel: 'ch1',
            result: 'delivered',
          }),
        ).toBe(f.delivered);
      expect(valueOf(text, 'sms_channel_messages_total', { channel: 'ch1', outcome: 'submitted' })).toBe(12);
    });
  });

  describe('METRICS_TOKEN', () => {
    const t = useServer(backend, { config: { metricsToken: TOKEN } });

    it('answers the bearer token from anywhere, and nothing else, loopback included', async () => {
      const { app } = t.server;
      const none = await get(app, '/metrics', '127.0.0.1');
      expect(none.statusCode).toBe(401);
      expect(none.headers['www-authenticate']).toBe('Bearer');
      expect(
        (await get(app, '/metrics', '127.0.0.1', { authorization: 'Bearer wrong-token-0123456789' })).statusCode,
      ).toBe(401);
      const ok = await get(app, '/metrics', '203.0.113.9', { authorization: `Bearer ${TOKEN}` });
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toContain('# TYPE sms_http_request_duration_seconds histogram');
    });
  });

  describe('METRICS_PORT', () => {
    const t = useServer(backend, { config: { metricsPort: -1, metricsHost: '127.0.0.1' } });

    it('serves /metrics, /healthz and /readyz on its own listener; the main port answers 404 for /metrics', async () => {
      const { app } = t.server;
      expect((await get(app, '/metrics', '127.0.0.1')).statusCode).toBe(404);
      expect((await get(app, '/healthz', '127.0.0.1')).statusCode).toBe(200);
      const port = app.services.metricsListener!.port;
      expect(port).toBeGreaterThan(0);
      const base = `http://127.0.0.1:${port}`;
      const m = await fetch(`${base}/metrics`);
      expect(m.status).toBe(200);
      expect(m.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(valueOf(await m.text(), 'process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
      expect(((await (await fetch(`${base}/readyz`)).json()) as { status: string }).status).toBe('ready');
      expect((await fetch(`${base}/api/login/timeout`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405);
    });
  });

  describe('METRICS=0', () => {
    const t = useServer(backend, { config: { metrics: false } });

    it('collects nothing: /metrics 404, no registry, no final counts; health answers', async () => {
      const { app } = t.server;
      expect(app.metricsRegistry).toBeNull();
      expect((await get(app, '/metrics', '127.0.0.1')).statusCode).toBe(404);
      expect((await get(app, '/readyz', '127.0.0.1')).statusCode).toBe(200);
      const account = await t.server.handle.db
        .selectFrom('accounts')
        .select('id')
        .where('clientid', '=', 'client1')
        .executeTakeFirstOrThrow();
      await insertFixtureTask(t.server.handle.db, { accountId: account.id, count: 3, nextAt: t.server.clock.now() });
      const link = new FakeLink(() => 'reject');
      const d = new Dispatcher(app.ctx, link, { maintenanceMs: 0, markSubmittedMs: 0 });
      while ((await d.dispatchOnce()) > 0);
      expect(d.stats.rejected).toBe(3);
      expect(d.finals.size).toBe(0);
    });
  });

  describe('readiness without a database', () => {
    /** a migrated database of its own: PostgreSQL in a schema of its own (dropped by `drop`), PGlite in memory */
    async function freshHandle(): Promise<{ handle: DbHandle; drop: () => Promise<void> }> {
      if (backend !== 'postgres') return { handle: await openDatabase({ memory: true }), drop: async () => {} };
      const schema = `t_${randomBytes(6).toString('hex')}`;
      await pgAdmin(`create schema ${schema}`);
      const handle = await openDatabase({ databaseUrl: TEST_DATABASE_URL, schema, poolSize: 1 });
      return { handle, drop: () => pgAdmin(`drop schema ${schema} cascade`) };
    }

    /** an app over a handle the test breaks, and no migration run (the database may not be there) */
    async function appOver(handle: DbHandle) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smsp-metrics-'));
      const app = await buildApp({
        db: handle.db,
        dataDir,
        purgeEveryMs: 0,
        uploadPurgeEveryMs: 0,
        reportFoldEveryMs: 0,
        config: { monitorFlushMs: 0 },
      });
      await app.ready();
      return { app, dataDir };
    }

    it('a closed database: /readyz 503 with the reason, /healthz still 200', async () => {
      const { handle, drop } = await freshHandle();
      const { app, dataDir } = await appOver(handle);
      try {
        expect((await get(app, '/readyz', '127.0.0.1')).statusCode).toBe(200);
        await handle.close();
        const r = await get(app, '/readyz', '127.0.0.1');
        expect(r.statusCode).toBe(503);
        expect(r.json()).toMatchObject({
          status: 'unready',
          reason: expect.stringMatching(/^database: unreachable/),
          checks: { database: expect.stringMatching(/^unreachable/) },
        });
        expect((await get(app, '/healthz', '127.0.0.1')).statusCode).toBe(200);
        // /metrics still answers (an outage is when it matters), without the database's figures
        watchDispatcher(app.ctx, fakeDispatcher());
        const m = await get(app, '/metrics', '127.0.0.1');
        expect(m.statusCode).toBe(200);
        expect(valueOf(m.body, 'sms_dispatch_claimed_total')).toBe(7);
        expect(valueOf(m.body, 'sms_dispatch_queue_depth')).toBeUndefined();
      } finally {
        await app.close();
        await drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });

    it.runIf(backend === 'postgres')(
      'a database that does not answer: 503 after the readiness timeout; one refusing connections: 503 at once',
      async () => {
        // accepts the connection, never answers
        const sockets = new Set<net.Socket>();
        const silent = net.createServer((s) => sockets.add(s));
        await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
        const port = (silent.address() as net.AddressInfo).port;
        const handle = await createDb({ databaseUrl: `postgres://sms:sms@127.0.0.1:${port}/postgres`, poolSize: 1 });
        const { app, dataDir } = await appOver(handle);
        try {
          const t0 = Date.now();
          const r = await get(app, '/readyz', '127.0.0.1');
          expect(r.statusCode).toBe(503);
          expect(r.json().reason).toBe('database: no answer within 1000 ms');
          expect(Date.now() - t0).toBeLessThan(3000);
          expect((await get(app, '/healthz', '127.0.0.1')).statusCode).toBe(200);
        } finally {
          for (const s of sockets) s.destroy();
          silent.close();
          await app.close();
          await handle.close().catch(() => {});
          fs.rmSync(dataDir, { recursive: true, force: true });
        }
        // nothing listens there any more
        const refused = await createDb({ databaseUrl: `postgres://sms:sms@127.0.0.1:${port}/postgres`, poolSize: 1 });
        const second = await appOver(refused);
        try {
          const r = await get(second.app, '/readyz', '127.0.0.1');
          expect(r.statusCode).toBe(503);
          expect(r.json().reason).toBe('database: unreachable (ECONNREFUSED)');
        } finally {
          await second.app.close();
          await refused.close().catch(() => {});
          fs.rmSync(second.dataDir, { recursive: true, force: true });
        }
      },
    );

    it('a process that runs a dispatcher is not ready before it starts', async () => {
      const { handle, drop } = await freshHandle();
      const { app, dataDir } = await appOver(handle);
      try {
        expectDispatcher(app.ctx);
        expect((await get(app, '/readyz', '127.0.0.1')).json()).toMatchObject({
          status: 'unready',
          reason: 'dispatcher: not started',
        });
        watchDispatcher(app.ctx, fakeDispatcher());
        expect((await get(app, '/readyz', '127.0.0.1')).statusCode).toBe(200);
      } finally {
        await app.close();
        await handle.close();
        await drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });

  describe('per-minute series', () => {
    const t = useServer(backend, { config: { monitorFlushMs: 0 }, build: { reportFoldEveryMs: 0 } });
    let second: { app: FastifyInstance; handle: DbHandle | null; dataDir: string };

    beforeAll(async () => {
      const { server } = t;
      // a second process over the same database: PostgreSQL its own pool on the same schema; PGlite the same handle
      const handle =
        backend === 'postgres'
          ? await openDatabase({
              databaseUrl: TEST_DATABASE_URL,
              schema: (server as unknown as { schema: string }).schema,
              poolSize: 2,
            })
          : null;
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smsp-metrics-'));
      const app = await buildApp({
        db: handle?.db ?? server.handle.db,
        dataDir,
        purgeEveryMs: 0,
        uploadPurgeEveryMs: 0,
        reportFoldEveryMs: 0,
        config: { monitorFlushMs: 0 },
      });
      await app.ready();
      second = { app, handle, dataDir };
    });

    afterAll(async () => {
      await second?.app.close();
      await second?.handle?.close();
      if (second) fs.rmSync(second.dataDir, { recursive: true, force: true });
    });

    it('adds up what two processes flush, per channel, carrier, refusal and door', async () => {
      const apps = [t.server.app, second.app];
      const fakes = apps.map((app) => {
        const d = fakeDispatcher();
        d.channels.set('a', { submitted: 10, bound: true });
        d.finals.set('1 a', { carrier: 1, channel: 'a', delivered: 8, failed: 2 });
        watchDispatcher(app.ctx, d);
        const door = fakeDoor(2, { '0x58 accessSpeed': 3 });
        (app.services as { cmppServer: unknown }).cmppServer = door;
        return { d, door };
      });
      // the first flush writes everything counted since the sources started
      for (const app of apps) await app.services.monitor.flush();
      // then only the growth: 5 more submitted and delivered on 'a' in the second, a new channel and refusal in the first
      fakes[1].d.channels.get('a')!.submitted = 15;
      fakes[1].d.finals.get('1 a')!.delivered = 13;
      fakes[0].d.channels.set('b', { submitted: 4, bound: true });
      fakes[0].d.finals.set('2 b', { carrier: 2, channel: 'b', delivered: 0, failed: 4 });
      fakes[0].door.refuse('0x45 refusal', 1);
      for (const app of apps) await app.services.monitor.flush();
      // nothing new: nothing added
      for (const app of apps) await app.services.monitor.flush();

      const s = await t.server.app.services.monitor.series('hour');
      expect(t.server.app.ctx.schemas.validator('entities/monitor-series')(s)).toBe(true);
      expect(s.minutes).toHaveLength(60);
      expect(s.minutes[59]).toBe(s.end.slice(0, 16));
      const total = (xs: (number | null)[]) => xs.reduce<number>((a, b) => a + (b ?? 0), 0);
      expect(total(s.submitted)).toBe(10 + 15 + 4);
      expect(s.totals.submitted).toBe(29);
      const a = s.channels.find((c) => c.channel === 'a')!;
      expect({
        submitted: total(a.submitted),
        delivered: total(a.delivered),
        failed: total(a.failed),
        rate: a.deliveryRate,
      }).toEqual({
        submitted: 25,
        delivered: 21,
        failed: 4,
        rate: 84,
      });
      const b = s.channels.find((c) => c.channel === 'b')!;
      expect({ submitted: total(b.submitted), failed: total(b.failed), rate: b.deliveryRate }).toEqual({
        submitted: 4,
        failed: 4,
        rate: 0,
      });
      expect(
        s.carriers.map((c) => ({ carrier: c.carrier, delivered: total(c.delivered), failed: total(c.failed) })),
      ).toEqual([
        { carrier: 1, delivered: 21, failed: 4 },
        { carrier: 2, delivered: 0, failed: 4 },
      ]);
      expect(s.totals.deliveryRate).toBe(Math.round((21 / 29) * 10_000) / 100);
      expect(s.refusals.map((r) => ({ protocol: r.protocol, code: r.code, reason: r.reason, total: r.total }))).toEqual(
        [
          { protocol: 'cmpp', code: '0x45', reason: 'refusal', total: 1 },
          { protocol: 'cmpp', code: '0x58', reason: 'accessSpeed', total: 6 },
        ],
      );
      // sessions: each process its own row of the minute, added up (the last minute written)
      const cmpp = s.sessions.find((x) => x.protocol === 'cmpp')!;
      const sampled = cmpp.counts.filter((x) => x !== null);
      expect(sampled.at(-1)).toBe(4);
      // the database gauges, sampled once a minute by the first flush
      expect(s.waiting.some((x) => x !== null)).toBe(true);
      expect(s.unconfirmed.some((x) => x !== null)).toBe(true);
      // a minute nobody wrote is null for a gauge, 0 for a count
      expect(s.waiting[0]).toBeNull();
      expect(s.submitted[0]).toBe(0);
    });

    it("takes accepted, delivered and failed from report_fold()'s deltas", async () => {
      const db = t.server.handle.db;
      // the seed's deltas first (the demo history's messages: folded as accepted in the minute of their first fold)
      await sql`select report_fold()`.execute(db);
      const before = (await t.server.app.services.monitor.series('day')).totals;
      await sql`insert into report_delta (account_id, day, smstype, paytype, inter, send_num, success_num, fail_num, wait_num)
        values (1, current_date, 1, 0, 0, 5, 0, 0, 5), (1, current_date, 1, 0, 0, 0, 3, 1, -4), (2, current_date, 2, 0, 0, -2, 0, 0, -2)`.execute(
        db,
      );
      expect((await sql<{ n: number }>`select report_fold() as n`.execute(db)).rows[0].n).toBeGreaterThan(0);
      const after = (await t.server.app.services.monitor.series('day')).totals;
      expect(after.accepted - before.accepted).toBe(3);
      expect(after.delivered - before.delivered).toBe(3);
      expect(after.failed - before.failed).toBe(1);
      // the fold did what it did before: the rows are in report_daily, the deltas gone
      expect((await sql<{ n: number }>`select count(*)::int as n from report_delta`.execute(db)).rows[0].n).toBe(0);
    });

    it('a day is 1,440 minutes; rows older than the retention are purged', async () => {
      const { monitor } = t.server.app.services;
      const db = t.server.handle.db;
      const day = await monitor.series('day');
      expect(day.minutes).toHaveLength(1440);
      expect(day.accepted).toHaveLength(1440);
      expect(day.stepSeconds).toBe(60);
      await sql`insert into metric_minutes (minute, name, label, source, value) values
        (date_trunc('minute', now() - interval '9 days'), 'submitted', 'old', '', 1),
        (date_trunc('minute', now() - interval '8 days 1 minute'), 'submitted', 'old', '', 1),
        (date_trunc('minute', now() - interval '7 days'), 'submitted', 'kept', '', 1)`.execute(db);
      expect(await monitor.purge()).toBe(2);
      const left = await sql<{
        label: string;
      }>`select label from metric_minutes where label in ('old', 'kept')`.execute(db);
      expect(left.rows).toEqual([{ label: 'kept' }]);
      expect(await monitor.purge()).toBe(0);
    });
  });

  describe('budgets, and the refusals of the HTTP API and the console', () => {
    const caps = {
      codeDailyGlobal: 100,
      codeDailyPerTarget: 3,
      codeDailyPerIp: 5,
      codeDailyPerCountry: { '86': 40, '*': 7 },
      alarmSmsDaily: 50,
    };
    // no alarm job: the events written here stay as they are
    const t = useServer(backend, {
      config: { monitorFlushMs: 0, ...caps },
      build: { reportFoldEveryMs: 0, alarmEveryMs: 0 },
    });

    it("counts today's verification codes and credit alarms against their budgets, at read time", async () => {
      const db = t.server.handle.db;
      const now = t.server.clock.now();
      const yesterday = new Date(startOfBusinessDay(now).getTime() - 3_600_000);
      const code = (target: string, ip: string, at = now) => ({
        purpose: 'register',
        target,
        code_hash: 'x',
        salt: 'y',
        expires_at: at,
        ip,
        created_at: at,
      });
      await db
        .insertInto('verification_codes')
        .values([
          ...[1, 2, 3].map(() => code('sms:86:13800000001', '10.0.0.1')),
          code('sms:86:13800000002', '10.0.0.1'),
          code('sms:1:2025550100', '10.0.0.2'),
          code('mail:a@example.com', '10.0.0.1'),
          code('mail:a@example.com', '10.0.0.1'),
          // yesterday's: not today's budget
          ...[1, 2, 3, 4].map(() => code('sms:86:13800000003', '10.0.0.3', yesterday)),
        ])
        .execute();
      const client1 = (
        await db.selectFrom('accounts').select('id').where('clientid', '=', 'client1').executeTakeFirstOrThrow()
      ).id;
      const alarm = (sms: number, skipped: string, sentAt: Date | null = now) => ({
        account_id: client1,
        balance: '1.00',
        alarm_amount: '10.00',
        phones: '13800000000',
        created_at: now,
        sent_at: sentAt,
        sms_count: sms,
        skipped,
      });
      await db
        .insertInto('credit_alarm_events')
        .values([
          alarm(2, ''),
          alarm(1, ''),
          alarm(0, 'cooldown'),
          alarm(0, 'budget'),
          alarm(0, 'budget'),
          alarm(0, '', null),
          alarm(9, '', yesterday),
        ])
        .execute();

      const { budgets } = await t.server.app.services.monitor.series('hour');
      expect(budgets.codes).toEqual({
        day: formatDateTime(startOfBusinessDay(now)).slice(0, 10),
        sms: 5,
        mail: 2,
        globalCap: 100,
        perTargetCap: 3,
        perIpCap: 5,
        // 13800000001 used its 3; 10.0.0.1 asked 6 (4 SMS, 2 mails)
        targetsAtCap: 1,
        ipsAtCap: 1,
        maxPerTarget: 3,
        maxPerIp: 6,
        countries: [
          { countryCode: '86', sms: 4, cap: 40 },
          { countryCode: '1', sms: 1, cap: 7 },
        ],
      });
      expect(budgets.alarms).toEqual({
        day: budgets.codes.day,
        budget: 50,
        sms: 3,
        left: 47,
        alarmsSent: 2,
        skippedCooldown: 1,
        skippedBudget: 2,
        skippedNoPhone: 0,
        pending: 1,
      });
      // the operators' route answers them (and its answer passes the entity: checkResponses)
      const admin = await t.server.client().init();
      expect((await admin.login('operator1')).body.code).toBe(0);
      const r = await admin.get('/api/operator/monitor');
      expect(r.body.data.budgets).toEqual(budgets);
    });

    it('counts refused sends of the console and the HTTP API into the per-minute refusals, per process, once', async () => {
      const { app } = t.server;
      const refusals = async () =>
        (await app.services.monitor.series('hour')).refusals
          .filter((r) => r.protocol === 'http' || r.protocol === 'console')
          .map(({ protocol, code, reason, label, total }) => ({ protocol, code, reason, label, total }));
      await app.services.monitor.flush();
      expect(await refusals()).toEqual([]);

      // the console: no session (登录超时), then an acceptance that refuses (模板不存在或未审核通过), twice
      const anon = await t.server.client().init();
      expect(
        (
          await anon.post('/api/send/sending', {
            sign: '好易购',
            smstype: 0,
            templateId: 999999,
            content: 'x',
            mobile: '13800138000',
          })
        ).body.code,
      ).toBe(401);
      const client1 = await t.server.client().init();
      expect((await client1.login('client1')).body.code).toBe(0);
      for (let i = 0; i < 2; i++) {
        t.server.clock.advance(3100);
        const r = await client1.post('/api/send/sending', {
          clientId: 'client1',
          sign: '好易购',
          smstype: 0,
          templateId: 999999,
          content: 'x',
          mobile: '13800138000',
        });
        expect(r.body).toMatchObject({ code: 500, msg: '模板不存在或未审核通过' });
      }
      // a route that accepts nothing is not counted
      expect((await anon.post('/api/sign/list', {})).body.code).toBe(401);
      // the HTTP API: a send without its signature headers; a read without them is not counted
      const unsigned = await app.inject({
        method: 'POST',
        url: '/openapi/v1/sms/send',
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      });
      expect(unsigned.json()).toMatchObject({ error: 'AUTH_MISSING', code: 40100 });
      expect((await app.inject({ method: 'GET', url: '/openapi/v1/signs' })).json()).toMatchObject({
        error: 'AUTH_MISSING',
      });

      await app.services.monitor.flush();
      // nothing new: nothing added
      await app.services.monitor.flush();
      expect(await refusals()).toEqual([
        { protocol: 'console', code: '401', reason: 'session', label: '登录超时', total: 1 },
        { protocol: 'console', code: '500', reason: 'templateInvalid', label: '模板不存在或未审核通过', total: 2 },
        {
          protocol: 'http',
          code: '40100',
          reason: 'AUTH_MISSING',
          label: '缺少鉴权参数（clientid、timestamp、nonce、signature）',
          total: 1,
        },
      ]);
    });
  });
});
