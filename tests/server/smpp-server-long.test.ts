/**
 * The SMPP listener for customers: the parts of a long message (UDH or SAR) arriving on different
 * connections and listener processes of one account are reassembled through the database
 * (smpp_parts, migration 0040; docs/api-smpp.md "Long messages"), and parts left incomplete are
 * accepted as they are after the reassembly timeout. Also a batch that stays a deadlock victim
 * (0x58, nothing written) and accessSpeed 0 (no limit, as the HTTP API). The `smpp` package and Debian's Net::SMPP (Perl) are the customers.
 */
import path from 'node:path';
import { execFile, spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { backends, useServer, type TestServer } from './harness';
import { accountId, db } from './send-helpers';
import { bindOn, call, connect, connectPort, DEMO_INTERFACE_PASSWORD, openSessions, until } from './smpp-customer';
import { SMPP_SERVER_DEFAULTS, SmppServer } from '../../server/modules/smpp-server';
import { interfacePlatform } from '../../server/modules/smpp-server/index';

afterEach(() => {
  for (const s of openSessions.splice(0)) s.socket.destroy();
});

const SMPP = { smppServerPort: -1, smppServerHost: '127.0.0.1' };
const perlSmpp = spawnSync('perl', ['-MNet::SMPP', '-e', '1']).status === 0;

async function setAccount(server: TestServer, clientid: string, values: Record<string, unknown>) {
  await db(server).updateTable('accounts').set(values).where('clientid', '=', clientid).execute();
  server.app.services.smppServer?.forgetAccounts();
}

const messageOf = (server: TestServer, id: string) =>
  db(server)
    .selectFrom('sms_messages as m')
    .innerJoin('sms_tasks as k', 'k.id', 'm.task_id')
    .select(['m.content', 'm.phone', 'k.pieces_per_msg', 'k.content as task_content'])
    .where('m.id', '=', Number(id))
    .executeTakeFirstOrThrow();
const partsLeft = async (server: TestServer) =>
  (await db(server).selectFrom('smpp_parts').select('seq').execute()).length;

const A = '【好易购】' + '尊敬的客户，您的订单已由顺丰快递发出，运单号为SF1234567890，预计明天送达，';
const B = '请保持电话畅通。如有疑问请致电客服热线，回复TD退订，感谢您的支持与信任，祝您生活愉快！';

describe.each(backends)('SMPP long messages across connections and processes (%s)', (backend) => {
  const t = useServer(backend, { config: SMPP });
  /** another listener process over the same database, accepting through the same platform */
  async function second(server: TestServer, opts: Partial<typeof SMPP_SERVER_DEFAULTS> = {}) {
    const other = new SmppServer(server.app.ctx, interfacePlatform(server.app.ctx, server.app.services.send), {
      ...SMPP_SERVER_DEFAULTS,
      ...opts,
      host: '127.0.0.1',
      port: -1,
    });
    await other.listen();
    return other;
  }

  it('UDH parts on two connections of one listener make one message; the completing part carries its id', async () => {
    const a = await connect(t.server);
    const b = await connect(t.server);
    expect([await bindOn(a, 'bind_transmitter'), await bindOn(b, 'bind_transmitter')]).toEqual([0, 0]);
    const udh = (seq: number) => Buffer.from([0x05, 0x00, 0x03, 0x51, 2, seq]);
    const p1 = await call(a, 'submit_sm', {
      destination_addr: '13800138101',
      short_message: { udh: udh(1), message: A },
    });
    expect(p1.command_status).toBe(0);
    // a part id: a plain number (a gateway reads it as decimal or hex), its receipt comes with the message's
    expect(p1.message_id).toMatch(/^\d+$/);
    expect(await partsLeft(t.server)).toBe(2);
    const p2 = await call(b, 'submit_sm', {
      destination_addr: '13800138101',
      short_message: { udh: udh(2), message: B },
    });
    expect(p2.command_status).toBe(0);
    const m = await messageOf(t.server, p2.message_id!);
    expect(m.task_content).toBe(A + B);
    expect(m.pieces_per_msg).toBe(2);
    expect(await partsLeft(t.server)).toBe(0);
  });

  it('SAR parts on two listener processes make one message', async () => {
    const other = await second(t.server);
    try {
      const a = await connect(t.server);
      const b = await connectPort(other.port);
      expect([await bindOn(a, 'bind_transmitter'), await bindOn(b, 'bind_transmitter')]).toEqual([0, 0]);
      const sar = (s: typeof a, seq: number, text: string) =>
        call(s, 'submit_sm', {
          destination_addr: '13800138102',
          short_message: text,
          sar_msg_ref_num: 4242,
          sar_total_segments: 2,
          sar_segment_seqnum: seq,
        });
      expect((await sar(b, 2, B)).command_status).toBe(0);
      const last = await sar(a, 1, A);
      expect(last.command_status).toBe(0);
      expect((await messageOf(t.server, last.message_id!)).task_content).toBe(A + B);
      expect(await partsLeft(t.server)).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('parts still incomplete after the reassembly timeout are accepted as they are (once, by one process)', async () => {
    const id = await accountId(t.server, 'client1');
    const server = t.server.app.services.smppServer!;
    const before = await db(t.server).selectFrom('sms_tasks').select('id').where('account_id', '=', id).execute();
    const a = await connect(t.server);
    expect(await bindOn(a, 'bind_transmitter')).toBe(0);
    const p1 = await call(a, 'submit_sm', {
      destination_addr: '13800138103',
      short_message: A,
      sar_msg_ref_num: 9,
      sar_total_segments: 3,
      sar_segment_seqnum: 1,
    });
    const p3 = await call(a, 'submit_sm', {
      destination_addr: '13800138103',
      short_message: B,
      sar_msg_ref_num: 9,
      sar_total_segments: 3,
      sar_segment_seqnum: 3,
    });
    expect([p1.command_status, p3.command_status]).toEqual([0, 0]);
    const other = await second(t.server, { reassemblyMs: 0 });
    try {
      // the listener with the default 60 s leaves them; one with 0 takes them (its timer and two looks at once: once)
      expect(await server.expireParts()).toBe(0);
      await Promise.all([other.expireParts(), other.expireParts()]);
      await until(() => other.stats.partsExpired > 0);
      expect(other.stats.partsExpired).toBe(1);
      expect(await partsLeft(t.server)).toBe(0);
      const after = await db(t.server)
        .selectFrom('sms_tasks')
        .select(['id', 'content'])
        .where('account_id', '=', id)
        .where('id', 'not in', before.length ? before.map((r) => r.id) : [0])
        .execute();
      expect(after.map((r) => r.content)).toEqual([A + B]);
    } finally {
      await other.close();
    }
  });

  it.skipIf(!perlSmpp)(
    'Net::SMPP (Perl) sends SAR parts over two connections: one message [skipped without perl Net::SMPP]',
    async () => {
      const script = path.resolve(import.meta.dirname, '../fixtures/smpp-long-client.pl');
      const out = await new Promise<string>((resolve, reject) =>
        execFile(
          'perl',
          [
            script,
            '127.0.0.1',
            String(t.server.app.services.smppServer!.port),
            'client1',
            DEMO_INTERFACE_PASSWORD,
            '13800138104',
            '77',
            A,
            B,
          ],
          { timeout: 20_000 },
          (err, stdout) => (err && !stdout ? reject(err) : resolve(stdout)),
        ),
      );
      const m = /bind 0\nbind 0\npart 2 0 \d+\npart 1 0 (\d+)\n/.exec(out);
      expect(m, out).not.toBeNull();
      expect((await messageOf(t.server, m![1])).task_content).toBe(A + B);
    },
  );

  it('a batch still a deadlock victim after its retries is answered 0x58 (sent again by the gateway), nothing written; the listener counts it by reason', async () => {
    await setAccount(t.server, 'client1', { access_speed: 0 });
    const id = await accountId(t.server, 'client1');
    const server = t.server.app.services.smppServer!;
    const before = await db(t.server).selectFrom('sms_messages').select('id').where('account_id', '=', id).execute();
    const s = await connect(t.server);
    expect(await bindOn(s, 'bind_transmitter')).toBe(0);
    const ctxDb = t.server.app.ctx.db;
    const spy = vi.spyOn(ctxDb, 'transaction').mockImplementation(
      () =>
        ({
          execute: async () => {
            throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
          },
        }) as unknown as ReturnType<typeof ctxDb.transaction>,
    );
    try {
      const answers = await Promise.all(
        [0, 1, 2].map((i) =>
          call(s, 'submit_sm', { destination_addr: `1380013${8300 + i}`, short_message: '【好易购】死锁' }).then(
            (r) => r.command_status,
          ),
        ),
      );
      expect(answers).toEqual([0x58, 0x58, 0x58]);
      expect(server.stats.refused['0x58 refusal']?.last).toBe('系统繁忙，请稍后重试');
    } finally {
      spy.mockRestore();
      await setAccount(t.server, 'client1', { access_speed: 100 });
    }
    expect(
      (await db(t.server).selectFrom('sms_messages').select('id').where('account_id', '=', id).execute()).length,
    ).toBe(before.length);
    // the gateway's retry goes through once the conflict is gone
    expect(
      (await call(s, 'submit_sm', { destination_addr: '13800138300', short_message: '【好易购】死锁' })).command_status,
    ).toBe(0);
  });

  it('accessSpeed 0: no limit on SMPP (as on the HTTP API)', async () => {
    await setAccount(t.server, 'client1', { access_speed: 0 });
    try {
      const s = await connect(t.server);
      expect(await bindOn(s, 'bind_transmitter')).toBe(0);
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          call(s, 'submit_sm', { destination_addr: `1380013${8200 + i}`, short_message: '【好易购】不限速' }).then(
            (r) => r.command_status,
          ),
        ),
      );
      expect(answers.filter((x) => x !== 0)).toEqual([]);
    } finally {
      await setAccount(t.server, 'client1', { access_speed: 100 });
    }
  });
});
