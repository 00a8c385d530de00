/**
 * The SMGP carrier link (server/modules/smsc/smgp-client.ts) against an implementation this project
 * did not write: ../shared/interop/bin/smgp-peer in its smgw role (go_smgp), no database: short and
 * long texts as the gateway logs them (-strict), every report matched by MsgID, failures, uplinks,
 * a failed handler, a refused password with back-off, a gateway that goes away and comes back;
 * smgp:// URLs; the embedded SMGP simulator.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSmscLink } from '../../server/modules/smsc/link';
import type { SmscLinkHandle } from '../../server/modules/smsc/client';
import { parseChannel, parseSmppUrl, describeSmsc } from '../../server/modules/smsc/config';
import { startSmgpSimulator } from '../../server/modules/smsc/smgp-simulator';
import type { MoMessage, Receipt, SubmitRequest, SubmitResult } from '../../server/modules/smsc/types';

const PEER = path.resolve(import.meta.dirname, '../../../shared/interop/bin/smgp-peer');
const hasPeer = fs.existsSync(PEER);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'smgp-link-'));
const peers: ChildProcess[] = [];
const open: { close(): Promise<void> }[] = [];

async function stopPeer(p: ChildProcess) {
  if (p.exitCode === null && p.signalCode === null) {
    p.kill('SIGTERM');
    await new Promise((r) => p.once('exit', r));
  }
}

afterEach(async () => {
  while (open.length) await open.pop()!.close();
  while (peers.length) await stopPeer(peers.pop()!);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

const until = async (cond: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
};

interface Smgw {
  port: number;
  proc: ChildProcess;
  submits(): Record<string, unknown>[];
  deliverResps(): Record<string, unknown>[];
  logins(): Record<string, unknown>[];
  output(): string;
}

/** starts smgp-peer smgw (on `port` or a free one); resolves when it accepts connections */
async function smgw(extra: string[] = [], port?: number, logName?: string): Promise<Smgw> {
  port ??= await freePort();
  const log = path.join(tmp, logName ?? `submits-${port}.jsonl`);
  let out = '';
  const p = spawn(
    PEER,
    [
      'smgw',
      '-listen',
      `127.0.0.1:${port}`,
      '-user',
      '10690001',
      '-password',
      'secret',
      '-log',
      log,
      '-report-ms',
      '100',
      ...extra,
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  p.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  p.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  peers.push(p);
  const end = Date.now() + 10_000;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (ok) break;
    if (Date.now() > end || p.exitCode !== null) throw new Error(`smgp-peer did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 30));
  }
  const lines = () =>
    fs.existsSync(log)
      ? fs
          .readFileSync(log, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>)
      : [];
  return {
    port,
    proc: p,
    output: () => out,
    submits: () => lines().filter((r) => 'pkTotal' in r),
    deliverResps: () => lines().filter((r) => 'deliverResp' in r),
    logins: () => lines().filter((r) => 'login' in r),
  };
}

// smgp-peer writes a report's times in the machine's local time (a gateway in China: Beijing time, tz=480)
const FAST = `reconnect_min_ms=30&reconnect_max_ms=300&receipt_batch_ms=5&enquire_ms=1000&tz=${-new Date().getTimezoneOffset()}`;

function link(g: { port: number }, query = '', password = 'secret'): SmscLinkHandle {
  const cfg = parseSmppUrl(
    `smgp://10690001:${password}@127.0.0.1:${g.port}?sp_id=10690001&src=1069000&service_id=MJS0019901&${FAST}${query ? `&${query}` : ''}`,
  );
  const l = createSmscLink(cfg, undefined, { sourcePrefix: '106900' });
  open.push(l);
  return l;
}

const reqs = (n: number, from = 1, text = '【云讯通】验证码1234'): SubmitRequest[] =>
  Array.from({ length: n }, (_, i) => ({
    ref: from + i,
    to: `1890000${String(from + i).padStart(4, '0')}`,
    from: `106900${77}${i % 3 ? '12' : ''}`,
    text,
  }));

const ids = (res: SubmitResult[]) => res.flatMap((r) => (r.status === 'accepted' ? (r.parts ?? [r.msgId]) : []));

describe.skipIf(!hasPeer)('SMGP link against smgp-peer smgw', () => {
  it('short and long messages: accepted, logged as sent, every report matched by MsgID of each part', async () => {
    const g = await smgw(['-strict']);
    const l = link(g);
    const receipts: Receipt[] = [];
    l.onReceipts(async (r) => void receipts.push(...r));
    await l.waitReady();
    const long = '长'.repeat(150);
    const ascii = 'Your code is 1234. '.repeat(9);
    const batch = [
      ...reqs(5),
      { ref: 100, to: '18900001000', from: '10690077', text: long },
      { ref: 101, to: '18900001001', from: '1069007712', text: ascii },
    ];
    const res = await l.submit(batch);
    expect(res.map((r) => r.status)).toEqual(batch.map(() => 'accepted'));
    const lr = res[5] as Extract<SubmitResult, { status: 'accepted' }>;
    expect(lr.parts).toHaveLength(3);
    expect(lr.msgId).toBe(lr.parts![0]);
    for (const id of ids(res)) expect(id).toMatch(/^[0-9a-f]{20}$/);

    const subs = g.submits();
    expect(subs).toHaveLength(5 + 3 + 2);
    const byId = new Map(subs.map((s) => [String(s.msgId), s]));
    for (const id of ids(res)) expect(byId.has(id)).toBe(true);
    expect(byId.get((res[0] as { msgId: string }).msgId)).toMatchObject({
      status: 0,
      udhi: 0,
      msgFmt: 8,
      msgSrc: '10690001',
      srcTermId: '106900077',
      serviceId: 'MJS0019901',
      needReport: 1,
      text: '【云讯通】验证码1234',
      dest: ['18900000001'],
    });
    expect(byId.get((res[1] as { msgId: string }).msgId)!.srcTermId).toBe('10690007712');
    lr.parts!.forEach((id, i) => {
      const s = byId.get(id)!;
      expect(s).toMatchObject({ pkTotal: 3, pkNumber: i + 1, udhi: 1, msgFmt: 8 });
      expect(String(s.hex).slice(0, 12)).toBe(
        `050003${(100).toString(16).padStart(2, '0')}03${String(i + 1).padStart(2, '0')}`,
      );
    });
    expect(lr.parts!.map((id) => byId.get(id)!.text).join('')).toBe(long);
    const ap = (res[6] as { parts: string[] }).parts.map((id) => byId.get(id)!);
    expect(ap.map((s) => s.msgFmt)).toEqual([0, 0]);

    await until(() => receipts.length === 10);
    expect(new Set(receipts.map((r) => r.msgId))).toEqual(new Set(ids(res)));
    for (const r of receipts) {
      expect(r).toMatchObject({ delivered: true, stat: 'DELIVRD' });
      expect(r.phone).toMatch(/^18900\d{6}$/);
      expect(Math.abs(r.doneAt.getTime() - Date.now())).toBeLessThan(120_000);
    }
    await until(
      () =>
        new Set(
          g
            .deliverResps()
            .filter((d) => d.status === 0)
            .map((d) => d.deliverResp),
        ).size === 10,
    );
    expect(l.stats).toMatchObject({ submitted: 10, accepted: 10, receipts: 10 });
    expect(g.logins()[0]).toMatchObject({ login: '10690001', mode: 2, status: 0 });
  }, 30_000);

  it('-fail gives UNDELIV reports; -mo-every gives uplinks routed back to the prefix + extension', async () => {
    const g = await smgw(['-fail', '0.5', '-mo-every', '2']);
    const l = link(g);
    const receipts: Receipt[] = [];
    const mos: MoMessage[] = [];
    l.onReceipts(async (r) => void receipts.push(...r));
    l.onMo(async (m) => void mos.push(...m));
    await l.waitReady();
    const res = await l.submit(reqs(20));
    expect(res.every((r) => r.status === 'accepted')).toBe(true);
    await until(() => receipts.length === 20 && mos.length === 10);
    const failed = receipts.filter((r) => !r.delivered);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.length).toBeLessThan(20);
    for (const r of failed) expect(r.stat).toBe('UNDELIV');
    expect(new Set(receipts.map((r) => r.msgId))).toEqual(new Set(ids(res)));
    for (const m of mos) {
      expect(m.text).toBe('收到，谢谢 TD');
      expect(m.from).toMatch(/^18900\d{6}$/);
      expect(['10690077', '1069007712']).toContain(m.to);
      expect(m.smscRef).toMatch(/^smgp:[0-9a-f]{20}$/);
    }
  }, 30_000);

  it('a failed handler answers Status 1: the gateway is told, the link stays up', async () => {
    const g = await smgw();
    const l = link(g);
    let calls = 0;
    l.onReceipts(async () => {
      calls++;
      throw new Error('database down');
    });
    await l.waitReady();
    await l.submit(reqs(2));
    await until(() => calls >= 1);
    await until(() => g.deliverResps().some((d) => d.status === 1), 5000);
    expect(g.deliverResps().every((d) => d.status === 1)).toBe(true);
    expect(l.ready).toBe(true);
  }, 20_000);

  it('a wrong password is refused (21) and retried with back-off; nothing is submitted', async () => {
    const g = await smgw();
    const l = link(g, 'reconnect_min_ms=50&reconnect_max_ms=2000&queue_wait_ms=300', 'wrong');
    await new Promise((r) => setTimeout(r, 1500));
    expect(l.ready).toBe(false);
    const attempts = l.stats.reconnects;
    expect(attempts).toBeGreaterThanOrEqual(1);
    expect(attempts).toBeLessThan(6);
    const res = await l.submit([{ ref: 1, to: '18900000001', from: '106900', text: 'x' }]);
    expect(res[0].status).toBe('retry');
    expect(g.logins().length).toBeGreaterThanOrEqual(1);
    expect(g.logins().every((c) => c.status === 21)).toBe(true);
    expect(g.submits()).toHaveLength(0);
  }, 20_000);

  it('a gateway that goes away and comes back: the link logs in again and sends on, reports matched', async () => {
    const port = await freePort();
    const g1 = await smgw([], port, 'first.jsonl');
    const l = link(g1, 'queue_wait_ms=20000');
    const receipts: Receipt[] = [];
    l.onReceipts(async (r) => void receipts.push(...r));
    await l.waitReady();
    const first = await l.submit(reqs(5, 1));
    expect(first.every((r) => r.status === 'accepted')).toBe(true);
    await until(() => receipts.length === 5);
    // the gateway stops: the link goes down and queues
    await stopPeer(g1.proc);
    await until(() => !l.ready);
    const pending = l.submit(reqs(5, 10));
    await new Promise((r) => setTimeout(r, 300));
    // and comes back on the same port
    const g2 = await smgw([], port, 'second.jsonl');
    const second = await pending;
    expect(second.every((r) => r.status === 'accepted')).toBe(true);
    await until(() => receipts.length === 10);
    expect(new Set(receipts.map((r) => r.msgId))).toEqual(new Set([...ids(first), ...ids(second)]));
    expect(g2.submits()).toHaveLength(5);
    expect(l.stats.reconnects).toBeGreaterThanOrEqual(1);
  }, 30_000);
});

describe('smgp:// URLs', () => {
  it('parses the SMGP options', () => {
    const c = parseSmppUrl(
      'smgp://10690001:se%40cret@gw.example:8891?sp_id=12345678&src=1069000&service_id=MJS0019901&window=16&connections=2&prefix=106901',
    );
    expect(c).toMatchObject({
      protocol: 'smgp',
      host: 'gw.example',
      port: 8891,
      systemId: '10690001',
      password: 'se@cret',
      window: 16,
      connections: 2,
    });
    expect(c.smgp).toEqual({ serviceId: 'MJS0019901', src: '1069000', spId: '12345678', prefix: '106901' });
    expect(parseSmppUrl('smgp://10690001:x@h').smgp).toEqual({
      serviceId: '',
      src: '',
      spId: '10690001',
      prefix: null,
    });
    expect(parseSmppUrl('smgp://10690001:x@h').port).toBe(8890);
    expect(describeSmsc(c)).toBe('smgp://10690001@gw.example:8891');
    expect(() => parseSmppUrl('smgp://123456789:x@h')).toThrow(/ClientID/);
    expect(() => parseSmppUrl('smgp://1:x@h?src=12a')).toThrow(/src/);
    expect(() => parseSmppUrl('smgp://1:x@h?version=3')).toThrow(/unknown option/);
    expect(parseChannel({ name: 'ct', url: 'smgp://10690001:x@h?src=1069000', carriers: ['电信'] }).cfg.protocol).toBe(
      'smgp',
    );
  });
});

describe('the embedded SMGP gateway simulator (smgp-simulator.ts)', () => {
  it('accepts, reports (kept across a dropped connection), replies; refuses a wrong secret', async () => {
    const sim = await startSmgpSimulator({
      seed: 7,
      delivered: 0.5,
      failed: 0.5,
      noReceipt: 0,
      latencyMinMs: 200,
      latencyMaxMs: 300,
      moRatio: 1,
      moDelayMs: 10,
      redeliverMs: 50,
    });
    open.push(sim);
    const l = createSmscLink(parseSmppUrl(`${sim.url}?src=106900&${FAST}`), undefined, { sourcePrefix: '106900' });
    open.push(l);
    const receipts: Receipt[] = [];
    const mos: MoMessage[] = [];
    l.onReceipts(async (r) => void receipts.push(...r));
    l.onMo(async (m) => void mos.push(...m));
    await l.waitReady();
    const res = await l.submit([
      ...reqs(10),
      { ref: 50, to: '18900000050', from: '1069007712', text: '长'.repeat(100) },
    ]);
    expect(res.every((r) => r.status === 'accepted')).toBe(true);
    expect(sim.recent.filter((s) => s.pkTotal === 2).map((s) => s.text)).toEqual(['长'.repeat(67), '长'.repeat(33)]);
    expect(sim.recent[0]).toMatchObject({
      srcTermId: '10690077',
      to: '18900000001',
      text: '【云讯通】验证码1234',
      msgFormat: 8,
    });
    sim.dropConnections();
    await until(() => receipts.length === 12);
    expect(new Set(receipts.map((r) => r.msgId))).toEqual(new Set(ids(res)));
    expect(receipts.some((r) => r.delivered) && receipts.some((r) => !r.delivered)).toBe(true);
    await until(() => mos.length === receipts.filter((r) => r.delivered).length);
    for (const m of mos) expect(['10690077', '1069007712']).toContain(m.to);
    expect(sim.counts()).toMatchObject({ accepted: 12, reportsPending: 0, connectFailures: 0 });

    const bad = createSmscLink(parseSmppUrl(`${sim.url.replace(':secret@', ':wrong@')}?${FAST}`));
    open.push(bad);
    await until(() => sim.counts().connectFailures >= 1);
    expect(bad.ready).toBe(false);
  }, 20_000);
});
