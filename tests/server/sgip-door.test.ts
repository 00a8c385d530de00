/**
 * The SGIP 1.2 door for customers (issue 38; docs/api-sgip.md), with an implementation this project
 * did not write as the customer: ../shared/interop/bin/sgip-peer `sp` (go_sgip), which binds and
 * submits, and listens for the platform's bind-back. Short and long messages accepted and charged,
 * every report delivered by bind-back and matched by the submit's sequence number, uplinks as
 * SGIP_DELIVER, refusals, the customer's listener down then up (nothing lost, nothing sent twice),
 * binds refused.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { relayTo } from './interop-relay';
import { backends, useServer, type TestServer } from './harness';
import { accountId, db } from './send-helpers';
import { Dispatcher } from '../../server/modules/dispatch/dispatcher';
import { pushHooks } from '../../server/modules/dispatch/pipeline';
import { FakeLink } from '../fixtures/fake-smsc';
import { AccountStatus, NeedMo, NeedReport } from '../../common/generated/schemas';
import {
  CMD,
  decodePacket,
  encodeBind,
  encodeReport,
  encodeReportResp,
  encodeBindResp,
  encodeSgipText,
  encodeSubmit,
  encodeTrace,
  SgipFrameSplitter,
  seqString,
  splitSgipText,
  SUBMIT_DEFAULTS,
  TRACE_LENGTH,
  type SgipPacket,
  type SgipSeq,
} from '../../server/lib/sgip-pdu';

const PEER = path.resolve(import.meta.dirname, '../../../shared/interop/bin/sgip-peer');
const hasPeer = fs.existsSync(PEER);
const LOGIN = 'cli001';
const PASSWORD = 'Demo2468';

interface Summary {
  messages: number;
  parts: number;
  accepted: number;
  refused: Record<string, number>;
  reports: number;
  matched: number;
  unmatched: number;
  duplicates: number;
  states: Record<string, number>;
  mo: number;
  moTexts?: string[];
  callbackBound?: number | boolean;
  error?: string;
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

/** runs sgip-peer sp against the door, listening on `listen` for the bind-back; resolves with its JSON summary line */
async function peer(
  server: TestServer,
  listen: number,
  args: Record<string, string | number>,
  password = PASSWORD,
): Promise<Summary> {
  const argv = [
    'sp',
    '-addr',
    `127.0.0.1:${await relayTo(server.app.services.sgipServer!.port)}`,
    '-user',
    LOGIN,
    '-password',
    password,
    '-listen',
    `127.0.0.1:${listen}`,
    '-callback-user',
    'plat',
    '-callback-password',
    'cbpass',
    '-src',
    '10690001001',
    ...Object.entries(args).flatMap(([k, v]) => [`-${k}`, String(v)]),
  ];
  return new Promise((resolve, reject) => {
    execFile(PEER, argv, { timeout: 45_000 }, (err, stdout, stderr) => {
      const line = stdout.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line) as Summary);
      } catch {
        reject(new Error(`sgip-peer: ${err?.message ?? ''} ${stdout} ${stderr}`));
      }
    });
  });
}

async function setAccount(server: TestServer, clientid: string, values: Record<string, unknown>) {
  await db(server).updateTable('accounts').set(values).where('clientid', '=', clientid).execute();
  server.app.services.sgipServer?.forgetAccounts();
}

/** the account's listener: a public name (the test resolver's), connected on loopback */
async function callbackAt(server: TestServer, port: number) {
  const s = server.app.services.sgipServer!;
  s.opts.dial = (_address, p) => ({ host: '127.0.0.1', port: p });
  s.opts.bindBackRetryMinMs = 100;
  s.opts.bindBackRetryMaxMs = 500;
  await setAccount(server, 'client1', {
    sgip_callback_host: 'sp.example.com',
    sgip_callback_port: port,
    sgip_callback_user: 'plat',
    sgip_callback_password: 'cbpass',
  });
}

