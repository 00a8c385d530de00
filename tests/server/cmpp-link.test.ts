/**
 * The CMPP carrier link (server/modules/smsc/cmpp-client.ts) against an implementation this project
 * did not write: ../shared/interop/bin/cmpp-peer in its ismg role (gocmpp), no database. Both
 * versions: short and long texts as the gateway logs them, every report matched, failures,
 * uplinks, flow control (retries, never a loss), -strict, a refused password with back-off; and
 * cmpp:// URLs.
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
import { decodeCmppText } from '../../server/lib/cmpp-pdu';
import { startCmppSimulator } from '../../server/modules/smsc/cmpp-simulator';
import type { MoMessage, Receipt, SubmitRequest, SubmitResult } from '../../server/modules/smsc/types';

const PEER = path.resolve(import.meta.dirname, '../../../shared/interop/bin/cmpp-peer');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cmpp-link-'));
const peers: ChildProcess[] = [];
const open: { close(): Promise<void> }[] = [];

afterEach(async () => {
  while (open.length) await open.pop()!.close();
  while (peers.length) {
    const p = peers.pop()!;
    if (p.exitCode === null) {
      p.kill('SIGTERM');
      await new Promise((r) => p.once('exit', r));
    }
  }
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

interface Ismg {
  port: number;
  log: string;
  submits(): Record<string, unknown>[];
  /** the gateway's log of our CMPP_DELIVER_RESP: { deliverResp: Msg_Id, result } */
  deliverResps(): Record<string, unknown>[];
  /** CMPP_CONNECTs and their status */
  connects(): Record<string, unknown>[];
  output(): string;
}

