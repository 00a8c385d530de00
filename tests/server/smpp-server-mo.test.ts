/**
 * The SMPP listener for customers, issue 24's later parts (docs/api-smpp.md): uplinks (MO) to the
 * bound receiver with the extension, needextend (source_addr → extension → the dispatch's source
 * address), registered_delivery, data_sm, per-address connection limits, TLS, the nodenum count and
 * the accessSpeed bucket shared by several listener processes, the separate `npm run smpp-server`
 * process. The `smpp` package is the customer; Perl Net::SMPP receives an uplink too.
 */
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import smpp, { type PDU } from 'smpp';
import { afterEach, describe, expect, it } from 'vitest';
import { backends, TEST_DATABASE_URL, useServer, type TestServer } from './harness';
import { accountId, db } from './send-helpers';
import {
  bindOn,
  call,
  closed,
  connect,
  connectPort,
  DEMO_INTERFACE_PASSWORD,
  openSessions,
  receiver,
  until,
} from './smpp-customer';
import { Dispatcher } from '../../server/modules/dispatch/dispatcher';
import { pushHooks } from '../../server/modules/dispatch/pipeline';
import { enqueueSmppReceipts, SMPP_SERVER_DEFAULTS, SmppServer } from '../../server/modules/smpp-server';
import { statOf } from '../../server/modules/smpp-server/receipts';
import { FakeLink } from '../fixtures/fake-smsc';
import { NeedMo, NeedReport, SendRecordStatus } from '../../common/generated/schemas';

afterEach(() => {
  for (const s of openSessions.splice(0)) s.socket.destroy();
});

const SMPP = { smppServerPort: -1, smppServerHost: '127.0.0.1' };

async function setAccount(server: TestServer, clientid: string, values: Record<string, unknown>) {
  await db(server).updateTable('accounts').set(values).where('clientid', '=', clientid).execute();
  // the listener reuses an account row for up to a second (accountCacheMs): these tests look at once
  server.app.services.smppServer?.forgetAccounts();
}

/** dispatches everything waiting through a fake carrier (delivered unless told), applies the receipts; returns the link */
async function dispatchAll(server: TestServer, delivered: (ref: number) => boolean = () => true) {
  const link = new FakeLink();
  link.delivered = delivered;
  const d = new Dispatcher(server.app.ctx, link, { maintenanceMs: 0, markSubmittedMs: 0, hooks: pushHooks() });
  while ((await d.dispatchOnce()) > 0);
  await link.flushReceipts();
  await d.applyOnce();
  await d.stop();
  return link;
}

/** an uplink from the carrier, through the dispatcher's own handler (routing, sms_mo, the hooks) */
async function uplink(server: TestServer, from: string, to: string, text: string) {
  const d = new Dispatcher(server.app.ctx, new FakeLink(), { maintenanceMs: 0, hooks: pushHooks() });
  await d.handleMo([{ from, to, text, smscRef: `mo-${Math.random()}`, receivedAt: new Date() }]);
  await d.stop();
}

const smppMo = (server: TestServer) => db(server).selectFrom('smpp_mo').selectAll().orderBy('id').execute();
const textOf = (p: PDU) => {
  const sm = (p.short_message as { message?: unknown } | undefined)?.message;
  if (typeof sm === 'string' && sm) return sm;
  const v: unknown = p.message_payload;
  if (typeof v === 'string') return v;
  if (Buffer.isBuffer(v))
    return p.data_coding === 8 ? Buffer.from(v).swap16().toString('utf16le') : v.toString('latin1');
  return String((v as { message?: string } | undefined)?.message ?? '');
};

