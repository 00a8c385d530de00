/**
 * The one acceptance of interface sends (send/interface.ts) under concurrency, on both databases:
 * SMPP submits arriving together are accepted together (group commit) with a row, an id and a
 * charge each; HTTP API requests in parallel are all accepted; a message refused inside a batch
 * is refused alone. Before the one acceptance, concurrent accepts of one account deadlocked on
 * PostgreSQL (SYSERR / 500).
 */
import { randomUUID } from 'node:crypto';
import smpp, { type PDU, type Session } from 'smpp';
import { afterEach, describe, expect, it } from 'vitest';
import {
  deriveApiSecret,
  signRequest,
  DEMO_INTERFACE_PASSWORD,
  OPENAPI_HEADERS as H,
} from '../../server/modules/openapi';
import { backends, type TestServer, useServer } from './harness';
import { accountId, db, remaining } from './send-helpers';

const open: Session[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.socket.destroy();
});

async function transceiver(server: TestServer): Promise<Session> {
  const s = new smpp.Session({ host: '127.0.0.1', port: server.app.services.smppServer!.port });
  open.push(s);
  s.on('error', () => {});
  await new Promise<void>((resolve) => s.socket.once('connect', () => resolve()));
  const r = await call(s, 'bind_transceiver', { system_id: 'client1', password: DEMO_INTERFACE_PASSWORD });
  expect(r.command_status).toBe(0);
  return s;
}

function call(s: Session, command: string, fields: Record<string, unknown>): Promise<PDU> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command}: no answer`)), 20_000);
    s.send(new smpp.PDU(command, fields), (resp) => {
      clearTimeout(timer);
      resolve(resp);
    });
  });
}

async function openapiSend(server: TestServer, body: unknown) {
  const raw = JSON.stringify(body);
  const ts = String(Math.floor(server.clock.t / 1000));
  const nonce = randomUUID();
  const signature = signRequest(deriveApiSecret('client1', DEMO_INTERFACE_PASSWORD), {
    method: 'POST',
    path: '/openapi/v1/sms/send',
    query: '',
    timestamp: ts,
    nonce,
    body: raw,
  });
  const res = await server.app.inject({
    method: 'POST',
    url: '/openapi/v1/sms/send',
    payload: raw,
    remoteAddress: '127.0.0.1',
    headers: {
      'content-type': 'application/json',
      [H.clientid]: 'client1',
      [H.timestamp]: ts,
      [H.nonce]: nonce,
      [H.signature]: signature,
    },
  });
  return { status: res.statusCode, body: res.json() as { code: number; error?: string; data?: { taskId: string } } };
}

describe.each(backends)('one acceptance of interface sends (%s)', (backend) => {
  const t = useServer(backend, { config: { smppServerPort: -1, smppServerHost: '127.0.0.1' } });

  it('SMPP: 60 submits at once are all accepted, each its own row and id, charged once each; a refused one inside the batch alone', async () => {
    await db(t.server).updateTable('accounts').set({ access_speed: 1000 }).where('clientid', '=', 'client1').execute();
    const before = await remaining(t.server, 'client1');
    const s = await transceiver(t.server);
    const phones = Array.from({ length: 60 }, (_, i) => `1390013${String(i).padStart(4, '0')}`);
    const answers = await Promise.all([
      ...phones.map((p, i) =>
        call(s, 'submit_sm', {
          destination_addr: p,
          short_message: i % 2 ? `【好易购】订单${i}已发货` : `订单${i}已发货【好易购】`,
        }),
      ),
      call(s, 'submit_sm', { destination_addr: '13900130999', short_message: '没有签名' }),
      // the same number twice in one batch: two messages
      call(s, 'submit_sm', { destination_addr: phones[0], short_message: '【好易购】第二条' }),
    ]);
    const refused = answers.splice(60, 1)[0];
    expect(refused.command_status).toBe(0x402);
    expect(answers.map((a) => a.command_status)).toEqual(answers.map(() => 0));
    const ids = answers.map((a) => Number(a.message_id));
    expect(new Set(ids).size).toBe(61);
    const rows = await db(t.server)
      .selectFrom('sms_messages')
      .select(['id', 'phone', 'content'])
      .where('id', 'in', ids)
      .execute();
    expect(rows).toHaveLength(61);
    const byId = new Map(rows.map((r) => [r.id, r]));
    phones.forEach((p, i) => expect(byId.get(ids[i])?.phone).toBe(p));
    expect(await remaining(t.server, 'client1')).toBe(before - 61);
    await db(t.server)
      .updateTable('accounts')
      .set({ access_speed: 100 })
      .where('id', '=', await accountId(t.server, 'client1'))
      .execute();
  });

  it('HTTP API: 8 requests in parallel are all accepted and charged; a trailing 【sign】 is accepted as on SMPP', async () => {
    const before = await remaining(t.server, 'client1');
    const rs = await Promise.all(
      Array.from({ length: 8 }, (_, r) =>
        openapiSend(t.server, {
          content: r % 2 ? '【好易购】您的订单已发货' : '您的订单已发货【好易购】',
          mobiles: [`1390014${r}000`, `1390014${r}001`],
        }),
      ),
    );
    expect(rs.map((r) => r.status)).toEqual(rs.map(() => 200));
    expect(await remaining(t.server, 'client1')).toBe(before - 16);
  });
});
