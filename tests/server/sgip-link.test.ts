/**
 * The SGIP carrier link (server/modules/smsc/sgip-client.ts) against an implementation this project
 * did not write: ../shared/interop/bin/sgip-peer in its smg role (go_sgip), no database. Short and
 * long texts as the SMG logs them, every report (handed over the SMG's bind-back to the link's
 * callback listener) matched by the submit's sequence number, failures, uplinks, a failed handler,
 * a refused password with back-off, an SMG that goes away and comes back; the callback listener's
 * refusals; sgip:// URLs; the embedded SGIP simulator.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSmscLink } from '../../server/modules/smsc/link';
import type { SgipLinkHandle } from '../../server/modules/smsc/sgip-client';
import { describeSmsc, parseChannel, parseSmppUrl } from '../../server/modules/smsc/config';
import { startSgipSimulator } from '../../server/modules/smsc/sgip-simulator';
import {
  CMD,
  decodePacket,
  encodeBind,
  encodeReport,
  encodeSubmit,
  encodeTrace,
  SgipFrameSplitter,
  SUBMIT_DEFAULTS,
  type SgipPacket,
} from '../../server/lib/sgip-pdu';
import type { MoMessage, Receipt, SubmitRequest, SubmitResult } from '../../server/modules/smsc/types';

const PEER = path.resolve(import.meta.dirname, '../../../shared/interop/bin/sgip-peer');
const hasPeer = fs.existsSync(PEER);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sgip-link-'));
const peers: ChildProcess[] = [];
const open: { close(): Promise<void> }[] = [];

afterEach(async () => {
  while (open.length) await open.pop()!.close();
  while (peers.length) await stop(peers.pop()!);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function stop(p: ChildProcess) {
  if (p.exitCode === null && p.signalCode === null) {
    p.kill('SIGTERM');
    await new Promise((r) => p.once('exit', r));
  }
}

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

interface Smg {
  port: number;
  callbackPort: number;
  proc: ChildProcess;
  lines(): Record<string, unknown>[];
  submits(): Record<string, unknown>[];
  /** our REPORT_RESP / DELIVER_RESP as the SMG logged them */
  callbackResps(): Record<string, unknown>[];
  binds(): Record<string, unknown>[];
  output(): string;
}