describe.each(backends)('SMPP uplink and extension (%s)', (backend) => {
  const t = useServer(backend, { config: SMPP });

  it('needextend 1: source_addr becomes the extension, the carrier sees 106900+account+extension; a reply to it reaches the bound receiver (queued while none is bound)', async () => {
    const id = await accountId(t.server, 'client1');
    await setAccount(t.server, 'client1', { needextend: 1, needmo: NeedMo.Push, needreport: NeedReport.PassThrough });
    const s = await connect(t.server);
    expect(await bindOn(s, 'bind_transmitter')).toBe(0);
    const submit = async (source: string, to: string) => {
      const r = await call(s, 'submit_sm', {
        source_addr: source,
        destination_addr: to,
        short_message: '【好易购】回复TD退订',
      });
      expect(r.command_status, source).toBe(0);
      const m = await db(t.server)
        .selectFrom('sms_messages as m')
        .innerJoin('sms_tasks as k', 'k.id', 'm.task_id')
        .select(['m.id', 'k.extension'])
        .where('m.id', '=', Number(r.message_id))
        .executeTakeFirstOrThrow();
      return m;
    };
    // the extension alone, the full number (prefix + id + extension), something that is no extension (never a refusal)
    expect((await submit('8801', '13800138011')).extension).toBe('8801');
    expect((await submit(`106900${id}77`, '13800138012')).extension).toBe('77');
    expect((await submit('SHOP', '13800138013')).extension).toBe('');
    expect((await submit('12345678', '13800138014')).extension).toBe('');
    s.socket.destroy();
    const link = await dispatchAll(t.server);
    const from = Object.fromEntries(link.requests.map((r) => [r.to, r.from]));
    expect(from).toMatchObject({
      '13800138011': `106900${id}8801`,
      '13800138012': `106900${id}77`,
      '13800138013': `106900${id}`,
      '13800138014': `106900${id}`,
    });

    // the mobile replies to 106900+id+8801 while no receiver is bound: stored and queued for SMPP
    await uplink(t.server, '+8613800138011', `106900${id}8801`, '好的，收到 TD');
    const mo = await db(t.server).selectFrom('sms_mo').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(mo).toMatchObject({ account_id: id, phone: '13800138011', dest: `106900${id}8801` });
    expect((await smppMo(t.server)).map((r) => r.mo_id)).toEqual([mo.id]);
    // a receiver binds: one deliver_sm (esm_class 0), answered once, the queue row gone, never sent again
    const r = await receiver(t.server);
    await until(() => r.got.length === 1);
    expect(r.got[0]).toMatchObject({ esm_class: 0, source_addr: '13800138011', destination_addr: `106900${id}8801` });
    expect(textOf(r.got[0])).toBe('好的，收到 TD');
    await until(async () => (await smppMo(t.server)).length === 0);
    await new Promise((res) => setTimeout(res, 600));
    expect(r.got.length).toBe(1);
    // bound already: a new uplink arrives at once (here a long one: message_payload)
    const long = '这是一条很长的上行回复。'.repeat(10);
    await uplink(t.server, '13800138012', `106900${id}77`, long);
    await until(() => r.got.length === 2);
    expect(r.got[1].destination_addr).toBe(`106900${id}77`);
    expect(textOf(r.got[1])).toBe(long);
  });

  it("needextend 0: source_addr is ignored (the account's own number); a transceiver receives the uplink too", async () => {
    const id = await accountId(t.server, 'client1');
    await setAccount(t.server, 'client1', { needextend: 0, needmo: NeedMo.Push, needreport: NeedReport.PassThrough });
    const s = await connect(t.server);
    expect(await bindOn(s, 'bind_transmitter')).toBe(0);
    const r = await call(s, 'submit_sm', {
      source_addr: '8801',
      destination_addr: '13800138021',
      short_message: '【好易购】您好',
    });
    expect(r.command_status).toBe(0);
    const task = await db(t.server)
      .selectFrom('sms_messages as m')
      .innerJoin('sms_tasks as k', 'k.id', 'm.task_id')
      .select('k.extension')
      .where('m.id', '=', Number(r.message_id))
      .executeTakeFirstOrThrow();
    expect(task.extension).toBe('');
    s.socket.destroy();
    const link = await dispatchAll(t.server);
    expect(link.requests.find((q) => q.to === '13800138021')?.from).toBe(`106900${id}`);
    const trx = await receiver(t.server, () => 0, 'bind_transceiver');
    await uplink(t.server, '13800138021', `106900${id}`, 'OK');
    await until(() => trx.got.length === 1);
    expect(trx.got[0]).toMatchObject({ source_addr: '13800138021', destination_addr: `106900${id}` });
    expect(textOf(trx.got[0])).toBe('OK');
  });

  it('uplinks go to SMPP only for needmo 1 of a pass-through account; an unanswered one is sent again', async () => {
    const id = await accountId(t.server, 'client1');
    await setAccount(t.server, 'client1', { needmo: NeedMo.None, needreport: NeedReport.PassThrough });
    // rows of this number only: an earlier test's queue rows may still be going (answered rows are deleted a turn later)
    const queuedFor = async (phone: string) => (await smppMo(t.server)).filter((r) => r.phone === phone).length;
    await uplink(t.server, '13800138031', `106900${id}`, 'no');
    await setAccount(t.server, 'client1', { needmo: NeedMo.Push, needreport: NeedReport.SimplePush });
    await uplink(t.server, '13800138031', `106900${id}`, 'no');
    expect(await queuedFor('13800138031')).toBe(0);
    await setAccount(t.server, 'client1', { needmo: NeedMo.Push, needreport: NeedReport.PassThrough });
    await uplink(t.server, '13800138032', `106900${id}`, 'again');
    const silent = await receiver(t.server, () => null);
    await until(() => silent.got.length === 1);
    silent.s.socket.destroy();
    await closed(silent.s);
    const b = await receiver(t.server);
    await until(() => b.got.length === 1);
    expect(textOf(b.got[0])).toBe('again');
    await until(async () => (await smppMo(t.server)).length === 0);
  });
});

