/**
 * The SMPP link (server/modules/smsc/client.ts) against the embedded carrier simulator
 * (simulator.ts), no database: round trip, encodings, outcome mix, throttling, drops,
 * at-most-once ('unconfirmed'), acknowledgement after the handler, SMPP_URL errors.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import smpp from 'smpp';
import { afterEach, describe, expect, it } from 'vitest';
import { createSmscLink, type SmscLinkHandle } from '../../server/modules/smsc/client';
import { parseSmppUrl } from '../../server/modules/smsc/config';
import { loadConfig } from '../../server/config';
import {
  cstr,
  encodeResp,
  encodeSm,
  encodeText,
  fastReadPdu,
  idReadings,
  parseReceiptText,
  receiptText,
  refTlvName,
} from '../../server/lib/smpp-pdu';
import { startSimulator, type Simulator, type SimulatorSettings } from '../../server/modules/smsc/simulator';
import type { MoMessage, Receipt, SubmitRequest, SubmitResult } from '../../server/modules/smsc/types';
import { TEST_TLS_CERT, TEST_TLS_KEY } from '../fixtures/smpp-tls';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

const FAST = 'reconnect_min_ms=30&reconnect_max_ms=200&receipt_batch_ms=5';

async function setup(sim: Partial<SimulatorSettings> = {}, query = '') {
  const s = await startSimulator({ seed: 42, latencyMinMs: 0, latencyMaxMs: 5, moRatio: 0, ...sim });
  open.push(s);
  const link = createSmscLink(
    parseSmppUrl(`${s.url}?ref_tlv=0x1401&${FAST}&source=10690001${query ? `&${query}` : ''}`),
  );
  open.push(link);
  return { sim: s, link };
}

const until = async (cond: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 10));
  }
};

const reqs = (n: number, from = 1, text = '【云讯通】验证码1234'): SubmitRequest[] =>
  Array.from({ length: n }, (_, i) => ({
    ref: from + i,
    to: `1380000${String(from + i).padStart(4, '0')}`,
    from: '',
    text,
  }));

describe('SMPP link + simulator', () => {
  it('submit → accepted with a message id → receipt with that id (handler, then deliver_sm_resp)', async () => {
    const { sim, link } = await setup({ delivered: 1, failed: 0, noReceipt: 0 });
    const receipts: Receipt[] = [];
    link.onReceipts(async (r) => void receipts.push(...r));
    await link.waitReady();
    expect(link.ready).toBe(true);
    const res = await link.submit(reqs(3));
    expect(res.map((r) => r.status)).toEqual(['accepted', 'accepted', 'accepted']);
    expect(res.map((r) => r.ref)).toEqual([1, 2, 3]);
    await until(() => receipts.length === 3);
    const ids = res.map((r) => (r as { msgId: string }).msgId);
    expect(new Set(receipts.map((r) => r.msgId))).toEqual(new Set(ids));
    for (const r of receipts) {
      expect(r).toMatchObject({ delivered: true, stat: 'DELIVRD', err: '000' });
      expect(Math.abs(r.doneAt.getTime() - Date.now())).toBeLessThan(120_000);
    }
    expect(await sim.waitIdle()).toBe(true);
    expect(sim.counts()).toMatchObject({ accepted: 3, receiptsSent: 3, distinctRefs: 3, duplicates: [] });
    expect([...sim.refs.keys()].sort()).toEqual(['1', '2', '3']);
    expect(await link.submit([])).toEqual([]);
  });

  it('Chinese as UCS2, plain ASCII as IA5, long texts in message_payload with long=payload (one submit, one receipt)', async () => {
    const { sim, link } = await setup({ delivered: 1, failed: 0, noReceipt: 0 }, 'long=payload');
    const receipts: Receipt[] = [];
    link.onReceipts(async (r) => void receipts.push(...r));
    await link.waitReady();
    const long = `【云讯通】${'尊敬的客户您好，您本月的账单已出，请及时查看并缴费。'.repeat(18)}`.slice(0, 480);
    const texts = [
      'Your code is 1234.',
      '【测试】您的验证码是1234，5分钟内有效。',
      long,
      '[Shop] 50% off @ store_1 😀',
      'x'.repeat(300),
    ];
    const res = await link.submit(
      texts.map((text, i) => ({ ref: 100 + i, to: `1391234000${i}`, from: '106900011', text })),
    );
    expect(res.every((r) => r.status === 'accepted')).toBe(true);
    await until(() => receipts.length === texts.length);
    const byRef = new Map(sim.recent.map((r) => [r.ref, r]));
    texts.forEach((text, i) => {
      const got = byRef.get(String(100 + i))!;
      expect(got.text).toBe(text);
      expect(got.from).toBe('106900011');
      expect(got.to).toBe(`1391234000${i}`);
    });
    expect(byRef.get('100')).toMatchObject({ dataCoding: 1, payload: false });
    expect(byRef.get('101')).toMatchObject({ dataCoding: 8, payload: false });
    expect(byRef.get('102')).toMatchObject({ dataCoding: 8, payload: true });
    expect(byRef.get('103')).toMatchObject({ dataCoding: 8 });
    expect(byRef.get('104')).toMatchObject({ dataCoding: 1, payload: true });
    expect(sim.counts().accepted).toBe(texts.length);
  });

  it('refuses locally what cannot be valid (bad destination, source, text) without writing it', async () => {
    const { sim, link } = await setup();
    await link.waitReady();
    const res = await link.submit([
      { ref: 1, to: 'abc', from: '', text: 'x' },
      { ref: 2, to: '13800000000', from: 'x'.repeat(21), text: 'x' },
      { ref: 3, to: '13800000000', from: '', text: '长'.repeat(5000) },
      { ref: 4, to: '+8613800000000', from: 'SHOP', text: 'ok' },
    ]);
    expect(res).toEqual([
      { ref: 1, status: 'rejected', code: '0x0000000B' },
      { ref: 2, status: 'rejected', code: '0x0000000A' },
      { ref: 3, status: 'rejected', code: '0x00000001' },
      expect.objectContaining({ ref: 4, status: 'accepted' }),
    ]);
    expect(sim.counts().received).toBe(1);
    expect(sim.recent[0].to).toBe('8613800000000');
  });

  it('respects the outcome mix (delivered / failed / none, submit rejections) deterministically', async () => {
    const { sim, link } = await setup({
      delivered: 0.7,
      failed: 0.2,
      noReceipt: 0.1,
      rejectRatio: 0.05,
      rejectCode: 0x45,
      failures: [
        { stat: 'UNDELIV', err: '013' },
        { stat: 'EXPIRED', err: '002' },
      ],
    });
    const receipts: Receipt[] = [];
    link.onReceipts(async (r) => void receipts.push(...r));
    await link.waitReady();
    const n = 2000;
    const res = await link.submit(reqs(n));
    const rejected = res.filter((r) => r.status === 'rejected');
    const accepted = res.filter((r) => r.status === 'accepted');
    expect(rejected.length + accepted.length).toBe(n);
    expect(rejected.every((r) => (r as { code: string }).code === '0x00000045')).toBe(true);
    expect(rejected.length / n).toBeGreaterThan(0.02);
    expect(rejected.length / n).toBeLessThan(0.09);
    expect(await sim.waitIdle()).toBe(true);
    await until(() => receipts.length === sim.counts().receiptsSent);
    const delivered = receipts.filter((r) => r.delivered).length;
    const failed = receipts.filter((r) => !r.delivered);
    expect(delivered / accepted.length).toBeGreaterThan(0.64);
    expect(delivered / accepted.length).toBeLessThan(0.76);
    expect(failed.length / accepted.length).toBeGreaterThan(0.15);
    expect(failed.length / accepted.length).toBeLessThan(0.25);
    for (const f of failed)
      expect([
        ['UNDELIV', '013'],
        ['EXPIRED', '002'],
      ]).toContainEqual([f.stat, f.err]);
    // every receipt belongs to an accepted submit
    const ids = new Set(accepted.map((r) => (r as { msgId: string }).msgId));
    expect(receipts.every((r) => ids.has(r.msgId))).toBe(true);

    // same seed, same order: same outcomes
    const again = await setup({ delivered: 0.7, failed: 0.2, noReceipt: 0.1, rejectRatio: 0.05, rejectCode: 0x45 });
    await again.link.waitReady();
    const res2 = await again.link.submit(reqs(n));
    expect(res2.map((r) => r.status)).toEqual(res.map((r) => r.status));
  });

  it('throttling: 0x58 → retry with a pause, nothing lost, nothing submitted twice', async () => {
    const { sim, link } = await setup({ maxPerSecond: 400, delivered: 1, failed: 0, noReceipt: 0 }, 'throttle_ms=50');
    await link.waitReady();
    let pending = reqs(1000);
    const accepted = new Map<number, string>();
    let retries = 0;
    for (let round = 0; pending.length && round < 200; round++) {
      const res = await link.submit(pending);
      const again: SubmitRequest[] = [];
      res.forEach((r, i) => {
        if (r.status === 'accepted') accepted.set(r.ref, r.msgId);
        else if (r.status === 'retry') {
          expect(r.code).toBe('0x00000058');
          expect(r.afterMs).toBeGreaterThan(0);
          retries++;
          again.push(pending[i]);
        } else throw new Error(`unexpected ${JSON.stringify(r)}`);
      });
      pending = again;
      if (pending.length) await new Promise((r) => setTimeout(r, 50));
    }
    expect(pending).toEqual([]);
    expect(accepted.size).toBe(1000);
    expect(retries).toBeGreaterThan(0);
    const c = sim.counts();
    expect(c.throttled).toBe(retries);
    expect(c.accepted).toBe(1000);
    expect(c.distinctRefs).toBe(1000);
    expect(c.duplicates).toEqual([]);
  });

  it('connection dropped: in-flight submits are unconfirmed (never resubmitted), the link reconnects', async () => {
    const { sim, link } = await setup({ answerSubmits: false });
    await link.waitReady();
    const results = link.submit(reqs(10));
    await until(() => sim.counts().received === 10);
    sim.dropConnections();
    const res = await results;
    expect(res).toEqual(reqs(10).map((r) => ({ ref: r.ref, status: 'unconfirmed', code: 'LINK_DOWN' })));
    await until(() => !link.ready, 2000).catch(() => {}); // may already be back
    await link.waitReady(5000);
    sim.update({ answerSubmits: true });
    const after = await link.submit(reqs(5, 11));
    expect(after.every((r) => r.status === 'accepted')).toBe(true);
    expect(sim.counts().duplicates).toEqual([]);
    expect(sim.counts().received).toBe(15);
    expect(link.stats.reconnects).toBeGreaterThanOrEqual(1);
  });

  it('enquire_link keeps the session; an SMSC that stops answering it is dropped and bound again', async () => {
    const { sim, link } = await setup({}, 'enquire_ms=1000');
    await link.waitReady();
    await new Promise((r) => setTimeout(r, 2300));
    expect(sim.counts().binds).toBe(1);
    sim.update({ answerEnquireLink: false });
    await until(() => sim.counts().binds >= 2, 6000);
    sim.update({ answerEnquireLink: true });
    await link.waitReady(3000);
    expect((await link.submit(reqs(1)))[0].status).toBe('accepted');
  });

  it('no response in time → unconfirmed (TIMEOUT); a late answer is ignored', async () => {
    const { sim, link } = await setup({ answerSubmits: false }, 'timeout_ms=300');
    await link.waitReady();
    const t0 = Date.now();
    const res = await link.submit(reqs(3));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    expect(res.map((r) => [r.status, (r as { code: string }).code])).toEqual(Array(3).fill(['unconfirmed', 'TIMEOUT']));
    expect(sim.counts().received).toBe(3);
  });

  it('keeps at most `window` submits in flight per connection, over several connections', async () => {
    const { sim, link } = await setup({ answerSubmits: false }, 'window=5&connections=2&timeout_ms=1500');
    await until(() => sim.counts().sessions === 2 && link.ready);
    await new Promise((r) => setTimeout(r, 100)); // both bound
    const results = link.submit(reqs(30));
    await new Promise((r) => setTimeout(r, 400));
    expect(sim.counts().received).toBe(10);
    sim.update({ answerSubmits: true });
    sim.dropConnections();
    const res = await results;
    // 10 written and unanswered: unconfirmed; the 20 others were never written: they go out after the reconnect
    expect(res.filter((r) => r.status === 'unconfirmed')).toHaveLength(10);
    expect(res.filter((r) => r.status === 'accepted')).toHaveLength(20);
    expect(sim.counts()).toMatchObject({ received: 30, distinctRefs: 30, duplicates: [] });
  });

  it('not bound (wrong password): bind refused, requests come back as retry after queue_wait_ms', async () => {
    const sim = await startSimulator({ password: 'right' });
    open.push(sim);
    const link: SmscLinkHandle = createSmscLink(
      parseSmppUrl(`smpp://smsp:wrong@127.0.0.1:${sim.port}?${FAST}&queue_wait_ms=300`),
    );
    open.push(link);
    await until(() => sim.counts().bindFailures >= 1);
    expect(link.ready).toBe(false);
    const res = await link.submit(reqs(2));
    expect(res.map((r) => [r.status, (r as { code: string }).code])).toEqual(Array(2).fill(['retry', '0x00000004']));
    expect(sim.counts().received).toBe(0);
    await expect(link.waitReady(100)).rejects.toThrow(/not bound/);
  });

  it('receipts are acknowledged only after the handler resolves; a failing handler gets them again', async () => {
    const { sim, link } = await setup({ delivered: 1, failed: 0, noReceipt: 0, redeliverMs: 50 });
    await link.waitReady();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const seen: Receipt[][] = [];
    let fail = true;
    link.onReceipts(async (r) => {
      seen.push(r);
      if (fail) {
        fail = false;
        throw new Error('database down');
      }
      await gate;
    });
    const res = await link.submit(reqs(4));
    const ids = res.map((r) => (r as { msgId: string }).msgId).sort();
    await until(() => seen.length >= 2);
    // first batch failed (temporary error), redelivered; the second call is still running
    expect(seen[0].map((r) => r.msgId).sort()).toEqual(ids);
    await new Promise((r) => setTimeout(r, 150));
    expect(sim.counts().receiptsSent).toBe(0);
    expect(sim.pending()).toBe(4);
    release();
    expect(await sim.waitIdle()).toBe(true);
    expect(sim.counts().receiptsSent).toBe(4);
    expect(
      seen
        .flat()
        .map((r) => r.msgId)
        .filter((id) => ids.includes(id)).length,
    ).toBeGreaterThanOrEqual(8);
  });

  it.each([1, 2])(
    'receipt_flushes=%i: that many batches in the handler at once, each acknowledged when its own call resolves',
    async (flushes) => {
      const { sim, link } = await setup(
        { delivered: 1, failed: 0, noReceipt: 0 },
        `receipt_batch=2&receipt_flushes=${flushes}`,
      );
      await link.waitReady();
      const gates: (() => void)[] = [];
      const seen: Receipt[][] = [];
      let running = 0;
      let most = 0;
      link.onReceipts(async (r) => {
        seen.push(r);
        most = Math.max(most, ++running);
        await new Promise<void>((ok) => gates.push(ok));
        running--;
      });
      await link.submit(reqs(6));
      await until(() => seen.length === flushes);
      await new Promise((r) => setTimeout(r, 100));
      // no more calls while the slots are taken, nothing acknowledged yet
      expect(seen).toHaveLength(flushes);
      expect(sim.counts().receiptsSent).toBe(0);
      gates.shift()!();
      await until(() => sim.counts().receiptsSent === 2);
      while (sim.counts().receiptsSent < 6) {
        await until(() => gates.length > 0);
        gates.shift()!();
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(most).toBe(flushes);
      expect(seen.flat()).toHaveLength(6);
    },
  );

  it('receipts that arrive before a handler is registered wait for it', async () => {
    const { sim, link } = await setup({ delivered: 1, failed: 0, noReceipt: 0 });
    await link.waitReady();
    await link.submit(reqs(2));
    await new Promise((r) => setTimeout(r, 100));
    expect(sim.counts().receiptsSent).toBe(0);
    const got: Receipt[] = [];
    link.onReceipts(async (r) => void got.push(...r));
    expect(await sim.waitIdle()).toBe(true);
    expect(got).toHaveLength(2);
  });

  it('uplink: a recipient replies to the source address it got the message from', async () => {
    const { link } = await setup({
      delivered: 1,
      failed: 0,
      noReceipt: 0,
      moRatio: 1,
      moDelayMs: 0,
      moTexts: ['收到，谢谢'],
    });
    const mos: MoMessage[] = [];
    link.onReceipts(async () => {});
    link.onMo(async (m) => void mos.push(...m));
    await link.waitReady();
    await link.submit([{ ref: 1, to: '13912345678', from: '10690001123', text: '【测试】活动通知' }]);
    await until(() => mos.length === 1);
    expect(mos[0]).toMatchObject({ from: '13912345678', to: '10690001123', text: '收到，谢谢' });
    expect(mos[0].smscRef).toMatch(/^ref:MO/);
  });

  it('close(): nothing pending is lost silently', async () => {
    const { link } = await setup({ answerSubmits: false });
    await link.waitReady();
    const results = link.submit(reqs(3));
    await new Promise((r) => setTimeout(r, 100));
    await link.close();
    const res: SubmitResult[] = await results;
    expect(res.every((r) => r.status === 'unconfirmed')).toBe(true);
    expect((await link.submit(reqs(1, 9)))[0]).toMatchObject({ status: 'retry' });
  });
});

describe('smpps:// (TLS)', () => {
  it('binds over TLS; a certificate that does not verify is refused unless tls_insecure=1', async () => {
    const sim = await startSimulator({
      tls: { key: TEST_TLS_KEY, cert: TEST_TLS_CERT },
      delivered: 1,
      failed: 0,
      noReceipt: 0,
      latencyMinMs: 0,
      latencyMaxMs: 5,
    });
    open.push(sim);
    expect(sim.url.startsWith('smpps://')).toBe(true);
    const strict = createSmscLink(parseSmppUrl(`${sim.url}?ref_tlv=0x1401&${FAST}`));
    open.push(strict);
    await expect(strict.waitReady(1000)).rejects.toThrow(/not bound/);
    const link = createSmscLink(parseSmppUrl(`${sim.url}?ref_tlv=0x1401&${FAST}&tls_insecure=1`));
    open.push(link);
    const receipts: Receipt[] = [];
    link.onReceipts(async (r) => void receipts.push(...r));
    await link.waitReady(5000);
    const res = await link.submit(reqs(3));
    expect(res.every((r) => r.status === 'accepted')).toBe(true);
    await until(() => receipts.length === 3);
    expect(sim.counts()).toMatchObject({ binds: 1, accepted: 3 });
  });
});

describe('a hostile or broken SMSC', () => {
  it('a PDU the library cannot read drops the connection and the link binds again; odd deliver_sm are answered', async () => {
    let binds = 0;
    const answered: number[] = [];
    const server = net.createServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', (b: Buffer) => {
        binds++;
        const seq = b.readUInt32BE(12);
        socket.write(new smpp.PDU('bind_transceiver_resp', { sequence_number: seq, system_id: 'X' }).toBuffer());
        if (binds === 1) {
          // a receipt without id, an intermediate notification, then a PDU claiming 4 GB
          socket.write(
            new smpp.PDU('deliver_sm', { sequence_number: 7, esm_class: 0x04, short_message: 'garbage' }).toBuffer(),
          );
          socket.write(
            new smpp.PDU('deliver_sm', { sequence_number: 8, esm_class: 0x20, short_message: 'x' }).toBuffer(),
          );
          socket.on('data', (d: Buffer) => {
            for (let o = 0; o + 16 <= d.length; o += d.readUInt32BE(o))
              if (d.readUInt32BE(o + 4) === 0x80000005) answered.push(d.readUInt32BE(o + 12));
          });
          setTimeout(() => socket.write(Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 4])), 50);
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    open.push({ close: () => new Promise<void>((r) => server.close(() => r())) });
    const link = createSmscLink(
      parseSmppUrl(`smpp://a:b@127.0.0.1:${(server.address() as net.AddressInfo).port}?${FAST}`),
    );
    open.push(link);
    await until(() => binds >= 2, 5000);
    expect(answered.sort()).toEqual([7, 8]);
    await link.waitReady(2000);
  });
});

describe('npm run smsc-sim (sim-main.ts)', () => {
  it('prints its URL, writes the counters on SIGUSR2 and on SIGTERM', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smsc-sim-'));
    const countsFile = path.join(dir, 'counts.json');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.resolve(import.meta.dirname, '../../server/modules/smsc/sim-main.ts')],
      {
        env: {
          ...process.env,
          SMSC_SIM_PORT: '0',
          SMSC_SIM_COUNTS_FILE: countsFile,
          SMSC_SIM_LATENCY_MS: '0-5',
          SMSC_SIM_SEED: '3',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const lines = readline.createInterface({ input: child.stdout! });
      const events: any[] = [];
      lines.on('line', (l) => events.push(JSON.parse(l)));
      await until(() => events.some((e) => e.event === 'listening'), 30_000);
      const url = events.find((e) => e.event === 'listening').url;
      const link = createSmscLink(parseSmppUrl(`${url}?ref_tlv=0x1401&${FAST}`));
      open.push(link);
      await link.waitReady();
      await link.submit(reqs(5));
      child.kill('SIGUSR2');
      await until(() => events.some((e) => e.event === 'counts'), 5000);
      const counts = JSON.parse(fs.readFileSync(countsFile, 'utf8'));
      expect(counts).toMatchObject({
        received: 5,
        accepted: 5,
        distinctRefs: 5,
        duplicates: [],
        refs: { 1: 1, 2: 1, 3: 1, 4: 1, 5: 1 },
      });
      child.kill('SIGHUP');
      await until(() => events.some((e) => e.event === 'dropped'), 5000);
      await link.waitReady(5000);
      await link.submit(reqs(1, 6));
      fs.rmSync(countsFile);
      child.kill('SIGTERM');
      const code = await new Promise((r) => child.once('exit', r));
      expect(code).toBe(0);
      expect(JSON.parse(fs.readFileSync(countsFile, 'utf8'))).toMatchObject({ received: 6, binds: 2 });
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("fast PDU reader (pdu.ts) = the library's reader", () => {
  const norm = (p: object | null) =>
    p ? JSON.parse(JSON.stringify({ ...p, proto: Object.getPrototypeOf(p) === smpp.PDU.prototype })) : p;
  const ref = refTlvName(0x1401);
  const ucs = encodeText('【测试】验证码1234，五分钟内有效😀');
  const long = encodeText('长'.repeat(200));
  const ascii = encodeText(
    'id:AB sub:001 dlvrd:001 submit date:2611231615 done date:2611231615 stat:DELIVRD err:000 text:',
  );
  const sm = (command: 'submit_sm' | 'deliver_sm', o: Partial<Parameters<typeof encodeSm>[1]> = {}) =>
    encodeSm(command, {
      sourceTon: 0,
      sourceNpi: 1,
      source: '10690001',
      destTon: 1,
      destNpi: 1,
      dest: '8613800000000',
      esmClass: 0,
      registeredDelivery: 1,
      dataCoding: ucs.dataCoding,
      shortMessage: ucs.octets,
      ...o,
    }).toBuffer();

  it.each([
    ['submit_sm UCS2 + ref TLV', sm('submit_sm', { tlvs: [[0x1401, cstr('123')]] })],
    [
      'submit_sm long text in message_payload',
      sm('submit_sm', {
        dataCoding: long.dataCoding,
        shortMessage: Buffer.alloc(0),
        tlvs: [
          [0x0424, long.octets],
          [0x1401, cstr('9')],
        ],
      }),
    ],
    [
      'deliver_sm receipt IA5 + TLVs',
      sm('deliver_sm', {
        esmClass: 4,
        dataCoding: ascii.dataCoding,
        shortMessage: ascii.octets,
        tlvs: [
          [0x1e, cstr('AB')],
          [0x427, Buffer.from([2])],
        ],
      }),
    ],
    [
      'deliver_sm with an unknown TLV and GBK text',
      sm('deliver_sm', {
        dataCoding: 0x0f,
        shortMessage: Buffer.from([0xc4, 0xe3, 0xba, 0xc3]),
        tlvs: [[0x3fff, Buffer.from('xyz')]],
      }),
    ],
    [
      'deliver_sm data_coding 0 with GSM-only characters',
      sm('deliver_sm', { dataCoding: 0, shortMessage: Buffer.from([0x00, 0x02, 0x11, 0x41]) }),
    ],
    [
      'library-built submit_sm',
      new smpp.PDU('submit_sm', {
        source_addr: 'SHOP',
        destination_addr: '13800000000',
        short_message: 'Hello @ world',
        [ref]: '77',
        sequence_number: 9,
      }).toBuffer(),
    ],
    [
      'library-built deliver_sm Latin-1',
      new smpp.PDU('deliver_sm', {
        source_addr: '1',
        destination_addr: '2',
        data_coding: 3,
        short_message: 'café',
        sequence_number: 3,
      }).toBuffer(),
    ],
    [
      'submit_sm part of a long UCS2 text (UDH, esm_class 0x40)',
      sm('submit_sm', {
        esmClass: 0x40,
        shortMessage: Buffer.concat([Buffer.from([5, 0, 3, 7, 3, 2]), ucs.octets]),
        tlvs: [[0x1401, cstr('9')]],
      }),
    ],
    [
      'submit_sm part of a GSM 7-bit text (16-bit reference UDH)',
      sm('submit_sm', {
        esmClass: 0x40,
        dataCoding: 0,
        shortMessage: Buffer.from([6, 8, 4, 1, 2, 2, 1, 0x48, 0x00, 0x1b, 0x65]),
      }),
    ],
    [
      'library-built deliver_sm with a UDH',
      new smpp.PDU('deliver_sm', {
        source_addr: '1',
        destination_addr: '2',
        short_message: { udh: Buffer.from([5, 0, 3, 1, 2, 1]), message: 'hi' },
        sequence_number: 3,
      }).toBuffer(),
    ],
    ['submit_sm_resp', encodeResp('submit_sm_resp', 5, 0, 'MSG0001').toBuffer()],
    ['submit_sm_resp error (header only)', encodeResp('submit_sm_resp', 6, 0x58).toBuffer()],
    ['deliver_sm_resp', encodeResp('deliver_sm_resp', 7, 0).toBuffer()],
  ])('%s', (_name, buf) => {
    const fast = fastReadPdu(buf);
    expect(fast).not.toBeNull();
    expect(norm(fast)).toEqual(norm(new smpp.PDU(buf)));
  });

  it.each([
    [
      'a national language shift UDH',
      new smpp.PDU('deliver_sm', {
        source_addr: '1',
        destination_addr: '2',
        short_message: { udh: Buffer.from([3, 0x25, 1, 1]), message: 'hi' },
        sequence_number: 3,
      }).toBuffer(),
    ],
    [
      'a UDH with message_payload',
      sm('submit_sm', {
        esmClass: 0x40,
        shortMessage: Buffer.alloc(0),
        tlvs: [[0x0424, Buffer.from([5, 0, 3, 1, 2, 1, 0x41])]],
      }),
    ],
    [
      'a time field',
      new smpp.PDU('submit_sm', {
        destination_addr: '2',
        validity_period: '000001000000000R',
        short_message: 'x',
        sequence_number: 3,
      }).toBuffer(),
    ],
    ['another command', new smpp.PDU('enquire_link', { sequence_number: 3 }).toBuffer()],
    ['a truncated body', sm('submit_sm').subarray(0, 30)],
  ])('leaves %s to the library', (_name, buf) => {
    expect(fastReadPdu(buf)).toBeNull();
  });
});

describe('receipt texts', () => {
  it('reads id / stat / err / done date in the SMSC time zone', () => {
    const done = new Date('2026-11-23T08:15:00Z');
    const text = receiptText({
      msgId: 'AB12',
      stat: 'UNDELIV',
      err: '013',
      submitAt: done,
      doneAt: done,
      text: '【测试】hello',
      tzMinutes: 480,
    });
    expect(text).toContain('done date:2611231615');
    expect(parseReceiptText(text, 480)).toEqual({ id: 'AB12', stat: 'UNDELIV', err: '013', done });
    expect(parseReceiptText('id:1 stat:DELIVRD err:0 done date:9913991299', 0).done).toBeNull();
    expect(parseReceiptText('garbage', 0)).toEqual({ id: '', stat: '', err: '', done: null });
  });
});

describe('SMPP_URL', () => {
  it('reads host, port, credentials, TLS and options', () => {
    const c = parseSmppUrl(
      'smpps://sys%40id:p%3Ass@smsc.example.com?window=50&connections=3&source=106900&tz=0&tls_insecure=1&ref_tlv=0x1500',
    );
    expect(c).toMatchObject({
      tls: true,
      tlsVerify: false,
      host: 'smsc.example.com',
      port: 3550,
      systemId: 'sys@id',
      password: 'p:ss',
      window: 50,
      connections: 3,
      sourceAddr: '106900',
      tzMinutes: 0,
      refTlv: 0x1500,
    });
    // a configured SMSC gets no vendor TLV unless asked (most refuse unknown TLVs); receipts matched automatically
    expect(parseSmppUrl('smpp://a:b@10.0.0.1:2776')).toMatchObject({
      tls: false,
      port: 2776,
      window: 200,
      connections: 1,
      refTlv: 0,
      receiptIds: 'auto',
      receiptFlushes: 2,
    });
    expect(parseSmppUrl('smpp://a:b@h?receipt_id=DEC').receiptIds).toBe('dec');
  });

  it.each([
    ['', /empty/],
    ['localhost:2775', /scheme must be smpp/],
    ['http://a:b@h:1', /scheme must be smpp/],
    ['smpp://h:2775', /no system_id/],
    ['smpp://a:b@h:2775/x', /unexpected path/],
    ['smpp://a:toolongpassword@h', /password must be at most 8/],
    ['smpp://averyveryverylongsystemid:b@h', /system_id must be 1-15/],
    ['smpp://a:b@h?window=0', /window must be an integer from 1/],
    ['smpp://a:b@h?window=abc', /window must be an integer/],
    ['smpp://a:b@h?connections=100', /connections must be an integer from 1 to 32/],
    ['smpp://a:b@h?receipt_flushes=0', /receipt_flushes must be an integer from 1 to 8/],
    ['smpp://a:b@h?receipt_flushes=9', /receipt_flushes must be an integer from 1 to 8/],
    ['smpp://a:b@h?ref_tlv=0x0005', /vendor tag/],
    ['smpp://a:b@h?tz=abc', /tz must be/],
    ['smpp://a:b@h?receipt_id=octal', /receipt_id must be auto, exact, hex or dec/],
    ['smpp://a:b@h?bogus=1', /unknown option "bogus"/],
    ['smpp://a:b@h?reconnect_min_ms=5000&reconnect_max_ms=100', /reconnect_max_ms/],
    ['smpp://a:%E0%A4%A@h', /percent-encoding|password/],
    ['smpp://a:b@h:99999', /not a URL|bad port/],
  ])('%s → %s', (url, msg) => {
    expect(() => parseSmppUrl(url)).toThrow(msg);
    try {
      parseSmppUrl(url);
    } catch (e) {
      expect((e as Error).message.startsWith('SMPP_URL: ')).toBe(true);
      expect((e as Error).message).not.toContain('toolongpassword');
    }
  });

  it('simulator settings from SMSC_SIM_*', () => {
    const settings = (env: Record<string, string>) => loadConfig(env).simulator.settings;
    expect(
      settings({
        SMSC_SIM_PORT: '0',
        SMSC_SIM_DELIVERED: '0.5',
        SMSC_SIM_LATENCY_MS: '10-20',
        SMSC_SIM_SEED: '7',
        SMSC_SIM_MAX_PER_SECOND: '100',
      }),
    ).toEqual({
      port: 0,
      delivered: 0.5,
      latencyMinMs: 10,
      latencyMaxMs: 20,
      seed: 7,
      maxPerSecond: 100,
    });
    expect(() => settings({ SMSC_SIM_DELIVERED: '2' })).toThrow(
      /SMSC_SIM_DELIVERED="2" is not accepted: expected a number from 0 to 1/,
    );
    expect(() => settings({ SMSC_SIM_LATENCY_MS: '5-1' })).toThrow(/SMSC_SIM_LATENCY_MS/);
  });
});

export type { Simulator };

describe('carrier habits (issue 25)', () => {
  it('reads a receipt id in hex and decimal (idReadings), bounded, never the id itself', () => {
    expect(idReadings('6699', 'dec').sort()).toEqual(['1a2b', '1A2B'].sort());
    expect(idReadings('1A2B', 'hex')).toEqual(['6699']);
    expect(idReadings('1a2b', 'auto')).toEqual(['6699']);
    // an all-digit id can be either: both readings in auto
    expect(idReadings('1000', 'auto').sort()).toEqual(['3e8', '3E8', '4096'].sort());
    expect(idReadings('1000', 'exact')).toEqual([]);
    expect(idReadings('ABC-123', 'auto')).toEqual([]);
    expect(idReadings('99999999999999999999', 'auto')).toEqual([]);
    expect(idReadings('ffffffffffffffffff', 'auto')).toEqual([]);
  });

  it('a carrier that refuses vendor TLVs takes the default link (no ref TLV); the ref TLV when asked for is refused 0xC1', async () => {
    const s = await startSimulator({ seed: 1, latencyMinMs: 0, latencyMaxMs: 5, moRatio: 0, refuseTlvs: [0x1401] });
    open.push(s);
    const plain = createSmscLink(parseSmppUrl(`${s.url}?${FAST}`));
    open.push(plain);
    await plain.waitReady(5000);
    const [a] = await plain.submit([{ ref: 1, to: '13800138000', from: '106900', text: 'hello' }]);
    expect(a.status).toBe('accepted');
    const tagged = createSmscLink(parseSmppUrl(`${s.url}?${FAST}&ref_tlv=0x1401`));
    open.push(tagged);
    await tagged.waitReady(5000);
    const [b] = await tagged.submit([{ ref: 2, to: '13800138000', from: '106900', text: 'hello' }]);
    expect(b).toMatchObject({ status: 'rejected', code: '0x000000C1' });
  });

  it('receipts naming the id in decimal (no receipted_message_id TLV) carry the hex reading of it', async () => {
    const { sim, link } = await setup({
      receiptIds: 'decimal',
      receiptTlv: false,
      delivered: 1,
      failed: 0,
      noReceipt: 0,
    });
    const got: Receipt[] = [];
    link.onReceipts(async (r) => void got.push(...r));
    await link.waitReady(5000);
    const [a] = await link.submit([{ ref: 7, to: '13800138000', from: '', text: 'hello' }]);
    expect(a.status).toBe('accepted');
    const hexId = (a as { msgId: string }).msgId;
    expect(hexId).toMatch(/^[0-9A-F]+$/);
    await until(() => got.length === 1);
    expect(got[0].msgId).toBe(BigInt(`0x${hexId}`).toString(10));
    expect(got[0].readings).toContain(hexId);
    expect(sim.counts().accepted).toBe(1);
  });
});
