/**
 * Push of delivery reports and uplink (server/modules/push): outbox rows only for accounts that
 * want them, several records per row, POSTed as JSON to a local receiver that the injected
 * resolver makes look public (`hook.example.com` → a public test address, dialled as 127.0.0.1),
 * retries with backoff then give-up, refusal of private / loopback targets, exactly-once marking
 * with two pushers on the same outbox. Both databases.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enqueueMo, enqueueReports, PUSH_RECORDS_PER_ROW, type ReportRow } from '../../server/modules/push/outbox';
import { Pusher, type PusherOptions } from '../../server/modules/push/pusher';
import { PUBLIC_TEST_ADDRESS, testResolver } from '../fixtures/resolver';
import { backends, useServer } from './harness';

interface Hit {
  path: string;
  body: any;
  headers: http.IncomingHttpHeaders;
}

/** A local receiver: answers `status()` (default 200), records what it got. */
function receiver() {
  const hits: Hit[] = [];
  let status = () => 200;
  let hang = false;
  const server = http.createServer((req, res) => {
    let b = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (b += c));
    req.on('end', () => {
      hits.push({ path: req.url ?? '', body: JSON.parse(b), headers: req.headers });
      if (hang) return; // never answers
      res.statusCode = status();
      res.end('{"code":0}');
    });
  });
  return {
    hits,
    server,
    setStatus(f: () => number) {
      status = f;
    },
    setHang(v: boolean) {
      hang = v;
    },
    get port() {
      return (server.address() as AddressInfo).port;
    },
  };
}