describe.each(backends)('SMPP registered_delivery and data_sm (%s)', (backend) => {
  const t = useServer(backend, { config: SMPP });

  it('registered_delivery 0: no receipt; 1: every final state; 2: failures only', async () => {
    await setAccount(t.server, 'client1', { needreport: NeedReport.PassThrough });
    const s = await connect(t.server);
    expect(await bindOn(s, 'bind_transmitter')).toBe(0);
    const ids: Record<string, number> = {};
    const cases: [string, number][] = [
      ['13800138040', 0],
      ['13800138041', 1],
      ['13800138042', 2],
      ['13800138043', 2],
      ['13800138044', 0x11], // SME acknowledgement bits besides: the low two bits count
    ];
    for (const [phone, rd] of cases) {
      const r = await call(s, 'submit_sm', {
        destination_addr: phone,
        short_message: '【好易购】回执测试',
        registered_delivery: rd,
      });
      expect(r.command_status).toBe(0);
      ids[phone] = Number(r.message_id);
    }
    s.socket.destroy();
    const failing = new Set([ids['13800138040'], ids['13800138043']]);
    await dispatchAll(t.server, (ref) => !failing.has(ref));
    const queued = await db(t.server)
      .selectFrom('smpp_receipts')
      .select(['message_id', 'stat'])
      .orderBy('message_id')
      .execute();
    expect(queued).toEqual([
      { message_id: ids['13800138041'], stat: 'DELIVRD' },
      { message_id: ids['13800138043'], stat: 'UNDELIV' },
      { message_id: ids['13800138044'], stat: 'DELIVRD' },
    ]);
    const r = await receiver(t.server);
    await until(() => r.got.length === 3);
  });

  it("a receipt's stat and err are statOf's and the err rule's (computed by the queueing INSERT in SQL)", async () => {
    await setAccount(t.server, 'client1', { needreport: NeedReport.PassThrough });
    const s = await connect(t.server);
    expect(await bindOn(s, 'bind_transmitter')).toBe(0);
    const S = SendRecordStatus;
    const cases: { state: number; report: string; code: string }[] = [
      { state: S.Delivered, report: 'DELIVRD', code: '0' },
      { state: S.DeliveredAlt, report: '', code: '' },
      { state: S.DeliveryFailed, report: ' EXPIRED ', code: '12' },
      { state: S.DeliveryFailed, report: 'MK:0001', code: 'abc' },
      { state: S.SubmitFailed, report: 'REJECTD', code: '1234' },
      { state: S.SubmitFailed, report: 'UNKNOWN', code: '7' },
      { state: S.SubmitFailed, report: 'DELIVRD', code: '' },
    ];
    const ids: number[] = [];
    for (let i = 0; i < cases.length; i++) {
      const r = await call(s, 'submit_sm', {
        destination_addr: `1380013807${i}`,
        short_message: '【好易购】回执字段',
        registered_delivery: 1,
      });
      expect(r.command_status).toBe(0);
      ids.push(Number(r.message_id));
    }
    s.socket.destroy();
    const d = db(t.server);
    const done = new Date('2026-11-28T10:00:00Z');
    for (let i = 0; i < cases.length; i++) {
      await d
        .updateTable('sms_messages')
        .set({ state: cases[i].state, report: cases[i].report, error_code: cases[i].code, done_at: done })
        .where('id', '=', ids[i])
        .execute();
    }
    await d.deleteFrom('smpp_receipts').execute();
    const account = await accountId(t.server, 'client1');
    const n = await d.transaction().execute((trx) =>
      enqueueSmppReceipts(
        trx,
        ids.map((id, i) => ({ id, account_id: account, state: cases[i].state })),
        done,
      ),
    );
    expect(n).toBe(cases.length);
    const rows = await d
      .selectFrom('smpp_receipts')
      .select(['message_id', 'stat', 'err'])
      .orderBy('message_id')
      .execute();
    expect(rows).toEqual(
      cases.map((c, i) => ({
        message_id: ids[i],
        stat: statOf(c.state, c.report),
        err: (/^\d{1,3}$/.test(c.code) ? c.code : c.state === S.Delivered ? '0' : '1').padStart(3, '0'),
      })),
    );
  });

  it('data_sm is accepted like submit_sm (data_sm_resp with the message id); before a bind or on a receiver 0x04', async () => {
    const s = await connect(t.server);
    expect(
      (await call(s, 'data_sm', { destination_addr: '13800138050', message_payload: '【好易购】数据短信' }))
        .command_status,
    ).toBe(0x04);
    expect(await bindOn(s, 'bind_transceiver')).toBe(0);
    const r = await call(s, 'data_sm', {
      source_addr: '1',
      destination_addr: '13800138050',
      message_payload: '【好易购】数据短信',
      registered_delivery: 1,
    });
    expect(r).toMatchObject({ command: 'data_sm_resp', command_status: 0 });
    const row = await db(t.server)
      .selectFrom('sms_messages as m')
      .innerJoin('sms_tasks as k', 'k.id', 'm.task_id')
      .select(['m.phone', 'k.content', 'k.registered_delivery'])
      .where('m.id', '=', Number(r.message_id))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ phone: '13800138050', content: '【好易购】数据短信', registered_delivery: 1 });
    expect(
      (await call(s, 'data_sm', { destination_addr: '13800138050', message_payload: '没有签名' })).command_status,
    ).toBe(0x402);
    const rx = await connect(t.server);
    expect(await bindOn(rx, 'bind_receiver')).toBe(0);
    expect(
      (await call(rx, 'data_sm', { destination_addr: '13800138050', message_payload: '【好易购】x' })).command_status,
    ).toBe(0x04);
  });
});

