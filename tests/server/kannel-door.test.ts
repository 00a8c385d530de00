/**
 * The SMPP door with Kannel (Debian's `kannel`, 1.4.5: an implementation this project did not
 * write) bound as a customer's gateway, as issue 36 found it: Kannel sends a long message as UDH
 * parts, asks for a delivery report on the first part only (registered_delivery 1 there, 0 on the
 * others) and waits for the report of the first part's message id, read as a decimal number. Each
 * message here must reach Kannel's dlr-url as delivered: short and long alike.
 *
 * bearerbox binds a transceiver to the door; smsbox takes the send over its sendsms HTTP
 * interface; the platform dispatches through a fake carrier that delivers; the receipts go back
 * to Kannel as deliver_sm; Kannel calls the dlr-url of the test's own HTTP listener.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { backends, useServer, type TestServer } from './harness';
import { db } from './send-helpers';
import { Dispatcher } from '../../server/modules/dispatch/dispatcher';
import { pushHooks } from '../../server/modules/dispatch/pipeline';
import { FakeLink } from '../fixtures/fake-smsc';
import { NeedReport } from '../../common/generated/schemas';

const BEARERBOX = '/usr/sbin/bearerbox';
const SMSBOX = '/usr/sbin/smsbox';
const kannel = fs.existsSync(BEARERBOX) && fs.existsSync(SMSBOX) && spawnSync(BEARERBOX, ['--version']).status !== null;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });

const until = async (f: () => boolean | Promise<boolean>, ms = 20_000, what = 'condition') => {
  const end = Date.now() + ms;
  while (!(await f())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

const LONG =
  '【好易购】尊敬的客户，您的订单已由顺丰快递发出，运单号为SF1234567890，预计明天送达，请保持电话畅通。如有疑问请致电客服热线，回复TD退订。';

describe.each(backends)('the SMPP door with Kannel as the customer (%s)', (backend) => {
  const t = useServer(backend, { config: { smppServerPort: -1, smppServerHost: '127.0.0.1' } });
  const procs: ChildProcess[] = [];
  const dlrs: { id: string; status: string; to: string }[] = [];
  let hook: http.Server | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kannel-door-'));

  afterAll(async () => {
    for (const p of procs) p.kill('SIGKILL');
    await new Promise<void>((r) => (hook ? hook.close(() => r()) : r()));
  });

  async function startKannel(server: TestServer) {
    const [admin, box, sendsms, dlrPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
    hook = http.createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      dlrs.push({
        id: u.searchParams.get('id') ?? '',
        status: u.searchParams.get('status') ?? '',
        to: u.searchParams.get('to') ?? '',
      });
      res.end('ok');
    });
    await new Promise<void>((r) => hook!.listen(dlrPort, '127.0.0.1', () => r()));
    const conf = path.join(dir, 'kannel.conf');
    fs.writeFileSync(
      conf,
      [
        'group = core',
        `admin-port = ${admin}`,
        'admin-password = secret',
        'admin-interface = 127.0.0.1',
        `smsbox-port = ${box}`,
        'smsbox-interface = 127.0.0.1',
        'box-allow-ip = 127.0.0.1',
        'log-level = 1',
        `log-file = "${path.join(dir, 'bearerbox.log')}"`,
        'dlr-storage = internal',
        '',
        'group = smsc',
        'smsc = smpp',
        'smsc-id = door',
        'host = 127.0.0.1',
        `port = ${server.app.services.smppServer!.port}`,
        'transceiver-mode = true',
        'smsc-username = client1',
        'smsc-password = Demo2468',
        'system-type = ""',
        'msg-id-type = 0x00',
        '',
        'group = smsbox',
        'bearerbox-host = 127.0.0.1',
        `bearerbox-port = ${box}`,
        `sendsms-port = ${sendsms}`,
        'sendsms-interface = 127.0.0.1',
        'log-level = 1',
        `log-file = "${path.join(dir, 'smsbox.log')}"`,
        '',
        'group = sendsms-user',
        'username = u',
        'password = p',
        'concatenation = true',
        'max-messages = 10',
        '',
      ].join('\n'),
    );
    for (const bin of [BEARERBOX, SMSBOX]) {
      const p = spawn(bin, [conf], { stdio: 'ignore' });
      procs.push(p);
      if (bin === BEARERBOX)
        await until(
          () => server.app.services.smppServer!.boundCount(1) >= 0 && fs.existsSync(path.join(dir, 'bearerbox.log')),
          10_000,
          'bearerbox',
        );
    }
    // Kannel's transceiver bound to the door
    const accountId = (
      await db(server).selectFrom('accounts').select('id').where('clientid', '=', 'client1').executeTakeFirstOrThrow()
    ).id;
    await until(() => server.app.services.smppServer!.boundCount(accountId) > 0, 20_000, 'Kannel to bind');
    // smsbox's sendsms port answering
    await until(
      () =>
        new Promise<boolean>((resolve) => {
          const s = net.connect(sendsms, '127.0.0.1');
          s.once('connect', () => (s.destroy(), resolve(true)));
          s.once('error', () => resolve(false));
        }),
      20_000,
      'smsbox',
    );
    return { sendsms, dlrPort };
  }

  it.skipIf(!kannel)(
    'short and long messages sent through Kannel each get their delivery report [skipped without Debian kannel]',
    async () => {
      await db(t.server)
        .updateTable('accounts')
        .set({ needreport: NeedReport.PassThrough })
        .where('clientid', '=', 'client1')
        .execute();
      t.server.app.services.smppServer!.forgetAccounts();
      const { sendsms, dlrPort } = await startKannel(t.server);
      const send = async (to: string, text: string) => {
        const dlrUrl = `http://127.0.0.1:${dlrPort}/dlr?status=%d&id=%F&to=%p`;
        const q = new URLSearchParams({
          username: 'u',
          password: 'p',
          from: '10690001',
          to,
          text,
          charset: 'UTF-8',
          coding: '2',
          'dlr-mask': '3',
          'dlr-url': dlrUrl,
        });
        const r = await fetch(`http://127.0.0.1:${sendsms}/cgi-bin/sendsms?${q}`);
        expect(r.status, await r.text()).toBeLessThan(300);
      };
      await send('13800138031', '【好易购】您的验证码是123456，5分钟内有效。');
      await send('13800138032', LONG);
      // accepted by the door: one message each (the long one reassembled)
      await until(
        async () =>
          (
            await db(t.server)
              .selectFrom('sms_messages')
              .select('id')
              .where('phone', 'in', ['13800138031', '13800138032'])
              .execute()
          ).length === 2,
        20_000,
        'the door to accept both',
      );
      const link = new FakeLink();
      const d = new Dispatcher(t.server.app.ctx, link, { maintenanceMs: 0, markSubmittedMs: 0, hooks: pushHooks() });
      while ((await d.dispatchOnce()) > 0);
      await link.flushReceipts();
      await d.applyOnce();
      await d.stop();
      // Kannel reports both as delivered (DLR type 1) to its dlr-url
      await until(
        () => new Set(dlrs.filter((x) => x.status === '1').map((x) => x.to.replace(/^\+?86/, ''))).size === 2,
        30_000,
        "Kannel's delivery reports",
      );
      expect(
        dlrs
          .filter((x) => x.status === '1')
          .map((x) => x.to.replace(/^\+?86/, ''))
          .sort(),
      ).toEqual(['13800138031', '13800138032']);
      // the ids Kannel read were numbers, not 0
      expect(dlrs.every((x) => x.id !== '0' && x.id !== '')).toBe(true);
    },
  );
});