/** starts cmpp-peer ismg on a free port; resolves when it accepts connections */
async function ismg(version: 2 | 3, extra: string[] = []): Promise<Ismg> {
  const port = await freePort();
  const log = path.join(tmp, `submits-${port}.jsonl`);
  let out = '';
  const p = spawn(
    PEER,
    [
      'ismg',
      '-listen',
      `127.0.0.1:${port}`,
      '-v',
      String(version),
      '-user',
      '900001',
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
    if (Date.now() > end || p.exitCode !== null) throw new Error(`cmpp-peer did not start: ${out}`);
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
    log,
    output: () => out,
    submits: () => lines().filter((r) => 'pkTotal' in r),
    deliverResps: () => lines().filter((r) => 'deliverResp' in r),
    connects: () => lines().filter((r) => 'connect' in r),
  };
}

// cmpp-peer writes a report's times in the machine's local time (a gateway in China: Beijing time, tz=480)
const FAST = `reconnect_min_ms=30&reconnect_max_ms=300&receipt_batch_ms=5&enquire_ms=1000&tz=${-new Date().getTimezoneOffset()}`;

function link(g: Ismg, version: 2 | 3, query = '', password = 'secret'): SmscLinkHandle {
  const cfg = parseSmppUrl(
    `cmpp://900001:${password}@127.0.0.1:${g.port}?version=${version}&service_id=MJS0019901&src_id=1069000&${FAST}${query ? `&${query}` : ''}`,
  );
  const l = createSmscLink(cfg, undefined, { sourcePrefix: '106900' });
  open.push(l);
  return l;
}

const reqs = (n: number, from = 1, text = '【云讯通】验证码1234'): SubmitRequest[] =>
  Array.from({ length: n }, (_, i) => ({
    ref: from + i,
    to: `1380000${String(from + i).padStart(4, '0')}`,
    from: `106900${77}${i % 3 ? '12' : ''}`,
    text,
  }));

const ids = (res: SubmitResult[]) => res.flatMap((r) => (r.status === 'accepted' ? (r.parts ?? [r.msgId]) : []));

describe.each([2, 3] as const)('CMPP %s.0 link against cmpp-peer ismg', (version) => {
  it('short and long messages: accepted, logged as sent, every report matched by each part', async () => {
    const g = await ismg(version, ['-strict']);
    const l = link(g, version);
    const receipts: Receipt[] = [];
    l.onReceipts(async (r) => void receipts.push(...r));
    await l.waitReady();
    const long = '长'.repeat(150); // 3 parts of 67 + 67 + 16
    const ascii = 'Your code is 1234. '.repeat(9); // 171 octets: 2 parts
    const batch = [
      ...reqs(5),
      { ref: 100, to: '13800001000', from: '10690077', text: long },
      { ref: 101, to: '13800001001', from: '1069007712', text: ascii },
    ];
    const res = await l.submit(batch);
    expect(res.map((r) => r.status)).toEqual(batch.map(() => 'accepted'));
    const lr = res[5] as Extract<SubmitResult, { status: 'accepted' }>;
    expect(lr.parts).toHaveLength(3);
    expect(lr.msgId).toBe(lr.parts![0]);
    expect((res[6] as { parts: string[] }).parts).toHaveLength(2);
    for (const id of ids(res)) expect(id).toMatch(/^\d{1,20}$/);

    const subs = g.submits();
    expect(subs).toHaveLength(5 + 3 + 2);
    const byId = new Map(subs.map((s) => [String(s.msgId), s]));
    for (const id of ids(res)) expect(byId.has(id)).toBe(true);
    const short = byId.get((res[0] as { msgId: string }).msgId)!;
    expect(short).toMatchObject({
      pkTotal: 1,
      pkNumber: 1,
      udhi: 0,
      msgFmt: 8,
      msgSrc: '900001',
      srcId: '106900077',
      serviceId: 'MJS0019901',
      registeredDelivery: 1,
      text: '【云讯通】验证码1234',
    });
    expect(JSON.stringify(short.dest)).toContain('13800000001');
    const withExt = byId.get((res[1] as { msgId: string }).msgId)!;
    expect(withExt.srcId).toBe('10690007712');
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
    expect(ap.map((s) => s.text).join('')).toBe(ascii);

    await until(() => receipts.length === 10);
    expect(new Set(receipts.map((r) => r.msgId))).toEqual(new Set(ids(res)));
    for (const r of receipts) {
      expect(r).toMatchObject({ delivered: true, stat: 'DELIVRD' });
      expect(r.phone).toMatch(/^13800\d{6}$/);
      expect(Math.abs(r.doneAt.getTime() - Date.now())).toBeLessThan(120_000);
    }
    // every report answered with CMPP_DELIVER_RESP result 0 after the handler
    await until(
      () =>
        new Set(
          g
            .deliverResps()
            .filter((d) => d.result === 0)
            .map((d) => d.deliverResp),
        ).size === 10,
    );
    expect(new Set(g.deliverResps().map((d) => String(d.deliverResp)))).toEqual(new Set(ids(res)));
    expect(l.stats).toMatchObject({ submitted: 10, accepted: 10, receipts: 10 }); // counted by part
  }, 30_000);

  it('-fail gives UNDELIV reports; -mo-every gives uplinks routed back to the prefix + extension', async () => {
    const g = await ismg(version, ['-fail', '0.5', '-mo-every', '2']);
    const l = link(g, version);
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
    for (const r of failed) expect(r).toMatchObject({ stat: 'UNDELIV', err: 'UNDELIV' });
    expect(new Set(receipts.map((r) => r.msgId))).toEqual(new Set(ids(res)));
    for (const m of mos) {
      expect(m.text).toBe('收到，谢谢 TD');
      expect(m.from).toMatch(/^13800\d{6}$/);
      expect(['10690077', '1069007712']).toContain(m.to);
      expect(m.smscRef).toMatch(/^cmpp:\d+$/);
    }
  }, 30_000);

  it('a failed handler answers non-zero: the gateway is told, the link stays up', async () => {
    const g = await ismg(version);
    const l = link(g, version);
    let calls = 0;
    l.onReceipts(async () => {
      calls++;
      throw new Error('database down');
    });
    await l.waitReady();
    await l.submit(reqs(2));
    await until(() => calls >= 1);
    await until(() => g.deliverResps().some((d) => d.result === 8), 5000);
    expect(g.deliverResps().every((d) => d.result === 8)).toBe(true);
    expect(l.ready).toBe(true);
  }, 20_000);

  it('-max-per-second: result 8 gives retries with back-off, never a loss', async () => {
    const g = await ismg(version, ['-max-per-second', '20']);
    const l = link(g, version, 'window=16&throttle_ms=50&queue_wait_ms=20000');
    const receipts: Receipt[] = [];
    l.onReceipts(async (r) => void receipts.push(...r));
    await l.waitReady();
    let pending = reqs(60, 1);
    const accepted: SubmitResult[] = [];
    let retries = 0;
    for (let round = 0; round < 40 && pending.length; round++) {
      const res = await l.submit(pending);
      const again = new Set(res.filter((r) => r.status === 'retry').map((r) => r.ref));
      retries += again.size;
      for (const r of res) {
        expect(['accepted', 'retry']).toContain(r.status);
        if (r.status === 'retry') expect(r.code).toBe('CMPP:8');
        if (r.status === 'accepted') accepted.push(r);
      }
      pending = pending.filter((p) => again.has(p.ref));
      if (pending.length) await new Promise((r) => setTimeout(r, 200));
    }
    expect(pending).toHaveLength(0);
    expect(retries).toBeGreaterThan(0);
    expect(new Set(accepted.map((r) => r.ref)).size).toBe(60);
    // the gateway accepted each message exactly once: every accepted Msg_Id logged, no other
    await until(() => receipts.length === 60, 15_000);
    expect(new Set(receipts.map((r) => r.msgId))).toEqual(new Set(ids(accepted)));
    const taken = g.submits().filter((s) => s.result === 0);
    expect(taken).toHaveLength(60);
    expect(new Set(taken.map((s) => String(s.msgId)))).toEqual(new Set(ids(accepted)));
    expect(g.submits().filter((s) => s.result === 8).length).toBe(retries);
  }, 40_000);

  it('a wrong password is refused and retried with back-off; nothing is submitted', async () => {
    const g = await ismg(version);
    const l = link(g, version, 'reconnect_min_ms=50&reconnect_max_ms=2000&queue_wait_ms=300', 'wrong');
    await new Promise((r) => setTimeout(r, 1500));
    expect(l.ready).toBe(false);
    const attempts = l.stats.reconnects;
    expect(attempts).toBeGreaterThanOrEqual(1);
    // a refused CONNECT starts the back-off at 16 × the minimum: a few attempts, not dozens
    expect(attempts).toBeLessThan(6);
    const res = await l.submit([{ ref: 1, to: '13800000001', from: '106900', text: 'x' }]);
    expect(res[0].status).toBe('retry');
    expect(g.connects().length).toBeGreaterThanOrEqual(attempts);
    expect(g.connects().length).toBeLessThanOrEqual(attempts + 1);
    expect(g.connects().every((c) => c.status === 3)).toBe(true);
    expect(g.submits()).toHaveLength(0);
  }, 20_000);
});

describe('CMPP link: connection faults', () => {
  it('a submit without an answer when the gateway drops the connection is unconfirmed; a bad Total_Length drops it', async () => {
    // a gateway that accepts CONNECT and never answers submits, then sends garbage
    const sockets: net.Socket[] = [];
    const server = net.createServer((s) => {
      sockets.push(s);
      s.on('data', (b: Buffer) => {
        if (b.readUInt32BE(4) === 0x00000001) {
          const resp = Buffer.alloc(30);
          resp.writeUInt32BE(30, 0);
          resp.writeUInt32BE(0x80000001, 4);
          resp.writeUInt32BE(b.readUInt32BE(8), 8);
          resp[29] = 0x20;
          s.write(resp);
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    open.push({
      close: () => new Promise<void>((r) => (sockets.forEach((s) => s.destroy()), server.close(() => r()))),
    });
    const port = (server.address() as net.AddressInfo).port;
    const l = createSmscLink(parseSmppUrl(`cmpp://900001:secret@127.0.0.1:${port}?${FAST}&timeout_ms=30000`));
    open.push(l);
    await l.waitReady();
    const p = l.submit(reqs(3));
    await until(() => l.stats.submitted === 3);
    const bad = Buffer.alloc(4);
    bad.writeUInt32BE(5, 0); // Total_Length 5: the stream is unreadable
    sockets[0].write(bad);
    const res = await p;
    expect(res.map((r) => r.status)).toEqual(['unconfirmed', 'unconfirmed', 'unconfirmed']);
    expect(res.map((r) => (r as { code: string }).code)).toEqual(['LINK_DOWN', 'LINK_DOWN', 'LINK_DOWN']);
    await until(() => l.ready && sockets.length === 2); // reconnected
  }, 20_000);
});

describe('cmpp:// URLs', () => {
  it('parses the CMPP options and keeps smpp:// as it was', () => {
    const c = parseSmppUrl(
      'cmpp://900001:se%40cret@gw.example:7891?version=3&service_id=MJS0019901&src_id=1069000&msg_src=900002&window=16&connections=2&prefix=106901',
    );
    expect(c).toMatchObject({
      protocol: 'cmpp',
      host: 'gw.example',
      port: 7891,
      systemId: '900001',
      password: 'se@cret',
      window: 16,
      connections: 2,
    });
    expect(c.cmpp).toEqual({
      version: 3,
      serviceId: 'MJS0019901',
      srcId: '1069000',
      msgSrc: '900002',
      prefix: '106901',
    });
    expect(parseSmppUrl('cmpp://900001:x@h').cmpp).toEqual({
      version: 2,
      serviceId: '',
      srcId: '',
      msgSrc: '900001',
      prefix: null,
    });
    expect(parseSmppUrl('cmpp://900001:x@h').port).toBe(7890);
    expect(describeSmsc(c)).toBe('cmpp://900001@gw.example:7891');
    expect(parseSmppUrl('smpp://a:b@h:1').protocol).toBe('smpp');
    expect(() => parseSmppUrl('cmpp://9000012:x@h')).toThrow(/SP id/);
    expect(() => parseSmppUrl('cmpp://900001:x@h?version=4')).toThrow(/version/);
    expect(() => parseSmppUrl('cmpp://900001:x@h?src_id=12a')).toThrow(/src_id/);
    expect(() => parseSmppUrl('cmpp://900001:x@h?long=sar')).toThrow(/unknown option/);
    expect(() => parseSmppUrl('foo://900001:x@h')).toThrow(/cmpp/);
    expect(parseChannel({ name: 'cm', url: 'cmpp://900001:x@h?version=3', carriers: ['移动'] }).cfg.protocol).toBe(
      'cmpp',
    );
  });

  it('decodes what the gateway logs as text', () => {
    expect(decodeCmppText(Buffer.from('6536', 'hex'), 8)).toBe('收');
  });
});

describe('the embedded CMPP gateway simulator (cmpp-simulator.ts)', () => {
  it('accepts, reports (kept across a dropped connection), replies; refuses a wrong secret', async () => {
    const sim = await startCmppSimulator({
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
    const l = createSmscLink(parseSmppUrl(`${sim.url}?version=3&src_id=106900&${FAST}`), undefined, {
      sourcePrefix: '106900',
    });
    open.push(l);
    const receipts: Receipt[] = [];
    const mos: MoMessage[] = [];
    l.onReceipts(async (r) => void receipts.push(...r));
    l.onMo(async (m) => void mos.push(...m));
    await l.waitReady();
    const res = await l.submit([
      ...reqs(10),
      { ref: 50, to: '13800000050', from: '1069007712', text: '长'.repeat(100) },
    ]);
    expect(res.every((r) => r.status === 'accepted')).toBe(true);
    expect(sim.recent.filter((s) => s.pkTotal === 2).map((s) => s.text)).toEqual(['长'.repeat(67), '长'.repeat(33)]);
    expect(sim.recent[0]).toMatchObject({
      srcId: '10690077',
      to: '13800000001',
      text: '【云讯通】验证码1234',
      msgFmt: 8,
    });
    sim.dropConnections(); // before the reports are due: they wait for the next connection
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