describe.each(backends)('SMPP connection limits (%s)', (backend) => {
  const t = useServer(backend, { config: SMPP });
  const raw = (port: number) =>
    new Promise<net.Socket>((resolve) => {
      const sock = net.connect(port, '127.0.0.1');
      sock.on('error', () => {});
      sock.once('connect', () => resolve(sock));
      sock.once('close', () => resolve(sock));
    });

  it('open connections per address are limited: the one beyond is closed at once; the slow ones go at the bind timeout', async () => {
    const srv = t.server.app.services.smppServer!;
    const keep = { ...srv.opts };
    srv.opts.maxConnectionsPerAddress = 5;
    srv.opts.bindTimeoutMs = 1500;
    try {
      const socks = await Promise.all([1, 2, 3, 4, 5].map(() => raw(srv.port)));
      await until(() => srv.connectionCount() === 5);
      const started = Date.now();
      const sixth = await raw(srv.port);
      await new Promise<void>((resolve) => (sixth.destroyed ? resolve() : sixth.once('close', () => resolve())));
      expect(Date.now() - started).toBeLessThan(1000);
      // slowloris: the five silent ones are closed by the bind timeout, then a customer binds
      await Promise.all(
        socks.map((x) => new Promise<void>((resolve) => (x.destroyed ? resolve() : x.once('close', () => resolve())))),
      );
      const s = await connect(t.server);
      expect(await bindOn(s)).toBe(0);
    } finally {
      Object.assign(srv.opts, keep);
    }
  });

  it('thousands of connection attempts from one address are cut at once and do not exhaust the listener', async () => {
    const srv = t.server.app.services.smppServer!;
    const keep = { ...srv.opts };
    srv.opts.maxConnectAttempts = 100;
    // a window longer than the ten rounds take on a loaded machine: 100 admitted, the rest cut
    srv.opts.connectWindowMs = 4000;
    try {
      let refusedFast = 0;
      for (let round = 0; round < 10; round++) {
        const socks = await Promise.all(Array.from({ length: 200 }, () => raw(srv.port)));
        await Promise.all(
          socks.map(
            (x) =>
              new Promise<void>(
                (resolve) => (
                  x.destroyed ? resolve() : x.once('close', () => resolve()),
                  setTimeout(() => resolve(), 200)
                ),
              ),
          ),
        );
        refusedFast += socks.filter((x) => x.destroyed).length;
        for (const x of socks) x.destroy();
      }
      expect(refusedFast).toBeGreaterThan(1500);
      expect(srv.connectionCount()).toBeLessThanOrEqual(100);
      // once the window has passed the address may connect again
      await new Promise((r) => setTimeout(r, 4200));
      await until(() => srv.connectionCount() === 0);
      const s = await connect(t.server);
      expect(await bindOn(s)).toBe(0);
    } finally {
      Object.assign(srv.opts, keep);
    }
  });
});

