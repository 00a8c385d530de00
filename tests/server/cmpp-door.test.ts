/**
 * The CMPP 2.0 / 3.0 door for customers (issue 36; docs/api-cmpp.md), with an implementation this
 * project did not write as the customer: ../shared/interop/bin/cmpp-peer `sp` (gocmpp). Both
 * versions, short and long messages accepted and charged, every report matched (a Dispatcher over
 * the FakeLink delivers while the customer waits), uplinks, flow control, refusals, reports queued
 * while the customer is away.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { relayTo } from './interop-relay';
import { backends, useServer, type TestServer } from './harness';
import { accountId, db } from './send-helpers';
import { Dispatcher } from '../../server/modules/dispatch/dispatcher';
import { pushHooks } from '../../server/modules/dispatch/pipeline';
import { FakeLink } from '../fixtures/fake-smsc';
import { AccountStatus, NeedMo, NeedReport } from '../../common/generated/schemas';
import {
  CMD,
  CmppFrameSplitter,
  decodeConnectResp,
  encodeActiveTest,
  encodeConnect,
  makeConnect,
} from '../../server/lib/cmpp-pdu';

const PEER = path.resolve(import.meta.dirname, '../../../shared/interop/bin/cmpp-peer');
const hasPeer = fs.existsSync(PEER);
const LOGIN = 'cli001';
const PASSWORD = 'Demo2468';

interface Summary {
  version: number;
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

/** runs cmpp-peer sp against the door; resolves with its JSON summary line */
async function peer(server: TestServer, args: Record<string, string | number>): Promise<Summary> {
  const argv = [
    'sp',
    '-addr',
    `127.0.0.1:${await relayTo(server.app.services.cmppServer!.port)}`,
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
        void doorState(server).then((state) =>
          reject(
            new Error(
              `cmpp-peer: ${err?.message ?? ''} (killed: ${String(err?.killed)}) ${stdout} ${stderr}\n${state}`,
            ),
          ),
        );
      }
    });
  });
}

/** what the door and the database were doing when a peer failed without a summary (a peer left waiting) */
async function doorState(server: TestServer): Promise<string> {
  const door = server.app.services.cmppServer!;
  const sessions = [...door.core.sessions].map((cs) => ({
    account: cs.accountId,
    inflight: cs.inflight,
    writable: cs.socket.writable,
  }));
  let activity: unknown = 'n/a';
  if (server.backend === 'postgres') {
    activity =
      await sql`select state, wait_event_type, wait_event, now() - query_start as running, left(query, 160) as query
      from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`
        .execute(db(server))
        .then((r) => r.rows)
        .catch((e: unknown) => String(e));
  }
  return JSON.stringify({ stats: door.stats, sessions, activity }, null, 1);
}

