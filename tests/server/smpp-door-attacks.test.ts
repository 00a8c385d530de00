/**
 * The SMPP door under the attacks of issue 35, each performed as it was reported (each fails on the
 * build before the fixes): a pre-bind outbind / alert_notification (item 1), free parts of long
 * messages (item 2), a test account or an uncertified one on the interface (items 2, 3), bind
 * guessing and the oracle of which accounts exist (item 6), ::ffff: addresses (item 8).
 */
import net from 'node:net';
import type { PDU } from 'smpp';
import { afterEach, describe, expect, it } from 'vitest';
import { backends, useServer, type TestServer } from './harness';
import { accountId, as, db } from './send-helpers';
import { call, closed, connect, openSessions } from './smpp-customer';
import { hashInterfacePassword } from '../../server/lib/interface-password';
import { ipAllowed } from '../../server/lib/ip-allow';
import { OauthStatus } from '../../common/generated/schemas';

afterEach(() => {
  for (const s of openSessions.splice(0)) s.socket.destroy();
});

async function setAccount(server: TestServer, clientid: string, values: Record<string, unknown>) {
  await db(server).updateTable('accounts').set(values).where('clientid', '=', clientid).execute();
  server.app.services.smppServer?.forgetAccounts();
}

async function bindStatus(server: TestServer, systemId: string, password: string, kind = 'bind_transceiver') {
  const s = await connect(server);
  const r = await call(s, kind, { system_id: systemId, password });
  return { s, status: r.command_status };
}

/** a 20-octet PDU of `commandId` with a 4-octet body, written raw before any bind */
function raw20(commandId: number, seq: number) {
  const b = Buffer.alloc(20);
  b.writeUInt32BE(20, 0);
  b.writeUInt32BE(commandId, 4);
  b.writeUInt32BE(0, 8);
  b.writeUInt32BE(seq, 12);
  return b;
}

const partsOf = async (server: TestServer, clientid: string) => {
  const id = await accountId(server, clientid);
  const r = await db(server)
    .selectFrom('smpp_parts')
    .select((eb) => [
      eb.fn.countAll<string>().as('n'),
      eb.fn.coalesce(eb.fn.sum<string>(eb.fn('octet_length', ['text'])), eb.val('0')).as('bytes'),
    ])
    .where('account_id', '=', id)
    .where('seq', '>', 0)
    .executeTakeFirstOrThrow();
  return { n: Number(r.n), bytes: Number(r.bytes) };
};

/** a first part (SAR total 2, seq 1) of a UCS-2 message_payload of `chars` characters, to a new number and reference */
function firstPart(i: number, chars: number) {
  return {
    destination_addr: `1380013${String(8000 + i).padStart(4, '0')}`,
    data_coding: 0x08,
    message_payload: Buffer.from('短'.repeat(chars), 'utf16le').swap16(),
    sar_msg_ref_num: 1000 + i,
    sar_total_segments: 2,
    sar_segment_seqnum: 1,
  };
}