/** a self-signed certificate made with the openssl CLI for the TLS listener */
const tlsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smpp-tls-'));
const haveOpenssl = spawnSync('openssl', ['version']).status === 0;
if (haveOpenssl) {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-keyout',
      path.join(tlsDir, 'key.pem'),
      '-out',
      path.join(tlsDir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
}

describe.skipIf(!haveOpenssl)('SMPP over TLS (pglite)', () => {
  const t = useServer('pglite', {
    config: {
      ...SMPP,
      smppServerTlsPort: -1,
      smppServerTlsCert: path.join(tlsDir, 'cert.pem'),
      smppServerTlsKey: path.join(tlsDir, 'key.pem'),
    },
  });

  it('SMPP_SERVER_TLS_*: a second listener speaks SMPP over TLS (bind, submit_sm); the plain one keeps working', async () => {
    const srv = t.server.app.services.smppServer!;
    expect(srv.tlsPort).toBeGreaterThan(0);
    const s = await connectPort(srv.tlsPort, { tls: true, rejectUnauthorized: false });
    expect((s.socket as unknown as { encrypted?: boolean }).encrypted).toBe(true);
    expect(await bindOn(s)).toBe(0);
    const r = await call(s, 'submit_sm', { destination_addr: '13800138060', short_message: '【好易购】TLS' });
    expect(r.command_status).toBe(0);
    const plain = await connect(t.server);
    expect(await bindOn(plain)).toBe(0);
    // plain SMPP on the TLS port binds nothing (the handshake fails, the connection is closed)
    const wrong = net.connect(srv.tlsPort, '127.0.0.1');
    wrong.on('error', () => {});
    await new Promise((res) => wrong.once('connect', res));
    const b = new smpp.PDU('bind_transceiver', { system_id: 'client1', password: DEMO_INTERFACE_PASSWORD }).toBuffer();
    wrong.write(b);
    await new Promise<void>((resolve) => wrong.once('close', () => resolve()));
  });
});

describe.each(backends)('SMPP listeners of several processes over one database (%s)', (backend) => {
  const t = useServer(backend, { config: SMPP });
  /** another listener process: its own SmppServer (own process id, own sockets) on the same database */
  async function second(server: TestServer) {
    const other = new SmppServer(
      server.app.ctx,
      { submit: async () => ({ ok: true, msgId: 'other' }) },
      { ...SMPP_SERVER_DEFAULTS, host: '127.0.0.1', port: -1 },
    );
    await other.listen();
    return other;
  }

  it('nodenum counts the sessions of every process; a session that closes (or a process whose heartbeat stopped) frees its place', async () => {
    const other = await second(t.server);
    try {
      await setAccount(t.server, 'client1', { nodenum: '1' });
      const a = await connect(t.server);
      expect(await bindOn(a)).toBe(0);
      const b = await connectPort(other.port);
      expect(await bindOn(b)).toBe(0x05);
      a.socket.destroy();
      await closed(a);
      await until(async () => (await db(t.server).selectFrom('smpp_sessions').select('id').execute()).length === 0);
      const c = await connectPort(other.port);
      expect(await bindOn(c)).toBe(0);
      // a row whose heartbeat is old (a process that died) no longer counts
      c.socket.destroy();
      await until(async () => (await db(t.server).selectFrom('smpp_sessions').select('id').execute()).length === 0);
      const id = await accountId(t.server, 'client1');
      const old = new Date(Date.now() - 10 * SMPP_SERVER_DEFAULTS.heartbeatMs);
      await db(t.server)
        .insertInto('smpp_sessions')
        .values({ id: 'dead:1', account_id: id, process: 'dead', peer: '', bound_at: old, heartbeat_at: old })
        .execute();
      const d = await connect(t.server);
      expect(await bindOn(d)).toBe(0);
    } finally {
      await other.close();
      await setAccount(t.server, 'client1', { nodenum: '' });
    }
  });

  it('accessSpeed is one bucket for the account across processes', async () => {
    const other = await second(t.server);
    try {
      await setAccount(t.server, 'client1', { access_speed: 1, nodenum: '' });
      await new Promise((r) => setTimeout(r, 1100));
      const a = await connect(t.server);
      expect(await bindOn(a)).toBe(0);
      const b = await connectPort(other.port);
      expect(await bindOn(b)).toBe(0);
      const sm = { destination_addr: '13800138070', short_message: '【好易购】限速' };
      expect((await call(a, 'submit_sm', sm)).command_status).toBe(0);
      expect((await call(b, 'submit_sm', sm)).command_status).toBe(0x58);
      await new Promise((r) => setTimeout(r, 1100));
      expect((await call(b, 'submit_sm', sm)).command_status).toBe(0);
      expect((await call(a, 'submit_sm', sm)).command_status).toBe(0x58);
      // many at once on both: at most rate (+1 refilled meanwhile) accepted
      await setAccount(t.server, 'client1', { access_speed: 5 });
      await new Promise((r) => setTimeout(r, 1100));
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => call(i % 2 ? a : b, 'submit_sm', sm).then((r) => r.command_status)),
      );
      const ok = answers.filter((x) => x === 0).length;
      expect(ok).toBeGreaterThanOrEqual(5);
      expect(ok).toBeLessThanOrEqual(7);
      expect(answers.every((x) => x === 0 || x === 0x58)).toBe(true);
    } finally {
      await other.close();
      await setAccount(t.server, 'client1', { access_speed: 100 });
    }
  });
});