function carrier(server: TestServer) {
  const link = new FakeLink();
  const d = new Dispatcher(server.app.ctx, link, { maintenanceMs: 0, markSubmittedMs: 0, hooks: pushHooks() });
  let running = true;
  const loop = (async () => {
    while (running) {
      while ((await d.dispatchOnce()) > 0);
      await link.flushReceipts();
      await d.applyOnce();
      await new Promise((r) => setTimeout(r, 50));
    }
    await d.stop();
  })();
  return {
    link,
    async stop() {
      running = false;
      await loop;
    },
  };
}

const messagesOf = async (server: TestServer) =>
  Number(
    (
      await db(server)
        .selectFrom('sms_messages')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('account_id', '=', await accountId(server, 'client1'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const queued = async (server: TestServer, table: 'smpp_receipts' | 'smpp_mo' = 'smpp_receipts') =>
  (
    await db(server)
      .selectFrom(table)
      .select('id')
      .where('account_id', '=', await accountId(server, 'client1'))
      .execute()
  ).length;

/** a raw SGIP_BIND: its result (null when the connection closed without one) */
async function bindResult(
  server: TestServer,
  loginType: number,
  login: string,
  password: string,
): Promise<number | null> {
  const sock = net.connect(server.app.services.sgipServer!.port, '127.0.0.1');
  sock.on('error', () => {});
  sock.write(encodeBind({ node: 1, time: 1, number: 1 }, { loginType, loginName: login, loginPassword: password }));
  const split = new SgipFrameSplitter();
  return new Promise((resolve) => {
    sock.on('data', (d: Buffer) => {
      for (const f of split.push(d)) {
        const p = decodePacket(f);
        if (p.command === 'BIND_RESP') resolve(p.result);
      }
    });
    sock.on('close', () => resolve(null));
    setTimeout(() => {
      sock.destroy();
      resolve(null);
    }, 5000);
  });
}

/** a customer's SGIP connection written by hand: bound, then packets out and their answers in */
async function rawCustomer(server: TestServer) {
  const sock = net.connect(server.app.services.sgipServer!.port, '127.0.0.1');
  sock.on('error', () => {});
  const split = new SgipFrameSplitter();
  const got: SgipPacket[] = [];
  let wake: (() => void) | null = null;
  sock.on('data', (d: Buffer) => {
    for (const f of split.push(d)) got.push(decodePacket(f));
    wake?.();
  });
  let n = 0;
  const c = {
    seq: (): SgipSeq => ({ node: 3000099999, time: 1205120000, number: ++n + Math.floor(Math.random() * 1e6) * 100 }),
    /** the answer to the packet of this sequence */
    async answer(seq: SgipSeq, ms = 5000): Promise<SgipPacket> {
      const until = Date.now() + ms;
      for (;;) {
        const i = got.findIndex((p) => seqString(p.seq) === seqString(seq));
        if (i >= 0) return got.splice(i, 1)[0];
        if (Date.now() > until || sock.destroyed) throw new Error(`no answer to ${seqString(seq)}`);
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 50);
        });
      }
    },
    write: (b: Buffer) => sock.write(b),
    /** one SGIP_SUBMIT to one number; its result */
    async submit(seq: SgipSeq, phone: string, content: Buffer, messageCoding: number, tpUdhi = 0): Promise<number> {
      sock.write(
        encodeSubmit(seq, {
          ...SUBMIT_DEFAULTS,
          spNumber: '10690001001',
          userNumbers: [`86${phone}`],
          corpId: '',
          messageCoding,
          tpUdhi,
          messageContent: content,
        }),
      );
      const a = await c.answer(seq);
      return a.command === 'SUBMIT_RESP' ? a.result : -1;
    },
    async trace(submitSeq: SgipSeq, phone: string) {
      const seq = c.seq();
      sock.write(encodeTrace(seq, { submitSeq, userNumber: `86${phone}` }));
      const a = await c.answer(seq);
      if (a.command !== 'TRACE_RESP') throw new Error(`${a.command} where TRACE_RESP was expected`);
      return a.hops;
    },
    close: () => sock.destroy(),
  };
  await new Promise((r) => sock.once('connect', r));
  const bind = c.seq();
  sock.write(encodeBind(bind, { loginType: 1, loginName: LOGIN, loginPassword: PASSWORD }));
  const a = await c.answer(bind);
  if (a.command !== 'BIND_RESP' || a.result !== 0) throw new Error('bind refused');
  return c;
}

/** the customer's own SGIP listener written by hand: takes the bind-back, answers every REPORT 0 and keeps it */
async function rawListener() {
  const reports: Extract<SgipPacket, { command: 'REPORT' }>[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((sock) => {
    sockets.add(sock);
    sock.on('error', () => {});
    const split = new SgipFrameSplitter();
    sock.on('data', (d: Buffer) => {
      for (const f of split.push(d)) {
        const p = decodePacket(f);
        if (p.command === 'BIND') sock.write(encodeBindResp(p.seq, 0));
        else if (p.command === 'REPORT') {
          reports.push(p);
          sock.write(encodeReportResp(p.seq, 0));
        } else if (p.command === 'UNBIND') sock.end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    port: (server.address() as net.AddressInfo).port,
    reports,
    close: () =>
      new Promise<void>((r) => {
        for (const x of sockets) x.destroy();
        server.close(() => r());
      }),
  };
}

const waitFor = async (what: string, ok: () => boolean | Promise<boolean>, ms = 15_000) => {
  const until = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe.each(backends)('SGIP door for customers (%s)', (backend) => {
  const t = useServer(backend, { config: { sgipServerPort: -1, sgipServerHost: '127.0.0.1' } });

  it.skipIf(!hasPeer)(
    'short and long messages accepted and charged; every report by bind-back, matched by the submit sequence',
    async () => {
      const listen = await freePort();
      await callbackAt(t.server, listen);
      await setAccount(t.server, 'client1', { needreport: NeedReport.PassThrough, access_speed: 0 });
      const before = await messagesOf(t.server);
      const c = carrier(t.server);
      try {
        const r = await peer(t.server, listen, { n: 30, long: 5, window: 16, wait: 15, dest: '861300013' });
        expect(r.error ?? '').toBe('');
        // 30 messages, 6 of them in 3 parts: 42 submits, each answered 0
        expect(r).toMatchObject({ messages: 30, parts: 42, accepted: 42, refused: {} });
        // a report for every submit the customer made (each part's), none twice, none unknown
        expect(r).toMatchObject({ reports: 42, matched: 42, unmatched: 0, duplicates: 0 });
        expect(r.states).toEqual({ '0': 42 });
        expect(r.callbackBound).toBeTruthy();
      } finally {
        await c.stop();
      }
      expect((await messagesOf(t.server)) - before).toBe(30);
      expect(await queued(t.server)).toBe(0);
    },
  );

  it.skipIf(!hasPeer)('the listener down, then up: reports wait, then each is sent once', async () => {
    const listen = await freePort();
    await callbackAt(t.server, listen);
    await setAccount(t.server, 'client1', { needreport: NeedReport.PassThrough, access_speed: 0 });
    const s = t.server.app.services.sgipServer!;
    const sentBefore = s.stats.reportsSent;
    const failsBefore = s.stats.bindBackFailures;
    // submits and leaves at once: its listener is gone when the reports come
    const r = await peer(t.server, listen, { n: 5, long: 0, wait: 0 });
    expect(r).toMatchObject({ accepted: 5 });
    const c = carrier(t.server);
    for (let i = 0; i < 100 && (await queued(t.server)) < 5; i++) await new Promise((res) => setTimeout(res, 100));
    await c.stop();
    expect(await queued(t.server)).toBe(5);
    // the bind-back is tried and fails: the rows stay
    for (let i = 0; i < 50 && s.stats.bindBackFailures === failsBefore; i++)
      await new Promise((res) => setTimeout(res, 100));
    expect(s.stats.bindBackFailures).toBeGreaterThan(failsBefore);
    expect(await queued(t.server)).toBe(5);
    // the peer numbers its submits node-MMDDHHMMSS-number from 1 in each run: a run in the same
    // second as the first would reuse the first run's numbers and match one of its reports
    await new Promise((res) => setTimeout(res, 1100));
    // the listener again (with one submit of its own, no carrier: it waits the 3 s out): the five reports, once each
    const again = await peer(t.server, listen, { n: 1, wait: 3 });
    expect(again).toMatchObject({
      accepted: 1,
      reports: 5,
      matched: 0,
      unmatched: 5,
      duplicates: 0,
      states: { '0': 5 },
    });
    expect(await queued(t.server)).toBe(0);
    await new Promise((res) => setTimeout(res, 1000));
    expect(s.stats.reportsSent - sentBefore).toBe(5);
  });

  it.skipIf(!hasPeer)('uplinks (needmo 1) arrive as SGIP_DELIVER by bind-back', async () => {
    const listen = await freePort();
    await callbackAt(t.server, listen);
    await setAccount(t.server, 'client1', { needreport: NeedReport.PassThrough, needmo: NeedMo.Push, access_speed: 0 });
    const id = await accountId(t.server, 'client1');
    const d = new Dispatcher(t.server.app.ctx, new FakeLink(), { maintenanceMs: 0, hooks: pushHooks() });
    await d.handleMo([
      {
        from: '13000138011',
        to: `106900${id}`,
        text: '好的，收到 TD',
        smscRef: `mo-${Math.random()}`,
        receivedAt: new Date(),
      },
    ]);
    await d.stop();
    // the uplink is queued first; the customer submits one message (no carrier: it waits the 3 s out) and listens
    const r = await peer(t.server, listen, { n: 1, wait: 3 });
    expect(r.mo).toBe(1);
    expect(JSON.stringify(r.moTexts ?? [])).toContain('好的，收到 TD');
    expect(await queued(t.server, 'smpp_mo')).toBe(0);
  });

  it.skipIf(!hasPeer)(
    'refusals: an unapproved sign (vendor result 101), nothing charged; a wrong password no bind',
    async () => {
      const listen = await freePort();
      await callbackAt(t.server, listen);
      await setAccount(t.server, 'client1', { access_speed: 0 });
      const before = await messagesOf(t.server);
      const unapproved = await peer(t.server, listen, { n: 3, wait: 0, sign: '没批过' });
      expect(unapproved).toMatchObject({ accepted: 0, refused: { '101': 3 } });
      expect(await messagesOf(t.server)).toBe(before);
      const wrong = await peer(t.server, listen, { n: 1, wait: 0 }, 'wrong').catch(
        (e: Error) => ({ error: e.message }) as Summary,
      );
      expect(wrong.error ?? '').not.toBe('');
    },
  );

  it('bind: the right login 0, a wrong password and an unknown login 1, type 2 → 4, a frozen account 1', async () => {
    expect(await bindResult(t.server, 1, LOGIN, PASSWORD)).toBe(0);
    expect(await bindResult(t.server, 1, LOGIN, 'wrong')).toBe(1);
    expect(await bindResult(t.server, 1, 'nobody', PASSWORD)).toBe(1);
    expect(await bindResult(t.server, 2, LOGIN, PASSWORD)).toBe(4);
    await setAccount(t.server, 'client1', { status: AccountStatus.Frozen });
    expect(await bindResult(t.server, 1, LOGIN, PASSWORD)).toBe(1);
    await setAccount(t.server, 'client1', { status: AccountStatus.Active });
  });

  it('a packet before the bind closes the connection', async () => {
    const sock = net.connect(t.server.app.services.sgipServer!.port, '127.0.0.1');
    sock.on('error', () => {});
    await new Promise((r) => sock.once('connect', r));
    sock.write(
      encodeReport(
        { node: 1, time: 1, number: 1 },
        { submitSeq: { node: 1, time: 1, number: 1 }, reportType: 0, userNumber: '86130', state: 0, errorCode: 0 },
      ),
    );
    await new Promise((r) => sock.once('close', r));
    expect(CMD.REPORT).toBe(5);
  });

  it('SGIP_TRACE: the platform as the first node, the carrier as the second once it took the message; unknown or unreadable → Result 1', async () => {
    await setAccount(t.server, 'client1', { needreport: NeedReport.PassThrough, access_speed: 0 });
    const c = await rawCustomer(t.server);
    try {
      const phone = '13000138077';
      const seq = c.seq();
      const { messageCoding, octets } = encodeSgipText('【好易购】您的验证码是 123456');
      expect(await c.submit(seq, phone, octets, messageCoding)).toBe(0);
      // accepted, not handed to a carrier yet: the platform's node, received, not sent on
      const before = await c.trace(seq, phone);
      expect(before).toHaveLength(1);
      expect(before[0]).toMatchObject({ result: 0, nodeId: '000000', sendTime: '' });
      expect(before[0].receiveTime).toMatch(/^\d{12}$/);
      // another number, another sequence, another node's: not known
      expect(await c.trace(seq, '13000138078')).toEqual([
        { result: 1, nodeId: '000000', receiveTime: '', sendTime: '' },
      ]);
      expect(await c.trace({ ...seq, number: seq.number + 1 }, phone)).toMatchObject([{ result: 1 }]);
      // unreadable (a TRACE one octet short): answered as not known, the session goes on
      const bad = c.seq();
      const short = encodeTrace(bad, { submitSeq: seq, userNumber: `86${phone}` }).subarray(0, TRACE_LENGTH - 1);
      short.writeUInt32BE(short.length, 0);
      c.write(Buffer.from(short));
      expect(await c.answer(bad)).toMatchObject({ command: 'TRACE_RESP', hops: [{ result: 1 }] });
      // the carrier takes and delivers it: the second node, with the delivery time
      const carrierRun = carrier(t.server);
      try {
        await waitFor('the delivery', async () => {
          const h = await c.trace(seq, phone);
          return h.length === 2 && h[1].sendTime !== '';
        });
      } finally {
        await carrierRun.stop();
      }
      const after = await c.trace(seq, phone);
      expect(after[0]).toMatchObject({ result: 0, receiveTime: before[0].receiveTime });
      expect(after[0].sendTime).toMatch(/^\d{12}$/);
      expect(after[1]).toMatchObject({ result: 0, nodeId: '', receiveTime: after[0].sendTime });
      expect(after[1].sendTime).toMatch(/^\d{12}$/);
    } finally {
      c.close();
    }
  });

  it('a long message with a part missing, accepted as it is after the wait: every report names a submit the customer sent', async () => {
    const listener = await rawListener();
    const s = t.server.app.services.sgipServer!;
    const reassembly = s.opts.reassemblyMs;
    await callbackAt(t.server, listener.port);
    await setAccount(t.server, 'client1', { needreport: NeedReport.PassThrough, access_speed: 0 });
    const c = await rawCustomer(t.server);
    const carrierRun = carrier(t.server);
    try {
      const phone = '13000138079';
      const parts = splitSgipText('【好易购】' + '长'.repeat(140), 0x5a);
      expect(parts.contents).toHaveLength(3);
      // parts 1 and 3; part 2 never comes
      const sent = [c.seq(), c.seq()];
      expect(await c.submit(sent[0], phone, parts.contents[0], parts.msgFmt, 1)).toBe(0);
      expect(await c.submit(sent[1], phone, parts.contents[2], parts.msgFmt, 1)).toBe(0);
      s.opts.reassemblyMs = 300;
      await new Promise((r) => setTimeout(r, 400));
      await s.expireParts();
      // (the reports of earlier tests' messages may come too: this message's are those to its number)
      const mine = () => listener.reports.filter((r) => r.userNumber === `86${phone}`);
      await waitFor('two reports', () => mine().length >= 2);
      // a moment for any further (made-up) report
      await new Promise((r) => setTimeout(r, 1500));
      expect(
        mine()
          .map((r) => seqString(r.submitSeq))
          .sort(),
      ).toEqual(sent.map(seqString).sort());
      expect(mine().every((r) => r.state === 0)).toBe(true);
      // and TRACE finds the message by either part's sequence
      expect((await c.trace(sent[0], phone))[0].result).toBe(0);
      expect((await c.trace(sent[1], phone))[0].result).toBe(0);
    } finally {
      s.opts.reassemblyMs = reassembly;
      c.close();
      await carrierRun.stop();
      await listener.close();
    }
  });
});
