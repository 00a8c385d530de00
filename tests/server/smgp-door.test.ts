/**
 * The SMGP 3.0 door for customers (issue 38; docs/api-smgp.md), with an implementation this
 * project did not write as the customer: ../shared/interop/bin/smgp-peer `sp` (go_smgp). Short
 * and long messages accepted and charged, every report matched by MsgID (a Dispatcher over the
 * FakeLink delivers while the customer waits), uplinks, flow control, refusals, reports queued
 * while the customer is away; and with a raw client: login statuses and modes (reports only to
 * receiving sessions, no submit on a receive-only one), several DestTermIDs, EXIT.
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
  decodeDeliver,
  decodeLoginResp,
  decodeReport,
  decodeSubmitResp,
  encodeActiveTest,
  encodeDeliverResp,
  encodeExit,
  encodeLogin,
  encodeSubmit,
  makeLogin,
  SmgpFrameSplitter,
  smgpMsgIdString,
  SUBMIT_DEFAULTS,
} from '../../server/lib/smgp-pdu';

const PEER = path.resolve(import.meta.dirname, '../../../shared/interop/bin/smgp-peer');
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
  stats: Record<string, number>;
  mo: number;
  moTexts?: string[];
  error?: string;
}

/** runs smgp-peer sp against the door; resolves with its JSON summary line */
async function peer(server: TestServer, args: Record<string, string | number>): Promise<Summary> {
  const argv = [
    'sp',
    '-addr',
    `127.0.0.1:${await relayTo(server.app.services.smgpServer!.port)}`,
    '-user',
    LOGIN,
    '-password',
    PASSWORD,
    '-src',
    '10690001001',
    ...Object.entries(args).flatMap(([k, v]) => [`-${k}`, String(v)]),
  ];
  return new Promise((resolve, reject) => {
    // bounded below the test timeout, so that a peer left waiting fails with its own output
    execFile(PEER, argv, { timeout: 45_000 }, (err, stdout, stderr) => {
      const line = stdout.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line) as Summary);
      } catch {
        reject(new Error(`smgp-peer: ${err?.message ?? ''} ${stdout} ${stderr}`));
      }
    });
  });
}

async function setAccount(server: TestServer, clientid: string, values: Record<string, unknown>) {
  await db(server).updateTable('accounts').set(values).where('clientid', '=', clientid).execute();
  server.app.services.smgpServer?.forgetAccounts();
}

/** a dispatcher over the fake carrier that delivers, running until stopped (reports flow back to the customer meanwhile) */
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
  (
    await db(server)
      .selectFrom('sms_messages')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('account_id', '=', await accountId(server, 'client1'))
      .executeTakeFirstOrThrow()
  ).n;

/** a raw SMGP session: writes packets, collects what the door sends, answers its DELIVERs when asked */
async function session(
  server: TestServer,
  opts: { login?: string; password?: string; mode?: number; version?: number; answer?: boolean } = {},
) {
  const port = server.app.services.smgpServer!.port;
  const sock = net.connect(port, '127.0.0.1');
  sock.on('error', () => {});
  const split = new SmgpFrameSplitter();
  const got: Buffer[] = [];
  let closed = false;
  sock.on('close', () => (closed = true));
  sock.on('data', (d: Buffer) => {
    for (const f of split.push(d)) {
      got.push(f);
      if (opts.answer !== false && f.readUInt32BE(4) === CMD.DELIVER)
        sock.write(encodeDeliverResp(f.readUInt32BE(8), { msgId: decodeDeliver(f).msgId, status: 0 }));
    }
  });
  await new Promise((r) => sock.once('connect', r));
  const until = async <T>(find: () => T | undefined, ms = 5000): Promise<T | undefined> => {
    for (let i = 0; i < ms / 20; i++) {
      const v = find();
      if (v !== undefined) return v;
      if (closed) return find();
      await new Promise((r) => setTimeout(r, 20));
    }
    return undefined;
  };
  const l = makeLogin(opts.login ?? LOGIN, opts.password ?? PASSWORD, opts.mode ?? 2);
  sock.write(encodeLogin(1, { ...l, clientVersion: opts.version ?? 0x30 }));
  const resp = await until(() => got.find((f) => f.readUInt32BE(4) === CMD.LOGIN_RESP));
  return {
    sock,
    got,
    until,
    status: resp ? decodeLoginResp(resp).status : null,
    get closed() {
      return closed;
    },
    delivers: () => got.filter((f) => f.readUInt32BE(4) === CMD.DELIVER).map((f) => decodeDeliver(f)),
    async submit(seq: number, dests: string[], text: string) {
      sock.write(
        encodeSubmit(seq, {
          ...SUBMIT_DEFAULTS,
          srcTermId: '10690001001',
          destTermIds: dests,
          msgFormat: 8,
          msgContent: Buffer.from(text, 'utf16le').swap16(),
        }),
      );
      const r = await until(() => got.find((f) => f.readUInt32BE(4) === CMD.SUBMIT_RESP && f.readUInt32BE(8) === seq));
      return r ? decodeSubmitResp(r) : null;
    },
  };
}