/** starts sgip-peer smg on a free port (or `port`), binding back to `callbackPort`; resolves when it accepts connections */
async function smg(extra: string[] = [], at?: { port: number; callbackPort: number }): Promise<Smg> {
  const port = at?.port ?? (await freePort());
  const callbackPort = at?.callbackPort ?? (await freePort());
  const log = path.join(tmp, `submits-${port}.jsonl`);
  let out = '';
  const proc = spawn(
    PEER,
    [
      'smg',
      '-listen',
      `127.0.0.1:${port}`,
      '-user',
      'sp1',
      '-password',
      'secret',
      '-callback',
      `127.0.0.1:${callbackPort}`,
      '-callback-user',
      'smg',
      '-callback-password',
      'secret2',
      '-log',
      log,
      '-report-ms',
      '100',
      ...extra,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  peers.push(proc);
  const end = Date.now() + 10_000;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (ok) break;
    if (Date.now() > end || proc.exitCode !== null) throw new Error(`sgip-peer did not start: ${out}`);
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
    callbackPort,
    proc,
    lines,
    output: () => out,
    submits: () => lines().filter((r) => 'seq' in r && 'dest' in r),
    callbackResps: () => lines().filter((r) => 'callbackResp' in r),
    binds: () => lines().filter((r) => 'bind' in r),
  };
}

const FAST = 'reconnect_min_ms=30&reconnect_max_ms=300&receipt_batch_ms=5';

function link(g: Smg, query = '', password = 'secret'): SgipLinkHandle {
  const cfg = parseSmppUrl(
    `sgip://sp1:${password}@127.0.0.1:${g.port}?corp_id=12345&sp_number=10655001&service_type=HELP&callback_port=${g.callbackPort}&callback_host=127.0.0.1&callback_user=smg&callback_password=secret2&${FAST}${query ? `&${query}` : ''}`,
  );
  const l = createSmscLink(cfg, undefined, { sourcePrefix: '106900' }) as SgipLinkHandle;
  open.push(l);
  return l;
}

const reqs = (n: number, from = 1, text = '【云讯通】验证码1234'): SubmitRequest[] =>
  Array.from({ length: n }, (_, i) => ({
    ref: from + i,
    to: `1300000${String(from + i).padStart(4, '0')}`,
    from: `106900${77}${i % 3 ? '12' : ''}`,
    text,
  }));

const ids = (res: SubmitResult[]) => res.flatMap((r) => (r.status === 'accepted' ? (r.parts ?? [r.msgId]) : []));

describe.skipIf(!hasPeer)('SGIP link against sgip-peer smg', () => {
  it('short and long messages: accepted, logged as sent, every report matched by each part over the bind-back', async () => {
    const g = await smg(['-strict']);
    const l = link(g);
    const receipts: Receipt[] = [];
    l.onReceipts(async (r) => void receipts.push(...r));
    await l.waitReady();
    const long = '长'.repeat(150);
    const ascii = 'Your code is 1234. '.repeat(9);
    const batch = [
      ...reqs(5),
      { ref: 100, to: '13000001000', from: '10690077', text: long },
      { ref: 101, to: '+8613000001001', from: '1069007712', text: ascii },
    ];
    const res = await l.submit(batch);
    expect(res.map((r) => r.status)).toEqual(batch.map(() => 'accepted'));
    const lr = res[5] as Extract<SubmitResult, { status: 'accepted' }>;
    expect(lr.parts).toHaveLength(3);
    for (const id of ids(res)) expect(id).toMatch(/^3000012345-\d{9,10}-\d+$/);

    const subs = g.submits();
    expect(subs).toHaveLength(5 + 3 + 2);
    const bySeq = new Map(subs.map((s) => [String(s.seq), s]));
    for (const id of ids(res)) expect(bySeq.has(id)).toBe(true);
    expect(bySeq.get((res[0] as { msgId: string }).msgId)).toMatchObject({
      udhi: 0,
      coding: 8,
      spNumber: '1065500177',
      corpId: '12345',
      serviceType: 'HELP',
      reportFlag: 1,
      dest: ['8613000000001'],
      text: '【云讯通】验证码1234',
    });
    expect(bySeq.get((res[1] as { msgId: string }).msgId)!.spNumber).toBe('106550017712');
    lr.parts!.forEach((id, i) => {
      const s = bySeq.get(id)!;
      expect(s).toMatchObject({ udhi: 1, coding: 8 });
      expect(String(s.hex).slice(0, 12)).toBe(
        `050003${(100).toString(16).padStart(2, '0')}03${String(i + 1).padStart(2, '0')}`,
      );
    });
    expect(lr.parts!.map((id) => bySeq.get(id)!.text).join('')).toBe(long);
    const ap = (res[6] as { parts: string[] }).parts.map((id) => bySeq.get(id)!);
    expect(ap.map((s) => s.coding)).toEqual([0, 0]);
    expect(ap.map((s) => s.dest)).toEqual([['8613000001001'], ['8613000001001']]);

    await until(() => receipts.length === 10);
    expect(new Set(receipts.map((r) => r.msgId))).toEqual(new Set(ids(res)));
    for (const r of receipts) {
      expect(r).toMatchObject({ delivered: true, stat: 'DELIVRD', err: '' });
      expect(r.phone).toMatch(/^1300000\d{4}$/);
    }
    // every report answered with SGIP_REPORT_RESP result 0 after the handler
    await until(() => g.callbackResps().filter((d) => d.callbackResp === '0x80000005' && d.result === 0).length === 10);
    expect(l.stats).toMatchObject({ submitted: 10, accepted: 10, receipts: 10 });
  }, 30_000);

  it('-fail gives failed reports; -mo-every gives uplinks routed back to the prefix + extension', async () => {
    const g = await smg(['-fail', '0.5', '-mo-every', '2']);
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
    for (const r of failed) {
      expect(r.stat).toBe('UNDELIV');
      expect(r.err).toMatch(/^\d+$/);
      expect(r.err).not.toBe('0');
    }
    expect(new Set(receipts.map((r) => r.msgId))).toEqual(new Set(ids(res)));
    for (const m of mos) {
      expect(m.text).toBe('收到，谢谢 TD');
      expect(m.from).toMatch(/^1300000\d{4}$/);
      expect(['10690077', '1069007712']).toContain(m.to);
      expect(m.smscRef).toMatch(/^sgip:\d+-\d+-\d+$/);
    }
    await until(() => g.callbackResps().filter((d) => d.callbackResp === '0x80000004' && d.result === 0).length === 10);
  }, 30_000);

  it('a failed handler answers non-zero: the SMG is told, the link stays up', async () => {
    const g = await smg();
    const l = link(g);
    let calls = 0;
    l.onReceipts(async () => {
      calls++;
      throw new Error('database down');
    });
    await l.waitReady();
    await l.submit(reqs(2));
    await until(() => calls >= 1);
    await until(() => g.callbackResps().some((d) => d.result === 11), 5000);
    expect(g.callbackResps().every((d) => d.result === 11)).toBe(true);
    expect(l.ready).toBe(true);
  }, 20_000);

  it('a wrong password is refused and retried with back-off; nothing is submitted', async () => {
    const g = await smg();
    const l = link(g, 'reconnect_min_ms=50&reconnect_max_ms=2000&queue_wait_ms=300', 'wrong');
    await new Promise((r) => setTimeout(r, 1500));
    expect(l.ready).toBe(false);
    const attempts = l.stats.reconnects;
    expect(attempts).toBeGreaterThanOrEqual(1);
    expect(attempts).toBeLessThan(6);
    const res = await l.submit([{ ref: 1, to: '13000000001', from: '106900', text: 'x' }]);
    expect(res[0]).toMatchObject({ status: 'retry', code: 'SGIP:NOT_BOUND' });
    expect(g.binds().length).toBeGreaterThanOrEqual(attempts);
    expect(g.binds().every((b) => b.result === 1)).toBe(true);
    expect(g.submits()).toHaveLength(0);
  }, 20_000);

  it('an SMG that goes away and comes back: retries while it is away, then accepted and reported', async () => {
    const g = await smg();
    const l = link(g, 'queue_wait_ms=300');
    const receipts: Receipt[] = [];
    l.onReceipts(async (r) => void receipts.push(...r));
    await l.waitReady();
    expect((await l.submit(reqs(2))).every((r) => r.status === 'accepted')).toBe(true);
    await until(() => receipts.length === 2);
    await stop(g.proc);
    await until(() => !l.ready);
    const away = await l.submit(reqs(2, 10));
    expect(away.map((r) => r.status)).toEqual(['retry', 'retry']);
    const g2 = await smg([], { port: g.port, callbackPort: g.callbackPort });
    await l.waitReady(10_000);
    const back = await l.submit(reqs(2, 10));
    expect(back.every((r) => r.status === 'accepted')).toBe(true);
    await until(() => receipts.length === 4);
    expect(new Set(receipts.slice(2).map((r) => r.msgId))).toEqual(new Set(ids(back)));
    // the same log file: the first SMG's two submits, then the second's two; nothing written while away
    expect(g2.submits().map((x) => x.seq)).toEqual([
      ...g
        .submits()
        .slice(0, 2)
        .map((x) => x.seq),
      ...ids(back),
    ]);
  }, 30_000);
});

/** a raw connection to a listener: the packets it answers with, and whether it was closed */
async function raw(port: number) {
  const s = net.connect(port, '127.0.0.1');
  await new Promise((r) => s.once('connect', r));
  const got: SgipPacket[] = [];
  let closed = false;
  const sp = new SgipFrameSplitter();
  s.on('data', (b: Buffer) => sp.push(b).forEach((p) => got.push(decodePacket(p))));
  s.on('error', () => {});
  s.on('close', () => (closed = true));
  return { s, got, closed: () => closed };
}

const SEQ = { node: 1, time: 1205000000, number: 1 };

describe('SGIP link: the callback listener', () => {
  it('refuses another login type, a wrong login, a packet before the bind; takes a report after a good bind', async () => {
    const port = await freePort();
    const l = createSmscLink(
      parseSmppUrl(
        `sgip://sp1:x@127.0.0.1:1?callback_port=${port}&callback_host=127.0.0.1&callback_user=smg&callback_password=pw&${FAST}`,
      ),
    ) as SgipLinkHandle;
    open.push(l);
    const receipts: Receipt[] = [];
    l.onReceipts(async (r) => void receipts.push(...r));
    expect(await l.callbackListening()).toBe(port);

    const a = await raw(port);
    a.s.write(encodeBind(SEQ, { loginType: 1, loginName: 'smg', loginPassword: 'pw' }));
    await until(() => a.closed());
    expect(a.got[0]).toMatchObject({ command: 'BIND_RESP', result: 4 });

    const b = await raw(port);
    b.s.write(encodeBind(SEQ, { loginType: 2, loginName: 'smg', loginPassword: 'nope' }));
    await until(() => b.closed());
    expect(b.got[0]).toMatchObject({ command: 'BIND_RESP', result: 1 });

    const c = await raw(port);
    c.s.write(
      encodeReport(SEQ, { submitSeq: SEQ, reportType: 0, userNumber: '8613000000001', state: 0, errorCode: 0 }),
    );
    await until(() => c.closed());
    expect(c.got).toHaveLength(0);

    const d = await raw(port);
    const junk = Buffer.alloc(8);
    junk.writeUInt32BE(7, 0);
    d.s.write(junk);
    await until(() => d.closed());

    const e = await raw(port);
    e.s.write(encodeBind(SEQ, { loginType: 2, loginName: 'smg', loginPassword: 'pw' }));
    e.s.write(
      encodeReport(
        { ...SEQ, number: 2 },
        {
          submitSeq: { node: 9, time: 1205000000, number: 77 },
          reportType: 0,
          userNumber: '8613000000001',
          state: 2,
          errorCode: 29,
        },
      ),
    );
    await until(() => e.got.length === 2);
    expect(e.got[0]).toMatchObject({ command: 'BIND_RESP', result: 0 });
    expect(e.got[1]).toMatchObject({ command: 'REPORT_RESP', result: 0, seq: { node: 1, number: 2 } });
    expect(e.got[1].commandId).toBe(CMD.REPORT_RESP);
    expect(receipts).toEqual([
      expect.objectContaining({
        msgId: '9-1205000000-77',
        delivered: false,
        stat: 'UNDELIV',
        err: '29',
        phone: '13000000001',
      }),
    ]);
    // SGIP_TRACE: an SP is not a node of an MT message's path: answered with no node, the session goes on
    e.s.write(
      encodeTrace(
        { ...SEQ, number: 3 },
        { submitSeq: { node: 9, time: 1205000000, number: 77 }, userNumber: '8613000000001' },
      ),
    );
    await until(() => e.got.length === 3);
    expect(e.got[2]).toMatchObject({ command: 'TRACE_RESP', hops: [], seq: { number: 3 } });
    expect(e.closed()).toBe(false);
    e.s.destroy();
  }, 20_000);
});

describe('sgip:// URLs', () => {
  it('parses the SGIP options', () => {
    const c = parseSmppUrl(
      'sgip://sp1:se%40cret@smg.example:8811?corp_id=12345&sp_number=10655001&node_id=3000012345&service_type=HELP&callback_port=8812&callback_user=smg&callback_password=pw&window=16&prefix=106901',
    );
    expect(c).toMatchObject({
      protocol: 'sgip',
      host: 'smg.example',
      port: 8811,
      systemId: 'sp1',
      password: 'se@cret',
      window: 16,
    });
    expect(c.sgip).toEqual({
      corpId: '12345',
      spNumber: '10655001',
      serviceType: 'HELP',
      nodeId: 3000012345,
      callbackPort: 8812,
      callbackHost: '0.0.0.0',
      callbackUser: 'smg',
      callbackPassword: 'pw',
      prefix: '106901',
    });
    const d = parseSmppUrl('sgip://sp1:x@h?corp_id=00042');
    expect(d.port).toBe(8801);
    expect(d.sgip).toMatchObject({ nodeId: 3000000042, callbackPort: null });
    expect(describeSmsc(c)).toBe('sgip://sp1@smg.example:8811');
    expect(() => parseSmppUrl('sgip://a234567890123456x:x@h')).toThrow(/login/);
    expect(() => parseSmppUrl('sgip://sp1:x@h?corp_id=123456')).toThrow(/corp_id/);
    expect(() => parseSmppUrl('sgip://sp1:x@h?callback_port=70000')).toThrow(/callback_port/);
    expect(() => parseSmppUrl('sgip://sp1:x@h?enquire_ms=1000')).toThrow(/unknown option/);
    expect(parseChannel({ name: 'cu', url: 'sgip://sp1:x@h?corp_id=1', carriers: ['联通'] }).cfg.protocol).toBe('sgip');
  });
});

describe('the embedded SGIP SMG simulator (sgip-simulator.ts)', () => {
  it('accepts, reports over its bind-back (kept while the listener is away), replies; refuses a wrong password', async () => {
    const sim = await startSgipSimulator({
      seed: 7,
      delivered: 0.5,
      failed: 0.5,
      noReceipt: 0,
      latencyMinMs: 200,
      latencyMaxMs: 300,
      moRatio: 1,
      moDelayMs: 10,
      redeliverMs: 100,
    });
    open.push(sim);
    const cbPort = await freePort();
    const url = `${sim.url}?sp_number=106900&prefix=106900&callback_port=${cbPort}&callback_host=127.0.0.1&callback_user=smg&callback_password=secret&${FAST}`;
    const l = createSmscLink(parseSmppUrl(url), undefined, { sourcePrefix: '106900' }) as SgipLinkHandle;
    open.push(l);
    const receipts: Receipt[] = [];
    const mos: MoMessage[] = [];
    l.onReceipts(async (r) => void receipts.push(...r));
    l.onMo(async (m) => void mos.push(...m));
    await l.waitReady();
    const res = await l.submit([
      ...reqs(10),
      { ref: 50, to: '13000000050', from: '1069007712', text: '长'.repeat(100) },
    ]);
    expect(res.every((r) => r.status === 'accepted')).toBe(true);
    expect(sim.recent.filter((s) => s.tpUdhi === 1).map((s) => s.text)).toEqual(['长'.repeat(67), '长'.repeat(33)]);
    expect(sim.recent[0]).toMatchObject({
      spNumber: '10690077',
      to: '8613000000001',
      text: '【云讯通】验证码1234',
      messageCoding: 8,
      reportFlag: 1,
    });
    // the listener is not known to the SMG yet: the reports wait
    await new Promise((r) => setTimeout(r, 500));
    expect(receipts).toHaveLength(0);
    sim.bindBackTo(cbPort);
    await until(() => receipts.length === 12);
    expect(new Set(receipts.map((r) => r.msgId))).toEqual(new Set(ids(res)));
    expect(receipts.some((r) => r.delivered) && receipts.some((r) => !r.delivered)).toBe(true);
    await until(() => mos.length === receipts.filter((r) => r.delivered).length);
    for (const m of mos) expect(['10690077', '1069007712']).toContain(m.to);
    expect(sim.counts()).toMatchObject({ accepted: 12, reportsPending: 0, bindFailures: 0 });

    const bad = createSmscLink(parseSmppUrl(`${sim.url.replace(':secret@', ':wrong@')}?${FAST}`));
    open.push(bad);
    await until(() => sim.counts().bindFailures >= 1);
    expect(bad.ready).toBe(false);
  }, 20_000);
});

describe('the embedded SGIP SMG simulator: SGIP_TRACE', () => {
  it('answers what it holds of a submit: arrived with its times, else Result 1', async () => {
    const sim = await startSgipSimulator({ seed: 3, delivered: 1, failed: 0, noReceipt: 0, nodeId: 3000012345 });
    open.push(sim);
    const c = await raw(sim.port);
    c.s.write(encodeBind(SEQ, { loginType: 1, loginName: 'sp1', loginPassword: 'secret' }));
    const sub = { ...SEQ, number: 2 };
    c.s.write(
      encodeSubmit(sub, {
        ...SUBMIT_DEFAULTS,
        spNumber: '106900',
        userNumbers: ['8613000000009'],
        corpId: '',
        messageContent: Buffer.from('hi'),
      }),
    );
    c.s.write(encodeTrace({ ...SEQ, number: 3 }, { submitSeq: sub, userNumber: '8613000000009' }));
    c.s.write(encodeTrace({ ...SEQ, number: 4 }, { submitSeq: sub, userNumber: '8613000000008' }));
    c.s.write(encodeTrace({ ...SEQ, number: 5 }, { submitSeq: { ...sub, number: 99 }, userNumber: '8613000000009' }));
    await until(() => c.got.length === 5);
    expect(c.got.map((p) => p.command)).toEqual(['BIND_RESP', 'SUBMIT_RESP', 'TRACE_RESP', 'TRACE_RESP', 'TRACE_RESP']);
    const [known, otherNumber, unknown] = c.got.slice(2) as Extract<SgipPacket, { command: 'TRACE_RESP' }>[];
    expect(known.hops).toHaveLength(1);
    expect(known.hops[0]).toMatchObject({ result: 0, nodeId: '012345', sendTime: '' });
    expect(known.hops[0].receiveTime).toMatch(/^\d{12}$/);
    expect(otherNumber.hops).toEqual([{ result: 1, nodeId: '012345', receiveTime: '', sendTime: '' }]);
    expect(unknown.hops).toEqual([{ result: 1, nodeId: '012345', receiveTime: '', sendTime: '' }]);
    expect(c.closed()).toBe(false);
    c.s.destroy();
  });
});