describe.each(backends)('the SMPP door under attack (%s)', (backend) => {
  const t = useServer(backend, { config: { smppServerPort: -1, smppServerHost: '127.0.0.1', maxFailedLogins: 5 } });

  it('item 1: a 20-octet outbind or alert_notification before a bind is answered generic_nack 0x03 and stops nothing', async () => {
    const port = t.server.app.services.smppServer!.port;
    for (const id of [0x0000000b, 0x00000102]) {
      const sock = net.connect(port, '127.0.0.1');
      await new Promise((r) => sock.once('connect', r));
      const got = new Promise<Buffer>((resolve) => sock.once('data', resolve));
      sock.write(raw20(id, 77));
      const answer = await got;
      expect(answer.readUInt32BE(4)).toBe(0x80000000);
      expect(answer.readUInt32BE(8)).toBe(0x03);
      expect(answer.readUInt32BE(12)).toBe(77);
      sock.destroy();
    }
    // the process, the listener and the console all still answer
    const { status } = await bindStatus(t.server, 'client1', 'Demo2468');
    expect(status).toBe(0);
    expect((await t.server.client().init()).jar.size).toBeGreaterThan(0);
  });

  it('item 1: after a bind too; a fault in one session closes that session only', async () => {
    const { s, status } = await bindStatus(t.server, 'client1', 'Demo2468');
    expect(status).toBe(0);
    const other = await bindStatus(t.server, 'client1', 'Demo2468');
    const answers: PDU[] = [];
    s.on('pdu', (p: PDU) => answers.push(p));
    s.socket.write(raw20(0x0000000b, 91));
    s.socket.write(raw20(0x00000102, 92));
    const e = await call(s, 'enquire_link');
    expect(e.command_status).toBe(0);
    expect(
      answers.filter((p) => p.command === 'generic_nack').map((p) => [p.sequence_number, p.command_status]),
    ).toEqual([
      [91, 3],
      [92, 3],
    ]);
    // a PDU the library cannot read closes its own connection; the other session goes on
    const bad = Buffer.alloc(16);
    bad.writeUInt32BE(5, 0);
    s.socket.write(bad);
    await closed(s);
    expect((await call(other.s, 'enquire_link')).command_status).toBe(0);
  });

  it('item 2: an uncertified account (newagent) with its own interface password cannot bind, store parts or send', async () => {
    const agent = await as(t.server, 'newagent');
    const reset = await agent.post('/api/client/account/resetInterfacePassword', {});
    expect(reset.body.code).toBe(0);
    const { s, status } = await bindStatus(t.server, 'newagent', reset.body.data.password);
    expect(status).toBe(0x0d);
    s.socket.destroy();
    expect(await partsOf(t.server, 'newagent')).toEqual({ n: 0, bytes: 0 });
  });

  it('item 2: certification withdrawn after the bind: parts are refused before they are stored', async () => {
    const { s, status } = await bindStatus(t.server, 'client1', 'Demo2468');
    expect(status).toBe(0);
    await setAccount(t.server, 'client1', { oauth_status: OauthStatus.Pending });
    try {
      const r = await call(s, 'submit_sm', firstPart(1, 60));
      expect(r.command_status).toBe(0x401);
      expect((await partsOf(t.server, 'client1')).n).toBe(0);
    } finally {
      await setAccount(t.server, 'client1', { oauth_status: OauthStatus.Certified });
    }
  });

  it('item 2: an oversized part (a 14 KB UCS-2 message_payload) is refused before it is stored', async () => {
    const { s } = await bindStatus(t.server, 'client1', 'Demo2468');
    const before = await partsOf(t.server, 'client1');
    const r = await call(s, 'submit_sm', firstPart(2, 7000));
    expect(r.command_status).toBe(0x01);
    expect(await partsOf(t.server, 'client1')).toEqual(before);
  });

  it('item 2: a part costs an accessSpeed token like a message', async () => {
    await setAccount(t.server, 'client1', { access_speed: 3 });
    try {
      await new Promise((r) => setTimeout(r, 1100));
      const { s } = await bindStatus(t.server, 'client1', 'Demo2468');
      const before = (await partsOf(t.server, 'client1')).n;
      const statuses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          call(s, 'submit_sm', firstPart(100 + i, 60)).then((r) => r.command_status),
        ),
      );
      const stored = (await partsOf(t.server, 'client1')).n - before;
      expect(statuses.filter((x) => x === 0).length).toBe(stored);
      expect(stored).toBeLessThanOrEqual(4);
      expect(statuses.filter((x) => x === 0x58).length).toBeGreaterThanOrEqual(6);
    } finally {
      await setAccount(t.server, 'client1', { access_speed: 0 });
    }
  });

  it("item 2: the bytes of an account's unfinished parts have a ceiling; beyond it 0x14 and nothing stored", async () => {
    const srv = t.server.app.services.smppServer!;
    const keep = srv.opts.partsMaxBytes;
    await db(t.server)
      .deleteFrom('smpp_parts')
      .where('account_id', '=', await accountId(t.server, 'client1'))
      .execute();
    srv.opts.partsMaxBytes = 4000;
    try {
      const { s } = await bindStatus(t.server, 'client1', 'Demo2468');
      const statuses: number[] = [];
      // 200 characters of 短: 600 octets of text each
      for (let i = 0; i < 12; i++) statuses.push((await call(s, 'submit_sm', firstPart(200 + i, 200))).command_status);
      expect(statuses.slice(0, 6)).toEqual([0, 0, 0, 0, 0, 0]);
      expect(statuses.slice(6)).toEqual([0x14, 0x14, 0x14, 0x14, 0x14, 0x14]);
      expect((await partsOf(t.server, 'client1')).bytes).toBeLessThanOrEqual(4000);
      // a whole message still goes: the ceiling is on parts waiting, not on sending
      const whole = await call(s, 'submit_sm', {
        destination_addr: '13800138000',
        short_message: '【好易购】整条短信',
      });
      expect(whole.command_status).toBe(0);
    } finally {
      srv.opts.partsMaxBytes = keep;
    }
  });

  it('item 3: a test account cannot bind, even with an interface password of its own', async () => {
    await setAccount(t.server, 'client0', {
      test_expires_at: new Date(Date.now() + 86_400_000),
      interface_password_hash: await hashInterfacePassword('Test1234'),
    });
    try {
      expect((await bindStatus(t.server, 'client0', 'Test1234')).status).toBe(0x0d);
    } finally {
      await setAccount(t.server, 'client0', { test_expires_at: null });
    }
  });

  it('item 6: an unknown system_id and a wrong password answer alike; the 5th failure locks the name for the address', async () => {
    await setAccount(t.server, 'client0', { interface_password_hash: await hashInterfacePassword('Right123') });
    expect((await bindStatus(t.server, 'nobody', 'x1234567')).status).toBe(0x0e);
    expect((await bindStatus(t.server, 'client0', 'x1234567')).status).toBe(0x0e);
    for (let i = 0; i < 3; i++) expect((await bindStatus(t.server, 'client0', `wrong${i}`)).status).toBe(0x0e);
    // the 5th failure: locked for 127.0.0.1; the right password no longer binds from here
    expect((await bindStatus(t.server, 'client0', 'wrong9')).status).toBe(0x0e);
    expect((await bindStatus(t.server, 'client0', 'Right123')).status).toBe(0x0d);
    // an unknown name is locked the same way (no oracle in the lock either)
    for (let i = 0; i < 5; i++) await bindStatus(t.server, 'nobody2', `w${i}`);
    expect((await bindStatus(t.server, 'nobody2', 'x')).status).toBe(0x0d);
    // the console login of client0 is not locked by the interface's failures
    const c = await t.server.client().init();
    expect((await c.login('client0')).body.code).toBe(0);
    // the lock is per address: the HTTP API's and every door's share the key (server/lib/login-lockout.ts)
    const rows = await db(t.server)
      .selectFrom('login_failures')
      .select(['ip', 'failures'])
      .where('ip', '=', '127.0.0.1')
      .execute();
    expect(rows.length).toBeGreaterThanOrEqual(2);
  });

  it('item 8: one address parser for every door: ::ffff:127.0.0.1 is 127.0.0.1 in a whitelist', () => {
    expect(ipAllowed('127.0.0.1', '::ffff:127.0.0.1')).toBe(true);
    expect(ipAllowed('127.0.0.0/8', '::ffff:127.0.0.1')).toBe(true);
    expect(ipAllowed('::ffff:127.0.0.1', '127.0.0.1')).toBe(true);
    expect(ipAllowed('10.0.0.1', '::ffff:127.0.0.1')).toBe(false);
    expect(ipAllowed('127.0.0.1/33', '127.0.0.1')).toBe(false);
    expect(ipAllowed('::1', '::1')).toBe(true);
    expect(ipAllowed('not-an-address', '127.0.0.1')).toBe(false);
  });
});