async function setAccount(server: TestServer, clientid: string, values: Record<string, unknown>) {
  await db(server).updateTable('accounts').set(values).where('clientid', '=', clientid).execute();
  server.app.services.cmppServer?.forgetAccounts();
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

/** a raw CONNECT: its CONNECT_RESP status (or null when the connection closed without one) */
async function connectStatus(
  server: TestServer,
  login: string,
  password: string,
  version: number,
): Promise<number | null> {
  const port = server.app.services.cmppServer!.port;
  const sock = net.connect(port, '127.0.0.1');
  sock.on('error', () => {});
  const c = makeConnect(login, password, 3);
  sock.write(encodeConnect(1, { ...c, version }));
  const split = new CmppFrameSplitter();
  return new Promise((resolve) => {
    sock.on('data', (d: Buffer) => {
      for (const f of split.push(d)) if (f.readUInt32BE(4) === CMD.CONNECT_RESP) resolve(decodeConnectResp(f).status);
    });
    sock.on('close', () => resolve(null));
    setTimeout(() => {
      sock.destroy();
      resolve(null);
    }, 5000);
  });
}

describe.each(backends)('CMPP door for customers (%s)', (backend) => {
  const t = useServer(backend, { config: { cmppServerPort: -1, cmppServerHost: '127.0.0.1' } });

  it.skipIf(!hasPeer).each([2, 3])(
    'CMPP %i.0: short and long messages accepted and charged, every report matched',
    async (v) => {
      await setAccount(t.server, 'client1', { needreport: NeedReport.PassThrough, access_speed: 0 });
      const before = Number(await messagesOf(t.server));
      const c = carrier(t.server);
      try {
        const r = await peer(t.server, {
          v,
          n: 30,
          long: 5,
          window: 16,
          wait: 15,
          dest: v === 2 ? '1380013' : '1390013',
        });
        expect(r.error ?? '').toBe('');
        // 30 messages, 6 of them in 3 parts: 42 submits, each answered 0 with a Msg_Id
        expect(r).toMatchObject({ version: `cmpp${v}0`, messages: 30, parts: 42, accepted: 42, refused: {} });
        // a report for every Msg_Id the customer holds (each part's), none twice, none unknown
        expect(r).toMatchObject({ reports: 42, matched: 42, unmatched: 0, duplicates: 0 });
        expect(r.stats).toEqual({ DELIVRD: 42 });
      } finally {
        await c.stop();
      }
      expect(Number(await messagesOf(t.server)) - before).toBe(30);
      expect(await db(t.server).selectFrom('smpp_receipts').selectAll().execute()).toEqual([]);
    },
  );

  it.skipIf(!hasPeer)('reports queued while the customer is away are sent once it connects again', async () => {
    await setAccount(t.server, 'client1', { needreport: NeedReport.PassThrough, access_speed: 0 });
    // submits and leaves at once (no wait): the reports are queued
    const r = await peer(t.server, { v: 3, n: 5, long: 0, wait: 0 });
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
    // a new session (n 0: no submit) gets them, answers them, and they are gone
    const again = await peer(t.server, { v: 3, n: 0, wait: 3 });
    expect(again.reports).toBe(5);
    expect(await db(t.server).selectFrom('smpp_receipts').select('id').where('account_id', '=', id).execute()).toEqual(
      [],
    );
  });

  it.skipIf(!hasPeer)('uplinks (needmo 1) arrive as CMPP_DELIVER with Registered_Delivery 0', async () => {
    await setAccount(t.server, 'client1', { needreport: NeedReport.PassThrough, needmo: NeedMo.Push, access_speed: 0 });
    const id = await accountId(t.server, 'client1');
    const d = new Dispatcher(t.server.app.ctx, new FakeLink(), { maintenanceMs: 0, hooks: pushHooks() });
    await d.handleMo([
      {
        from: '13800138011',
        to: `106900${id}`,
        text: '好的，收到 TD',
        smscRef: `mo-${Math.random()}`,
        receivedAt: new Date(),
      },
    ]);
    await d.stop();
    const r = await peer(t.server, { v: 2, n: 0, wait: 3 });
    expect(r.mo).toBe(1);
    expect(JSON.stringify(r.moTexts ?? [])).toContain('好的，收到 TD');
    expect(await db(t.server).selectFrom('smpp_mo').selectAll().execute()).toEqual([]);
  });

  it.skipIf(!hasPeer)('accessSpeed: beyond it result 8 (flow control), nothing charged for those', async () => {
    await setAccount(t.server, 'client1', { needreport: NeedReport.PassThrough, access_speed: 5 });
    const before = Number(await messagesOf(t.server));
    const r = await peer(t.server, { v: 3, n: 40, long: 0, window: 16, wait: 0 });
    expect(r.refused['8']).toBeGreaterThan(0);
    expect(r.accepted + r.refused['8']).toBe(40);
    expect(Number(await messagesOf(t.server)) - before).toBe(r.accepted);
    await setAccount(t.server, 'client1', { access_speed: 0 });
  });

  it.skipIf(!hasPeer)('refusals: no sign, an unapproved sign (vendor result 101), nothing charged', async () => {
    await setAccount(t.server, 'client1', { access_speed: 0 });
    const before = Number(await messagesOf(t.server));
    const unapproved = await peer(t.server, { v: 3, n: 3, wait: 0, sign: '没批过' });
    expect(unapproved).toMatchObject({ accepted: 0, refused: { '101': 3 } });
    const none = await peer(t.server, { v: 2, n: 2, wait: 0, sign: '' });
    expect(none.accepted).toBe(0);
    expect(none.refused['101']).toBe(2);
    expect(Number(await messagesOf(t.server))).toBe(before);
  });

  it('connect: wrong password and unknown login 3, a frozen account 5, a version not served 4, the right one 0', async () => {
    expect(await connectStatus(t.server, LOGIN, PASSWORD, 0x30)).toBe(0);
    expect(await connectStatus(t.server, LOGIN, PASSWORD, 0x20)).toBe(0);
    expect(await connectStatus(t.server, LOGIN, 'wrong', 0x30)).toBe(3);
    expect(await connectStatus(t.server, 'nobody', PASSWORD, 0x30)).toBe(3);
    expect(await connectStatus(t.server, LOGIN, PASSWORD, 0x10)).toBe(4);
    await setAccount(t.server, 'client1', { status: AccountStatus.Frozen });
    expect(await connectStatus(t.server, LOGIN, PASSWORD, 0x30)).toBe(5);
    await setAccount(t.server, 'client1', { status: AccountStatus.Active });
    // the clientid of 7 characters is no login: its interface login is
    expect(await connectStatus(t.server, 'client', PASSWORD, 0x30)).toBe(3);
  });

  it('a packet before the connect closes the connection', async () => {
    const port = t.server.app.services.cmppServer!.port;
    const sock = net.connect(port, '127.0.0.1');
    sock.on('error', () => {});
    await new Promise((r) => sock.once('connect', r));
    sock.write(encodeActiveTest(1));
    await new Promise((r) => sock.once('close', r));
  });
});
