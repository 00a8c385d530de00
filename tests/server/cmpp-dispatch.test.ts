/**
 * A cmpp:// channel end to end through the dispatcher (docs/api-dispatch.md "CMPP link"), with
 * ../shared/interop/bin/cmpp-peer as China Mobile's gateway, on both databases: short and long
 * (3-part) messages delivered or failed by their reports (each part matched by its Msg_Id), each
 * part submitted once, the task's counters and the ledger exact, uplinks routed to the account.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { Dispatcher } from '../../server/modules/dispatch/dispatcher';
import { createSmscLink } from '../../server/modules/smsc/link';
import { parseChannel } from '../../server/modules/smsc/config';
import { LedgerService } from '../../server/modules/ledger/service';
import { insertFixtureTask } from '../../bench/lib/dispatch-fixture';
import { startPipeline } from '../../server/modules/dispatch/pipeline';
import { runCommand } from '../../server/cli/operator-channel';
import { backends, useServer, type TestServer } from './harness';
import { answeredUplinks, readGatewayLog } from './gateway-log';
import { normalizePhone } from '../../server/modules/dispatch/mo';

const PEER = path.resolve(import.meta.dirname, '../../../shared/interop/bin/cmpp-peer');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cmpp-dispatch-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const CHINESE_150 = '【云讯通】' + '您的订单已发货，请注意查收。'.repeat(11).slice(0, 145);

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

async function startIsmg(
  args: string[],
): Promise<{ port: number; log: string; proc: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const log = path.join(tmp, `submits-${port}.jsonl`);
  const proc = spawn(
    PEER,
    [
      'ismg',
      '-listen',
      `127.0.0.1:${port}`,
      '-v',
      '3',
      '-user',
      '900001',
      '-password',
      'secret',
      '-log',
      log,
      '-report-ms',
      '50',
      ...args,
    ],
    {
      stdio: 'ignore',
    },
  );
  const end = Date.now() + 10_000;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (ok) break;
    if (Date.now() > end || proc.exitCode !== null) throw new Error('cmpp-peer did not start');
    await new Promise((r) => setTimeout(r, 30));
  }
  return {
    port,
    log,
    proc,
    stop: async () => {
      if (proc.exitCode !== null) return;
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
    },
  };
}

const taskRow = (server: TestServer, id: number) =>
  server.handle.db.selectFrom('sms_tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const messages = (server: TestServer, id: number) =>
  server.handle.db.selectFrom('sms_messages').selectAll().where('task_id', '=', id).orderBy('id').execute();

async function accountId(server: TestServer) {
  return (
    await server.handle.db
      .selectFrom('accounts')
      .select('id')
      .where('clientid', '=', 'client1')
      .executeTakeFirstOrThrow()
  ).id;
}

async function expectMoneyExact(server: TestServer, taskId: number) {
  const t = await taskRow(server, taskId);
  const r = await sql<{ success: number; fail: number; unknown: number; submitted: number }>`
    select count(*) filter (where state in (3, 16))::int success, count(*) filter (where state in (4, 6, 8, 9, 14))::int fail,
      count(*) filter (where state in (1, 15))::int unknown, count(*) filter (where state not in (0, 7))::int submitted
    from sms_messages where task_id = ${taskId}`.execute(server.handle.db);
  expect({ success: t.success_num, fail: t.fail_num, unknown: t.unknown_num, submitted: t.submitted_num }).toEqual(
    r.rows[0],
  );
  expect(await new LedgerService({ db: server.handle.db, now: () => new Date() }).violations()).toEqual([]);
}

describe.each(backends)('a cmpp:// channel through the dispatcher (%s)', (backend) => {
  const t = useServer(backend, { build: { now: () => new Date() } });

  it('short and long messages: reports matched per part, each part sent once, counters and money exact, uplinks routed', async () => {
    const { server } = t;
    const db = server.handle.db;
    const g = await startIsmg(['-fail', '0.2', '-mo-every', '7', '-strict']);
    const spec = parseChannel({
      name: 'cm',
      url: `cmpp://900001:secret@127.0.0.1:${g.port}?version=3&service_id=MJS0019901&src_id=1069000&reconnect_min_ms=50&receipt_batch_ms=5&window=16`,
    });
    const link = createSmscLink(spec.cfg, undefined, { sourcePrefix: '106900' });
    const d = new Dispatcher(server.app.ctx, [{ name: 'cm', link }], {
      batchSize: 50,
      idleMs: 20,
      maintenanceMs: 100,
      markSubmittedMs: 0,
      channelStatsMs: 0,
      sourcePrefix: '106900',
    });
    const acc = await accountId(server);
    const short = await insertFixtureTask(db, {
      accountId: acc,
      count: 30,
      nextAt: new Date(),
      phoneBase: 13800000000,
      price: '0.04',
    });
    const long = await insertFixtureTask(db, {
      accountId: acc,
      count: 10,
      nextAt: new Date(),
      phoneBase: 13900000000,
      content: CHINESE_150,
      pieces: 3,
      price: '0.05',
    });
    try {
      await link.waitReady(5000);
      d.start();
      const deadline = Date.now() + 40_000;
      for (;;) {
        const [a, b] = await Promise.all([taskRow(server, short.id), taskRow(server, long.id)]);
        if (a.status === 3 && a.unknown_num === 0 && b.status === 3 && b.unknown_num === 0) break;
        if (Date.now() > deadline)
          throw new Error(
            `not done: ${JSON.stringify([a, b].map((x) => [x.status, x.success_num, x.fail_num, x.unknown_num]))}`,
          );
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await d.stop();
      await link.close();
      await g.stop();
    }
    const gatewayLog = readGatewayLog(g.log);
    const subs = gatewayLog.filter((r) => 'pkTotal' in r);
    // every part accepted once: 30 + 10 × 3 submits, none refused by -strict
    expect(subs.filter((s) => s.result === 0)).toHaveLength(30 + 30);
    expect(subs.filter((s) => s.result !== 0)).toEqual([]);
    const longSubs = subs.filter((s) => s.pkTotal === 3);
    expect(longSubs).toHaveLength(30);
    for (const s of longSubs) expect(s).toMatchObject({ udhi: 1, msgFmt: 8, srcId: `1069000${acc}` });
    const ms = [...(await messages(server, short.id)), ...(await messages(server, long.id))];
    // 3 delivered, 6 failed by its report
    expect(ms.filter((m) => m.state !== 3 && m.state !== 6).map((m) => [m.state, m.error_code, m.msg_id])).toEqual([]);
    expect(ms.filter((m) => m.state === 6).length).toBeGreaterThan(0);
    for (const m of ms) {
      expect(m.channel).toBe('cm');
      expect(m.msg_id).toMatch(/^cm:\d+$/);
      if (m.state === 6) expect(m.error_code).toBe('UNDELIV');
    }
    // every long message's text reached the gateway whole
    const texts = new Map<string, string[]>();
    for (const s of longSubs) {
      const k = JSON.stringify(s.dest);
      const parts = texts.get(k) ?? [];
      parts[Number(s.pkNumber) - 1] = String(s.text);
      texts.set(k, parts);
    }
    for (const parts of texts.values()) expect(parts.join('')).toBe(CHINESE_150);
    await expectMoneyExact(server, short.id);
    await expectMoneyExact(server, long.id);
    // uplinks to Src_Id 1069000<account> → routed to the account: every one the gateway saw
    // answered is stored once, from a number the gateway was sent to
    const answered = answeredUplinks(gatewayLog, 'cmpp');
    const mo = await db
      .selectFrom('sms_mo')
      .selectAll()
      .where('account_id', '=', acc)
      .where('content', '=', '收到，谢谢 TD')
      .execute();
    expect(answered.length).toBeGreaterThan(0);
    expect(mo.map((m) => m.smsc_ref)).toEqual(expect.arrayContaining(answered));
    expect(new Set(mo.map((m) => m.smsc_ref)).size).toBe(mo.length);
    const sentTo = new Set(subs.flatMap((s) => (s.dest as string[]).map(normalizePhone)));
    for (const m of mo) {
      expect(m.smsc_ref).toMatch(/^cmpp:\d+$/);
      expect(sentTo.has(m.phone)).toBe(true);
    }
  }, 90_000);

  it('npm start without SMPP_URL and SMSC_SIM_PROTOCOL=cmpp: the embedded CMPP gateway and a cmpp:// link deliver a task; channel-add takes cmpp://', async () => {
    const { server } = t;
    const db = server.handle.db;
    const p = await startPipeline(server.app.ctx, {
      smppUrl: '',
      simulatorProtocol: 'cmpp',
      simulator: { seed: 5, delivered: 1, failed: 0, noReceipt: 0, latencyMinMs: 5, latencyMaxMs: 20, moRatio: 0 },
      push: false,
      channelsFile: '',
      reloadMs: 0,
      dispatcher: { batchSize: 40, idleMs: 20, maintenanceMs: 100, markSubmittedMs: 0, channelStatsMs: 0 },
    });
    const task = await insertFixtureTask(db, {
      accountId: await accountId(server),
      count: 25,
      nextAt: new Date(),
      phoneBase: 13700000000,
    });
    try {
      expect(p.smsc).toMatch(/^cmpp:\/\/900001@127\.0\.0\.1:\d+ \(embedded simulator\)$/);
      expect(p.simulator).toBeNull();
      const deadline = Date.now() + 30_000;
      for (;;) {
        const tr = await taskRow(server, task.id);
        // the gateway counts a report sent when its DELIVER_RESP comes, which the link writes once the report is stored
        if (tr.status === 3 && tr.unknown_num === 0 && p.cmppSimulator!.counts().reportsSent >= 25) break;
        if (Date.now() > deadline)
          throw new Error(
            `not done: ${JSON.stringify([tr.status, tr.success_num, tr.unknown_num, p.cmppSimulator!.counts().reportsSent])}`,
          );
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(p.cmppSimulator!.counts()).toMatchObject({ accepted: 25, reportsSent: 25 });
      expect(p.cmppSimulator!.recent.every((s) => /^106900\d+$/.test(s.srcId))).toBe(true);
    } finally {
      await p.stop();
    }
    expect((await messages(server, task.id)).every((m) => m.state === 3 && /^\d+$/.test(m.msg_id ?? ''))).toBe(true);
    await expectMoneyExact(server, task.id);
    const cli = (...argv: string[]) => runCommand({ db, now: () => new Date() }, argv);
    const added = await cli(
      'channel-add',
      'cm',
      'cmpp://900001:secret@127.0.0.1:7890?version=3&src_id=1069000',
      'carriers=移动',
    );
    expect(added.code).toBe(0);
    expect(added.lines.join()).toContain('cmpp://900001@127.0.0.1:7890');
    expect((await cli('channel-remove', 'cm')).code).toBe(0);
  }, 60_000);
});