describe.each(backends)('SMGP door for customers (%s)', (backend) => {
  const t = useServer(backend, { config: { smgpServerPort: -1, smgpServerHost: '127.0.0.1' } });

  it.skipIf(!hasPeer)('short and long messages accepted and charged, every report matched by MsgID', async () => {
    await setAccount(t.server, 'client1', { needreport: NeedReport.PassThrough, access_speed: 0 });
    const before = Number(await messagesOf(t.server));
    const c = carrier(t.server);
    try {
      const r = await peer(t.server, { n: 30, long: 5, window: 16, wait: 15, dest: '1890013' });
      expect(r.error ?? '').toBe('');
      // 30 messages, 6 of them in 3 parts: 42 submits, each answered 0 with a MsgID
      expect(r).toMatchObject({ messages: 30, parts: 42, accepted: 42, refused: {} });
      expect(r).toMatchObject({ reports: 42, matched: 42, unmatched: 0, duplicates: 0 });
      expect(r.stats).toEqual({ DELIVRD: 42 });
    } finally {
      await c.stop();
    }
    expect(Number(await messagesOf(t.server)) - before).toBe(30);
    expect(await db(t.server).selectFrom('smpp_receipts').selectAll().execute()).toEqual([]);
  });

  it.skipIf(!hasPeer)('reports queued while the customer is away are sent once it logs in again', async () => {
    await setAccount(t.server, 'client1', { needreport: NeedReport.PassThrough, access_speed: 0 });
    const r = await peer(t.server, { n: 5, long: 0, wait: 0 });
    expect(r).toMatchObject({ accepted: 5 });
    const c = carrier(t.server);
    const id = await accountId(t.server, 'client1');
    for (let i = 0; i < 100; i++) {
      const q = await db(t.server).selectFrom('smpp_receipts').select('id').where('account_id', '=', id).execute();
      if (q.length >= 5) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    await c.stop();
    expect(
      (await db(t.server).selectFrom('smpp_receipts').select('id').where('account_id', '=', id).execute()).length,
    ).toBe(5);
    // a session that logs in to send only (mode 0) gets none of them
    const sender = await session(t.server, { mode: 0 });
    expect(sender.status).toBe(0);
    await new Promise((res) => setTimeout(res, 600));
    expect(sender.delivers()).toEqual([]);
    sender.sock.destroy();
    // a receiving one (the peer logs in in mode 2, n 0: no submit) gets them, answers them, and they are gone
    const again = await peer(t.server, { n: 0, wait: 3 });
    expect(again.reports).toBe(5);
    expect(await db(t.server).selectFrom('smpp_receipts').select('id').where('account_id', '=', id).execute()).toEqual(
      [],
    );
  });

  it.skipIf(!hasPeer)('uplinks (needmo 1) arrive as SMGP_DELIVER with IsReport 0', async () => {
    await setAccount(t.server, 'client1', { needreport: NeedReport.PassThrough, needmo: NeedMo.Push, access_speed: 0 });
    const id = await accountId(t.server, 'client1');
    const d = new Dispatcher(t.server.app.ctx, new FakeLink(), { maintenanceMs: 0, hooks: pushHooks() });
    await d.handleMo([
      {
        from: '18900138011',
        to: `106900${id}`,
        text: '好的，收到 TD',
        smscRef: `mo-${Math.random()}`,
        receivedAt: new Date(),
      },
    ]);
    await d.stop();
    const r = await peer(t.server, { n: 0, wait: 3 });
    expect(r.mo).toBe(1);
    expect(JSON.stringify(r.moTexts ?? [])).toContain('好的，收到 TD');
    expect(await db(t.server).selectFrom('smpp_mo').selectAll().execute()).toEqual([]);
  });

  it.skipIf(!hasPeer)(
    'accessSpeed: beyond it Status 1 (system busy: send again), nothing charged for those',
    async () => {
      await setAccount(t.server, 'client1', { needreport: NeedReport.PassThrough, access_speed: 5 });
      const before = Number(await messagesOf(t.server));
      const r = await peer(t.server, { n: 40, long: 0, window: 16, wait: 0 });
      expect(r.refused['1']).toBeGreaterThan(0);
      expect(r.accepted + r.refused['1']).toBe(40);
      expect(Number(await messagesOf(t.server)) - before).toBe(r.accepted);
      await setAccount(t.server, 'client1', { access_speed: 0 });
    },
  );

  it.skipIf(!hasPeer)('refusals: no sign, an unapproved sign (vendor status 101), nothing charged', async () => {
    await setAccount(t.server, 'client1', { access_speed: 0 });
    const before = Number(await messagesOf(t.server));
    const unapproved = await peer(t.server, { n: 3, wait: 0, sign: '没批过' });
    expect(unapproved).toMatchObject({ accepted: 0, refused: { '101': 3 } });
    const none = await peer(t.server, { n: 2, wait: 0, sign: '' });
    expect(none.accepted).toBe(0);
    expect(none.refused['101']).toBe(2);
    expect(Number(await messagesOf(t.server))).toBe(before);
  });

  it('login: wrong password and unknown login 21, a frozen account 100, a version not served 22, a bad mode 10, the right one 0', async () => {
    const status = async (o: Parameters<typeof session>[1]) => {
      const s = await session(t.server, o);
      s.sock.destroy();
      return s.status;
    };
    expect(await status({})).toBe(0);
    expect(await status({ mode: 0 })).toBe(0);
    expect(await status({ mode: 1 })).toBe(0);
    expect(await status({ password: 'wrong' })).toBe(21);
    expect(await status({ login: 'nobody' })).toBe(21);
    expect(await status({ version: 0x40 })).toBe(22);
    expect(await status({ mode: 3 })).toBe(10);
    await setAccount(t.server, 'client1', { status: AccountStatus.Frozen });
    expect(await status({})).toBe(100);
    await setAccount(t.server, 'client1', { status: AccountStatus.Active });
    // the clientid of 7 characters is no login: its interface login is
    expect(await status({ login: 'client1' })).toBe(21);
  });

  it('a submit to several DestTermIDs: one message each, one MsgID answered; their reports name it; receive-only sessions may not submit; EXIT', async () => {
    await setAccount(t.server, 'client1', { needreport: NeedReport.PassThrough, access_speed: 0 });
    const before = Number(await messagesOf(t.server));
    const s = await session(t.server, { mode: 2 });
    expect(s.status).toBe(0);
    const r = await s.submit(2, ['18900000001', '18900000002', '18900000003'], '【好易购】您的验证码是 4321');
    expect(r?.status).toBe(0);
    const id = smgpMsgIdString(r!.msgId);
    expect(id).toMatch(/^\d{20}$/);
    expect(Number(await messagesOf(t.server)) - before).toBe(3);
    const c = carrier(t.server);
    try {
      // (messages of the tests before are dispatched too: only the reports naming this MsgID)
      const reports = await s.until(() => {
        const d = s
          .delivers()
          .filter((x) => x.isReport === 1 && smgpMsgIdString(decodeReport(x.msgContent).msgId) === id);
        return d.length >= 3 ? d : undefined;
      }, 15_000);
      expect(reports?.length).toBe(3);
      for (const d of reports!) {
        const rep = decodeReport(d.msgContent);
        expect(smgpMsgIdString(rep.msgId)).toBe(id);
        expect(d.msgContent.length).toBe(122);
        expect(rep.stat).toBe('DELIVRD');
        expect(['18900000001', '18900000002', '18900000003']).toContain(d.srcTermId);
      }
    } finally {
      await c.stop();
    }
    const receiver = await session(t.server, { mode: 1 });
    expect(receiver.status).toBe(0);
    expect((await receiver.submit(3, ['18900000004'], '【好易购】x'))?.status).toBe(11);
    receiver.sock.write(encodeExit(4));
    expect(await receiver.until(() => receiver.got.find((f) => f.readUInt32BE(4) === CMD.EXIT_RESP))).toBeDefined();
    await receiver.until(() => (receiver.closed ? true : undefined));
    expect(receiver.closed).toBe(true);
    s.sock.destroy();
  });

  it('a packet before the login closes the connection', async () => {
    const port = t.server.app.services.smgpServer!.port;
    const sock = net.connect(port, '127.0.0.1');
    sock.on('error', () => {});
    await new Promise((r) => sock.once('connect', r));
    sock.write(encodeActiveTest(1));
    await new Promise((r) => sock.once('close', r));
  });
});