/** Debian's libnet-smpp-perl (apt-get install libnet-smpp-perl; .ci/run installs it) */
const perlSmpp = spawnSync('perl', ['-MNet::SMPP', '-e', '1']).status === 0;

describe.each(backends)('SMPP uplink to an independent client (Perl Net::SMPP) (%s)', (backend) => {
  const t = useServer(backend, { config: SMPP });
  const script = path.resolve(import.meta.dirname, '../fixtures/smpp-receiver.pl');

  it.skipIf(!perlSmpp)(
    'a Net::SMPP receiver gets the queued uplink with the extension as deliver_sm [skipped without perl Net::SMPP]',
    async () => {
      const id = await accountId(t.server, 'client1');
      await setAccount(t.server, 'client1', { needextend: 1, needmo: NeedMo.Push, needreport: NeedReport.PassThrough });
      await uplink(t.server, '13800138080', `106900${id}66`, '收到，谢谢');
      const out = await new Promise<string>((resolve, reject) =>
        execFile(
          'perl',
          [script, '127.0.0.1', String(t.server.app.services.smppServer!.port), 'client1', DEMO_INTERFACE_PASSWORD],
          { timeout: 20_000 },
          (err, stdout) => (err && !stdout ? reject(err) : resolve(stdout)),
        ),
      );
      const m = /bind 0\ndeliver 0 13800138080 (\d+) 8 ([0-9a-f]+)/.exec(out);
      expect(m, out).not.toBeNull();
      expect(m![1]).toBe(`106900${id}66`);
      expect(Buffer.from(m![2], 'hex').swap16().toString('utf16le')).toBe('收到，谢谢');
      await until(async () => (await smppMo(t.server)).length === 0);
    },
  );
});