describe.each(backends)('push (%s)', (backend) => {
  const t = useServer(backend);
  const rx = receiver();
  const clock = { t: Date.now() + 3_600_000 };
  let ids: { client1: number; agent1: number };

  beforeAll(async () => {
    await new Promise<void>((r) => rx.server.listen(0, '127.0.0.1', r));
    const db = t.server.handle.db;
    const accounts = await db
      .selectFrom('accounts')
      .select(['id', 'clientid'])
      .where('clientid', 'in', ['client1', 'agent1'])
      .execute();
    const by = Object.fromEntries(accounts.map((a) => [a.clientid, a.id]));
    ids = { client1: by.client1, agent1: by.agent1 };
  });
  afterAll(() => {
    rx.server.closeAllConnections();
    rx.server.close();
  });
  beforeEach(async () => {
    const db = t.server.handle.db;
    await db.deleteFrom('push_outbox').execute();
    rx.hits.length = 0;
    rx.setStatus(() => 200);
    rx.setHang(false);
    await db.updateTable('accounts').set({ needreport: 0, needmo: 0, deliveryurl: '', mourl: '' }).execute();
    await db
      .updateTable('accounts')
      .set({
        needreport: 1,
        needmo: 1,
        deliveryurl: `http://hook.example.com:${rx.port}/report`,
        mourl: `http://hook.example.com:${rx.port}/mo`,
      })
      .where('id', '=', ids.client1)
      .execute();
  });

  const pusher = (o: Partial<PusherOptions> = {}) =>
    new Pusher({
      db: t.server.handle.db,
      now: () => new Date(clock.t),
      resolveHost: testResolver,
      // the checked public address is really the local receiver
      dial: (target) =>
        target.address === PUBLIC_TEST_ADDRESS ? { ...target, address: '127.0.0.1', family: 4 } : target,
      timeoutMs: 1000,
      backoffMs: 1000,
      ...o,
    });

  const report = (i: number, accountId = ids.client1): ReportRow => ({
    accountId,
    messageId: 1000 + i,
    taskId: 'T1',
    phone: `1380000${String(i).padStart(4, '0')}`,
    state: i % 2 ? 3 : 6,
    errorcode: i % 2 ? 'DELIVRD' : 'UNDELIV',
    report: i % 2 ? 'DELIVRD' : 'UNDELIV:001',
    doneAt: new Date('2026-11-23T08:00:00Z'),
    pieces: 2,
  });

  const outbox = () => t.server.handle.db.selectFrom('push_outbox').selectAll().orderBy('id').execute();

  it("queues only for accounts that want pushes, several records a row, in the caller's transaction", async () => {
    const db = t.server.handle.db;
    const n = PUSH_RECORDS_PER_ROW * 2 + 50;
    const written = await db.transaction().execute(async (trx) => {
      const a = await enqueueReports(trx, [...Array.from({ length: n }, (_, i) => report(i)), report(1, ids.agent1)]);
      const b = await enqueueMo(trx, [
        {
          accountId: ids.client1,
          moId: 7,
          phone: '13800000001',
          content: '收到，谢谢',
          dest: '10690001',
          receivedAt: new Date('2026-11-23T08:00:05Z'),
        },
        { accountId: ids.agent1, phone: '13800000002', content: 'x', receivedAt: new Date() },
      ]);
      return [a, b];
    });
    expect(written).toEqual([3, 1]);
    const rows = await outbox();
    expect(rows.map((r) => [r.kind, r.account_id])).toEqual([
      [1, ids.client1],
      [1, ids.client1],
      [1, ids.client1],
      [2, ids.client1],
    ]);
    expect((rows[0].payload as unknown[]).length).toBe(PUSH_RECORDS_PER_ROW);
    expect((rows[2].payload as unknown[]).length).toBe(50);
    expect((rows[0].payload as any[])[1]).toEqual({
      clientid: 'client1',
      id: 1001,
      taskId: 'T1',
      phone: '13800000001',
      state: 3,
      stateStr: '明确成功',
      errorcode: 'DELIVRD',
      report: 'DELIVRD',
      dateStr: '2026-11-23 16:00:00',
      smsNum: 2,
    });
    expect(rows[3].payload).toEqual([
      {
        clientid: 'client1',
        id: 7,
        phone: '13800000001',
        content: '收到，谢谢',
        dest: '10690001',
        receivedateStr: '2026-11-23 16:00:05',
      },
    ]);

    // a rolled-back transaction queues nothing
    await expect(
      db.transaction().execute(async (trx) => {
        await enqueueReports(trx, [report(1)]);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await outbox()).toHaveLength(4);
    expect(await enqueueReports(db, [])).toBe(0);
  });

  it('POSTs JSON to the checked address and marks each row done', async () => {
    const db = t.server.handle.db;
    await enqueueReports(db, [report(1), report(2)]);
    await enqueueMo(db, [{ accountId: ids.client1, phone: '13800000001', content: '好的', receivedAt: new Date() }]);
    const p = pusher();
    expect(await p.runOnce()).toBe(2);
    expect(rx.hits.map((h) => h.path).sort()).toEqual(['/mo', '/report']);
    const hit = rx.hits.find((h) => h.path === '/report')!;
    expect(hit.headers['content-type']).toMatch(/application\/json/);
    expect(hit.headers.host).toBe(`hook.example.com:${rx.port}`);
    expect(hit.body.map((r: any) => r.phone)).toEqual(['13800000001', '13800000002']);
    const rows = await outbox();
    expect(rows.every((r) => r.done_at && r.last_error === '' && r.attempts === 1)).toBe(true);
    expect(await p.runOnce()).toBe(0);
    expect(rx.hits).toHaveLength(2);
  });

  it('retries with exponential backoff, records last_error, gives up after maxAttempts', async () => {
    const db = t.server.handle.db;
    await enqueueReports(db, [report(1)]);
    rx.setStatus(() => 500);
    const p = pusher({ maxAttempts: 3, backoffMs: 1000 });
    expect(await p.runOnce()).toBe(1);
    let [row] = await outbox();
    expect(row).toMatchObject({ attempts: 1, done_at: null, last_error: 'HTTP 500' });
    expect(row.next_at.getTime()).toBe(clock.t + 1000);
    expect(await p.runOnce()).toBe(0); // not due yet
    clock.t += 1000;
    expect(await p.runOnce()).toBe(1);
    [row] = await outbox();
    expect(row.next_at.getTime()).toBe(clock.t + 2000);
    clock.t += 2000;
    expect(await p.runOnce()).toBe(1);
    [row] = await outbox();
    expect(row.done_at).not.toBeNull();
    expect(row.last_error).toBe('gave up after 3 attempts: HTTP 500');
    expect(rx.hits).toHaveLength(3);

    // a customer that recovers: delivered at the next attempt
    await db.deleteFrom('push_outbox').execute();
    rx.hits.length = 0;
    let calls = 0;
    rx.setStatus(() => (++calls === 1 ? 503 : 200));
    await enqueueReports(db, [report(2)]);
    await p.runOnce();
    clock.t += 1000;
    await p.runOnce();
    [row] = await outbox();
    expect(row).toMatchObject({ attempts: 2, last_error: '' });
    expect(row.done_at).not.toBeNull();
    expect(rx.hits).toHaveLength(2);
  });

  it('a receiver that does not answer: timed out, retried later', async () => {
    await enqueueReports(t.server.handle.db, [report(1)]);
    rx.setHang(true);
    const p = pusher({ timeoutMs: 300 });
    await p.runOnce();
    const [row] = await outbox();
    expect(row.done_at).toBeNull();
    expect(row.last_error).toMatch(/timed out|socket hang up/);
  });

  it('never reaches a private or loopback address: refused at once, nothing sent', async () => {
    const db = t.server.handle.db;
    for (const url of [
      `http://127.0.0.1:${rx.port}/r`,
      `http://localhost:${rx.port}/r`,
      'http://db.internal.test/r',
      'http://169.254.169.254/latest',
      'http://[::ffff:127.0.0.1]/',
      'http://mixed.test/',
      'ftp://hook.example.com/',
    ]) {
      await db.updateTable('accounts').set({ deliveryurl: url }).where('id', '=', ids.client1).execute();
      await enqueueReports(db, [report(1)]);
    }
    // a name that does not resolve: retried (DNS may come back), not given up
    await db
      .updateTable('accounts')
      .set({ deliveryurl: 'http://nowhere.invalid/r' })
      .where('id', '=', ids.client1)
      .execute();
    await enqueueReports(db, [report(1)]);
    await pusher({ batch: 50 }).runOnce();
    const rows = await outbox();
    expect(rx.hits).toHaveLength(0);
    const refused = rows.slice(0, -1);
    expect(refused.every((r) => r.done_at !== null && r.last_error.startsWith('refused: '))).toBe(true);
    const last = rows[rows.length - 1];
    expect(last.done_at).toBeNull();
    expect(last.last_error).toMatch(/does not resolve/);
  });

  it('two pushers on the same outbox: every row POSTed and marked exactly once', async () => {
    const db = t.server.handle.db;
    const n = 60;
    for (let i = 0; i < n; i++) await enqueueReports(db, [report(i)]);
    const a = pusher({ concurrency: 4, batch: 3, pollMs: 20 });
    const b = pusher({ concurrency: 4, batch: 3, pollMs: 20 });
    a.start();
    b.start();
    const end = Date.now() + 20_000;
    while (Date.now() < end) {
      const left = await db
        .selectFrom('push_outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('done_at', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(left.n) === 0) break;
      await new Promise((r) => setTimeout(r, 30));
    }
    await Promise.all([a.stop(), b.stop()]);
    const got = rx.hits.map((h) => h.body[0].id).sort((x, y) => x - y);
    expect(got).toEqual(Array.from({ length: n }, (_, i) => 1000 + i));
    const rows = await outbox();
    expect(rows.every((r) => r.done_at && r.attempts === 1 && r.last_error === '')).toBe(true);
    expect(a.stats.delivered + b.stats.delivered).toBe(n);
  });
});