describe.skipIf(!TEST_DATABASE_URL)('npm run smpp-server: the listener as its own process (postgres)', () => {
  const t = useServer('postgres', { config: SMPP });

  it('binds against the same database; nodenum is shared with the in-process listener', async () => {
    const schema = (t.server as unknown as { schema: string }).schema;
    const free = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as net.AddressInfo).port;
        probe.close(() => resolve(p));
      });
    });
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/smpp-server.ts'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: {
        ...process.env,
        DATABASE_URL: TEST_DATABASE_URL,
        DATABASE_SCHEMA: schema,
        SMPP_SERVER_PORT: String(free),
        SMPP_SERVER_HOST: '127.0.0.1',
        // the CMPP door's fixed 7890 may be taken by another test's process: off here
        CMPP_SERVER_PORT: '0',
        SMGP_SERVER_PORT: '0',
        SGIP_SERVER_PORT: '0',
        LOG_LEVEL: 'warn',
        DATA_DIR: t.server.dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await until(() => /smpp-server ready: port \d+/.test(out) || child.exitCode !== null, 90_000);
      const port = Number(/smpp-server ready: port (\d+)/.exec(out)?.[1]);
      expect(port, out).toBeGreaterThan(0);
      await setAccount(t.server, 'client1', { nodenum: '1' });
      const a = await connectPort(port);
      expect(await bindOn(a)).toBe(0);
      const r = await call(a, 'submit_sm', { destination_addr: '13800138090', short_message: '【好易购】独立进程' });
      expect(r.command_status).toBe(0);
      expect(
        await db(t.server)
          .selectFrom('sms_messages')
          .select('phone')
          .where('id', '=', Number(r.message_id))
          .executeTakeFirst(),
      ).toEqual({ phone: '13800138090' });
      const b = await connect(t.server);
      expect(await bindOn(b)).toBe(0x05);
    } finally {
      child.kill('SIGTERM');
      await new Promise((res) => (child.exitCode !== null ? res(null) : child.once('exit', res)));
      await setAccount(t.server, 'client1', { nodenum: '' });
    }
  }, 120_000);
});
