/**
 * The customers' HTTP API (/openapi/v1, server/modules/openapi; docs/api-openapi.md) on both
 * databases: signature, replay (nonce, timestamp), whitelist, frozen account, throttle; send
 * through the console's acceptance (rows, charge), idempotency, query, report and uplink pulls.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Dispatcher } from '../../server/modules/dispatch/dispatcher';
import { storeMo } from '../../server/modules/dispatch/mo';
import {
  canonicalString,
  deriveApiSecret,
  signRequest,
  DEMO_INTERFACE_PASSWORD,
  OPENAPI_HEADERS as H,
} from '../../server/modules/openapi';
import { sha256hex } from '../../server/modules/openapi/signing';
import { FakeLink } from '../fixtures/fake-smsc';
import { backends, type TestServer, useServer } from './harness';
import { db, messages, numbers, remaining, task } from './send-helpers';

const SECRET = deriveApiSecret('client1', DEMO_INTERFACE_PASSWORD);
const PHONES = ['13800138000', '13800138001', '18600186000', '18900189000'];
const TEXT = '【好易购】您的订单已发货，请注意查收。';

interface CallOpts {
  clientid?: string;
  secret?: string;
  ts?: string;
  nonce?: string;
  ip?: string;
  headers?: Record<string, string>;
  /** sign this body but send another */
  sentBody?: string;
}

async function call(server: TestServer, method: 'GET' | 'POST', url: string, body?: unknown, o: CallOpts = {}) {
  const raw = body === undefined ? '' : JSON.stringify(body);
  const ts = o.ts ?? String(Math.floor(server.clock.t / 1000));
  const nonce = o.nonce ?? randomUUID();
  const q = url.indexOf('?');
  const signature = signRequest(o.secret ?? SECRET, {
    method,
    path: q < 0 ? url : url.slice(0, q),
    query: q < 0 ? '' : url.slice(q + 1),
    timestamp: ts,
    nonce,
    body: raw,
  });
  const res = await server.app.inject({
    method,
    url,
    payload: o.sentBody ?? (raw || undefined),
    remoteAddress: o.ip ?? '127.0.0.1',
    headers: {
      ...(raw ? { 'content-type': 'application/json' } : {}),
      [H.clientid]: o.clientid ?? 'client1',
      [H.timestamp]: ts,
      [H.nonce]: nonce,
      [H.signature]: signature,
      ...o.headers,
    },
  });
  return { status: res.statusCode, headers: res.headers, body: res.json() as any };
}

describe.each(backends)('customer HTTP API (%s)', (backend) => {
  const t = useServer(backend);

  it('serves its OpenAPI document without a signature', async () => {
    const r = await t.server.app.inject({ method: 'GET', url: '/openapi/v1/openapi.json' });
    expect(r.statusCode).toBe(200);
    const doc = r.json();
    expect(doc.openapi).toBe('3.0.3');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/openapi/v1/sms/send',
        '/openapi/v1/sms/task',
        '/openapi/v1/reports/pull',
        '/openapi/v1/mo/pull',
        '/openapi/v1/account/balance',
        '/openapi/v1/signs',
        '/openapi/v1/templates',
      ]),
    );
    expect(JSON.stringify(doc)).not.toContain('errorMessage');
  });

  it('accepts a correct signature and refuses a bad one, an unknown account, a stale timestamp and a reused nonce', async () => {
    const { server } = t;
    const ok = await call(server, 'GET', '/openapi/v1/signs');
    expect(ok.status).toBe(200);
    expect(ok.body.code).toBe(0);
    expect(ok.body.data.some((s: { sign: string; approved: boolean }) => s.sign === '好易购' && s.approved)).toBe(true);

    const missing = await server.app.inject({ method: 'GET', url: '/openapi/v1/signs' });
    expect([missing.statusCode, missing.json().error]).toEqual([401, 'AUTH_MISSING']);
    expect(missing.json().msg).toMatch(/鉴权/);

    const bad = await call(server, 'GET', '/openapi/v1/signs', undefined, {
      secret: deriveApiSecret('client1', 'wrong-pw'),
    });
    expect([bad.status, bad.body.error, bad.body.msg]).toEqual([401, 'SIGNATURE_INVALID', '签名错误']);

    // a body other than the one signed
    const tampered = await call(
      server,
      'POST',
      '/openapi/v1/mo/pull',
      { limit: 1 },
      { sentBody: JSON.stringify({ limit: 2 }) },
    );
    expect([tampered.status, tampered.body.error]).toEqual([401, 'SIGNATURE_INVALID']);
    // a query other than the one signed
    const ts = String(Math.floor(server.clock.t / 1000));
    const nonce = randomUUID();
    const sig = signRequest(SECRET, {
      method: 'GET',
      path: '/openapi/v1/sms/task',
      query: 'taskId=A',
      timestamp: ts,
      nonce,
      body: '',
    });
    const q = await server.app.inject({
      method: 'GET',
      url: '/openapi/v1/sms/task?taskId=B',
      headers: { [H.clientid]: 'client1', [H.timestamp]: ts, [H.nonce]: nonce, [H.signature]: sig },
    });
    expect(q.json().error).toBe('SIGNATURE_INVALID');

    const unknown = await call(server, 'GET', '/openapi/v1/signs', undefined, { clientid: 'nobody1' });
    expect([unknown.status, unknown.body.error]).toEqual([401, 'SIGNATURE_INVALID']);
    // an account without an API secret (no interface password yet)
    const agent = await call(server, 'GET', '/openapi/v1/signs', undefined, {
      clientid: 'agent1',
      secret: deriveApiSecret('agent1', DEMO_INTERFACE_PASSWORD),
    });
    expect(agent.body.error).toBe('SIGNATURE_INVALID');

    const stale = await call(server, 'GET', '/openapi/v1/signs', undefined, {
      ts: String(Math.floor(server.clock.t / 1000) - 301),
    });
    expect([stale.status, stale.body.error]).toEqual([401, 'TIMESTAMP_EXPIRED']);
    const future = await call(server, 'GET', '/openapi/v1/signs', undefined, { ts: String(server.clock.t + 301_000) });
    expect(future.body.error).toBe('TIMESTAMP_EXPIRED');
    // milliseconds inside the window pass
    expect(
      (await call(server, 'GET', '/openapi/v1/signs', undefined, { ts: String(server.clock.t - 290_000) })).status,
    ).toBe(200);

    const n = randomUUID();
    expect((await call(server, 'GET', '/openapi/v1/signs', undefined, { nonce: n })).status).toBe(200);
    const replay = await call(server, 'GET', '/openapi/v1/signs', undefined, { nonce: n });
    expect([replay.status, replay.body.error]).toEqual([401, 'NONCE_REUSED']);
    // stored in the database (every process sees it)
    const row = await db(server).selectFrom('api_nonces').select('nonce').where('nonce', '=', n).executeTakeFirst();
    expect(row?.nonce).toBe(n);
  });

  it('refuses an address outside the whitelist and a frozen account', async () => {
    const { server } = t;
    await db(server)
      .updateTable('accounts')
      .set({ ip: '10.1.2.3, 192.168.0.0/16' })
      .where('clientid', '=', 'client1')
      .execute();
    try {
      expect((await call(server, 'GET', '/openapi/v1/signs', undefined, { ip: '10.1.2.3' })).status).toBe(200);
      expect((await call(server, 'GET', '/openapi/v1/signs', undefined, { ip: '192.168.7.9' })).status).toBe(200);
      const out = await call(server, 'GET', '/openapi/v1/signs', undefined, { ip: '10.1.2.4' });
      expect([out.status, out.body.error, out.body.msg]).toEqual([403, 'IP_FORBIDDEN', '请求IP不在账户白名单内']);
    } finally {
      await db(server).updateTable('accounts').set({ ip: '' }).where('clientid', '=', 'client1').execute();
    }
    await db(server).updateTable('accounts').set({ status: 5 }).where('clientid', '=', 'client1').execute();
    try {
      const frozen = await call(server, 'GET', '/openapi/v1/signs');
      expect([frozen.status, frozen.body.error]).toEqual([403, 'ACCOUNT_DISABLED']);
    } finally {
      await db(server).updateTable('accounts').set({ status: 1 }).where('clientid', '=', 'client1').execute();
    }
  });

  it('throttles at accessSpeed with 429 and Retry-After', async () => {
    const { server } = t;
    await db(server).updateTable('accounts').set({ access_speed: 2 }).where('clientid', '=', 'client1').execute();
    await db(server).deleteFrom('api_throttle').execute();
    try {
      expect((await call(server, 'GET', '/openapi/v1/signs')).status).toBe(200);
      expect((await call(server, 'GET', '/openapi/v1/signs')).status).toBe(200);
      const r = await call(server, 'GET', '/openapi/v1/signs');
      expect([r.status, r.body.error]).toEqual([429, 'THROTTLED']);
      expect(r.headers['retry-after']).toBe('1');
      server.clock.advance(1000);
      expect((await call(server, 'GET', '/openapi/v1/signs')).status).toBe(200);
      // a send of 4 numbers puts the bucket in debt: the next calls wait until it is paid back
      server.clock.advance(1000);
      const s = await call(server, 'POST', '/openapi/v1/sms/send', { content: TEXT, mobiles: PHONES });
      expect(s.status).toBe(200);
      const wait = await call(server, 'GET', '/openapi/v1/signs');
      expect(wait.status).toBe(429);
      expect(Number(wait.headers['retry-after'])).toBeGreaterThanOrEqual(2);
    } finally {
      await db(server).updateTable('accounts').set({ access_speed: 100 }).where('clientid', '=', 'client1').execute();
      server.clock.advance(10_000);
    }
  });

  it('accessSpeed 0: no limit (as on SMPP, docs/api-openapi.md "Throughput")', async () => {
    const { server } = t;
    await db(server).updateTable('accounts').set({ access_speed: 0 }).where('clientid', '=', 'client1').execute();
    await db(server).deleteFrom('api_throttle').execute();
    try {
      const statuses = [];
      for (let i = 0; i < 8; i++) statuses.push((await call(server, 'GET', '/openapi/v1/signs')).status);
      expect(statuses).toEqual(Array(8).fill(200));
    } finally {
      await db(server).updateTable('accounts').set({ access_speed: 100 }).where('clientid', '=', 'client1').execute();
    }
  });

  it('sends through the console acceptance: task, per-number rows and ids, pools charged; query answers the states', async () => {
    const { server } = t;
    const before = await remaining(server, 'client1');
    const r = await call(server, 'POST', '/openapi/v1/sms/send', {
      content: TEXT,
      mobiles: [...PHONES, PHONES[0], '12345'],
      smstype: 0,
      extension: '12',
    });
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(0);
    const a = r.body.data;
    expect(a).toMatchObject({
      submitTotal: 4,
      smsNum: 1,
      chargeNum: 4,
      repeatNum: 1,
      invalidNumbers: ['12345'],
      replayed: false,
    });
    expect(a.messages.map((m: { mobile: string }) => m.mobile)).toEqual(PHONES);
    const rows = await messages(server, a.taskId);
    expect(rows.map((m) => m.phone).sort()).toEqual([...PHONES].sort());
    const ids = new Map(rows.map((m) => [m.phone, Number(m.id)]));
    for (const m of a.messages) expect(m.msgid).toBe(ids.get(m.mobile));
    const tk = await task(server, a.taskId);
    expect(tk).toMatchObject({
      submit_total: 4,
      template_id: null,
      charge_state: 1,
      charge_num_total: 4,
      content: TEXT,
      sign: '好易购',
      extension: '12',
    });
    expect(await remaining(server, 'client1')).toBe(before - 4);

    const q = await call(server, 'GET', `/openapi/v1/sms/task?taskId=${a.taskId}&rows=2`);
    expect(q.status).toBe(200);
    expect(q.body.data).toMatchObject({ taskId: a.taskId, submitTotal: 4, page: 1, rows: 2 });
    expect(q.body.data.list).toHaveLength(2);
    expect(q.body.data.list[0]).toMatchObject({ msgid: a.messages[0].msgid, state: 0 });
    const q2 = await call(server, 'GET', `/openapi/v1/sms/task?page=2&rows=2&taskId=${a.taskId}`);
    expect(q2.body.data.list.map((m: { mobile: string }) => m.mobile)).toEqual(PHONES.slice(2));
    const other = await call(server, 'GET', '/openapi/v1/sms/task?taskId=T0');
    expect([other.status, other.body.error]).toEqual([404, 'TASK_NOT_FOUND']);
  });

  it('sends a text per number, each message its own text and pieces', async () => {
    const { server } = t;
    const long = `【好易购】${'尊敬的会员您好，'.repeat(10)}`;
    const r = await call(server, 'POST', '/openapi/v1/sms/send', {
      items: [
        { mobile: PHONES[0], content: '【好易购】您好张三' },
        { mobile: PHONES[1], content: long },
      ],
    });
    expect(r.status).toBe(200);
    const rows = await db(server)
      .selectFrom('sms_messages as m')
      .innerJoin('sms_tasks as t', 't.id', 'm.task_id')
      .select(['m.phone', 'm.content', 'm.pieces'])
      .where('t.uid', '=', r.body.data.taskId)
      .execute();
    const byPhone = new Map(rows.map((m) => [m.phone, m]));
    expect(byPhone.get(PHONES[0])).toMatchObject({ content: '【好易购】您好张三', pieces: 1 });
    expect(byPhone.get(PHONES[1])!.pieces).toBe(2);
    expect(r.body.data.chargeNum).toBe(3);
  });

  it('refuses a text without a sign, with a sign not approved, too many numbers, bad input; nothing is charged', async () => {
    const { server } = t;
    const before = await remaining(server, 'client1');
    const noSign = await call(server, 'POST', '/openapi/v1/sms/send', { content: '您的订单已发货', mobiles: PHONES });
    expect([noSign.status, noSign.body.error]).toEqual([400, 'SIGN_MISSING']);
    const pending = await call(server, 'POST', '/openapi/v1/sms/send', {
      content: '【苏州好易购】您的验证码为1234',
      mobiles: PHONES,
    });
    expect([pending.status, pending.body.error, pending.body.msg]).toEqual([
      422,
      'SIGN_NOT_APPROVED',
      '签名未报备或未审核通过',
    ]);
    const mixed = await call(server, 'POST', '/openapi/v1/sms/send', {
      items: [
        { mobile: PHONES[0], content: TEXT },
        { mobile: PHONES[1], content: '【别人的】你好' },
      ],
    });
    expect(mixed.body.error).toBe('SIGN_NOT_APPROVED');
    const many = await call(server, 'POST', '/openapi/v1/sms/send', { content: TEXT, mobiles: numbers(60_001) });
    expect(many.status).toBe(400);
    const both = await call(server, 'POST', '/openapi/v1/sms/send', {
      content: TEXT,
      mobiles: PHONES,
      items: [{ mobile: PHONES[0], content: TEXT }],
    });
    expect([both.status, both.body.error]).toEqual([400, 'BAD_REQUEST']);
    const extra = await call(server, 'POST', '/openapi/v1/sms/send', {
      content: TEXT,
      mobiles: PHONES,
      clientId: 'client0',
    });
    expect([extra.status, extra.body.error]).toEqual([400, 'BAD_REQUEST']);
    const past = await call(server, 'POST', '/openapi/v1/sms/send', {
      content: TEXT,
      mobiles: PHONES,
      sendTime: '2020-01-01 10:00:00',
    });
    expect([past.status, past.body.error]).toEqual([400, 'BAD_REQUEST']);
    // not certified: the send gate of every path
    await db(server).updateTable('accounts').set({ oauth_status: 2 }).where('clientid', '=', 'client1').execute();
    try {
      const unc = await call(server, 'POST', '/openapi/v1/sms/send', { content: TEXT, mobiles: PHONES });
      expect([unc.status, unc.body.error]).toEqual([422, 'SEND_REFUSED']);
    } finally {
      await db(server).updateTable('accounts').set({ oauth_status: 3 }).where('clientid', '=', 'client1').execute();
    }
    expect(await remaining(server, 'client1')).toBe(before);
  });

  it('an idempotency key sends once: the retry answers the first result, another body with the key is refused', async () => {
    const { server } = t;
    const key = `order-${randomUUID()}`;
    const body = { content: TEXT, mobiles: PHONES.slice(0, 2) };
    const before = await remaining(server, 'client1');
    const [a, b] = await Promise.all([
      call(server, 'POST', '/openapi/v1/sms/send', body, { headers: { 'idempotency-key': key } }),
      call(server, 'POST', '/openapi/v1/sms/send', body, { headers: { 'idempotency-key': key } }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.data.taskId).toBe(b.body.data.taskId);
    const c = await call(server, 'POST', '/openapi/v1/sms/send', body, { headers: { 'idempotency-key': key } });
    expect(c.body.data).toMatchObject({ taskId: a.body.data.taskId, replayed: true });
    expect(c.body.data.messages).toEqual(a.body.data.messages);
    const tasks = await db(server)
      .selectFrom('api_idempotency')
      .select('task_uid')
      .where('idem_key', '=', key)
      .execute();
    expect(tasks).toHaveLength(1);
    expect(await remaining(server, 'client1')).toBe(before - 2);
    const conflict = await call(
      server,
      'POST',
      '/openapi/v1/sms/send',
      { ...body, mobiles: PHONES },
      { headers: { 'idempotency-key': key } },
    );
    expect([conflict.status, conflict.body.error]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
    const badKey = await call(server, 'POST', '/openapi/v1/sms/send', body, {
      headers: { 'idempotency-key': 'bad key!' },
    });
    expect(badKey.body.error).toBe('IDEMPOTENCY_KEY_INVALID');
  });

  it('report pull (needreport 3): each final state handed out once, acknowledged, back after the lease when not', async () => {
    const { server } = t;
    await db(server).updateTable('accounts').set({ needreport: 3 }).where('clientid', '=', 'client1').execute();
    await db(server).deleteFrom('api_pull').execute();
    try {
      const s = await call(server, 'POST', '/openapi/v1/sms/send', { content: TEXT, mobiles: PHONES });
      const link = new FakeLink((req) => (req.to === PHONES[3] ? 'reject' : 'accept'));
      const d = new Dispatcher(server.app.ctx, link, { maintenanceMs: 0, batchSize: 50 });
      // other tasks of earlier tests are dispatched too: their accounts (client1 too) get reports only from now on
      while ((await d.dispatchOnce()) > 0);
      await link.flushReceipts();
      await d.applyOnce();
      await d.stop();
      const ids = new Set(s.body.data.messages.map((m: { msgid: number }) => m.msgid));

      const p1 = await call(server, 'POST', '/openapi/v1/reports/pull', { limit: 1000 });
      expect(p1.status).toBe(200);
      const mine = p1.body.data.list.filter((x: { id: number }) => ids.has(x.id));
      expect(mine).toHaveLength(4);
      expect(mine.find((x: { phone: string }) => x.phone === PHONES[3]).state).not.toBe(3);
      expect(
        mine.filter((x: { state: number; taskId: string }) => x.state === 3 && x.taskId === s.body.data.taskId),
      ).toHaveLength(3);
      expect(p1.body.data.ack).toBeTruthy();
      // handed out: a second pull (without ack) gets nothing
      const p2 = await call(server, 'POST', '/openapi/v1/reports/pull', {});
      expect(p2.body.data).toMatchObject({ list: [], ack: null, more: false });
      // not acknowledged: back after the lease
      server.clock.advance(61_000);
      const p3 = await call(server, 'POST', '/openapi/v1/reports/pull', { limit: 2 });
      expect(p3.body.data.list).toHaveLength(2);
      expect(p3.body.data.more).toBe(true);
      // acknowledged: gone; the next ones follow
      const p4 = await call(server, 'POST', '/openapi/v1/reports/pull', { ack: p3.body.data.ack, limit: 1000 });
      expect(p4.body.data.list.length).toBe(p1.body.data.list.length - 2);
      const p5 = await call(server, 'POST', '/openapi/v1/reports/pull', { ack: p4.body.data.ack });
      expect(p5.body.data.list).toEqual([]);
      server.clock.advance(61_000);
      expect((await call(server, 'POST', '/openapi/v1/reports/pull', {})).body.data.list).toEqual([]);
    } finally {
      await db(server).updateTable('accounts').set({ needreport: 1 }).where('clientid', '=', 'client1').execute();
    }
  });

  it('uplink pull (needmo 3): each reply handed out once; an account not in pull mode queues nothing', async () => {
    const { server } = t;
    const client1 = await db(server)
      .selectFrom('accounts')
      .select(['id'])
      .where('clientid', '=', 'client1')
      .executeTakeFirstOrThrow();
    await db(server).deleteFrom('api_pull').execute();
    await db(server)
      .insertInto('sms_mo')
      .values({ account_id: client1.id, phone: '13800138000', content: '不推送', dest: '106900' })
      .execute();
    expect(await db(server).selectFrom('api_pull').select('id').execute()).toEqual([]);
    await db(server).updateTable('accounts').set({ needmo: 3 }).where('clientid', '=', 'client1').execute();
    try {
      await db(server)
        .insertInto('sms_mo')
        .values([
          { account_id: client1.id, phone: '13800138000', content: 'TD', dest: '10690012' },
          { account_id: client1.id, phone: '13800138001', content: '好的', dest: '10690012' },
        ])
        .execute();
      const p1 = await call(server, 'POST', '/openapi/v1/mo/pull', {});
      expect(p1.body.data.list.map((m: { content: string }) => m.content)).toEqual(['TD', '好的']);
      expect(p1.body.data.list[0]).toMatchObject({ clientid: 'client1', phone: '13800138000', dest: '10690012' });
      const p2 = await call(server, 'POST', '/openapi/v1/mo/pull', { ack: p1.body.data.ack });
      expect(p2.body.data.list).toEqual([]);
      server.clock.advance(61_000);
      expect((await call(server, 'POST', '/openapi/v1/mo/pull', {})).body.data.list).toEqual([]);
      void storeMo;
    } finally {
      await db(server).updateTable('accounts').set({ needmo: 0 }).where('clientid', '=', 'client1').execute();
    }
  });

  it('balance and pools, templates', async () => {
    const { server } = t;
    const b = await call(server, 'GET', '/openapi/v1/account/balance');
    expect(b.status).toBe(200);
    expect(b.body.data).toMatchObject({ clientid: 'client1', operationMode: 1 });
    expect(
      b.body.data.pools.reduce(
        (s: number, p: { remaining: number; unit: string }) => s + (p.unit === '条' ? p.remaining : 0),
        0,
      ),
    ).toBeGreaterThan(0);
    const tpl = await call(server, 'GET', '/openapi/v1/templates');
    expect(tpl.status).toBe(200);
    expect(Array.isArray(tpl.body.data)).toBe(true);
  });

  it('hostile input never answers a 5xx', async () => {
    const { server } = t;
    const bodies: unknown[] = [
      { content: 1 },
      { mobiles: 'x' },
      { items: [{}] },
      { items: 'a' },
      { content: TEXT, mobiles: [null] },
      { content: '【】', mobiles: PHONES },
      { content: '【好易购】', mobiles: PHONES },
      { content: `【好易购】${'长'.repeat(600)}`, mobiles: PHONES },
      { smstype: 99, content: TEXT, mobiles: PHONES },
      { ack: 'nope' },
      { limit: -1 },
      { limit: 'x' },
      { __proto__: { a: 1 } },
      { constructor: { prototype: 1 } },
    ];
    for (const url of ['/openapi/v1/sms/send', '/openapi/v1/reports/pull', '/openapi/v1/mo/pull']) {
      for (const b of bodies) {
        server.clock.advance(1000);
        const r = await call(server, 'POST', url, b);
        expect(r.status, `${url} ${JSON.stringify(b)}`).toBeLessThan(500);
        expect(typeof r.body.msg).toBe('string');
      }
      const notJson = await server.app.inject({
        method: 'POST',
        url,
        payload: '{"a":',
        headers: {
          'content-type': 'application/json',
          [H.clientid]: 'client1',
          [H.timestamp]: '1',
          [H.nonce]: randomUUID(),
          [H.signature]: 'a'.repeat(64),
        },
      });
      expect(notJson.statusCode).toBeLessThan(500);
    }
    for (const url of [
      '/openapi/v1/sms/task',
      '/openapi/v1/sms/task?taskId=%00',
      `/openapi/v1/sms/task?taskId=${'x'.repeat(100)}`,
      '/openapi/v1/sms/task?taskId=a&page=-1',
      '/openapi/v1/nothing',
    ]) {
      const r = await call(server, 'GET', url);
      expect(r.status, url).toBeLessThan(500);
    }
  });

  it('a task answers submitTime then doneTime, the done time never before the submit (issue 41 item 10)', async () => {
    const { server } = t;
    const s = await call(server, 'POST', '/openapi/v1/sms/send', { content: TEXT, mobiles: PHONES.slice(0, 2) });
    expect(s.status).toBe(200);
    const [first, second] = s.body.data.messages.map((m: { msgid: number }) => m.msgid);
    // a receipt's done date has minutes only (SMPP `done date:YYMMDDhhmm`): a message submitted at
    // 12:00:41 and delivered within the minute reads done at 12:00:00
    await db(server)
      .updateTable('sms_messages')
      .set({ state: 3, submitted_at: new Date('2026-03-02T04:00:41.250Z'), done_at: new Date('2026-03-02T04:00:00Z') })
      .where('id', '=', first)
      .execute();
    await db(server)
      .updateTable('sms_messages')
      .set({ state: 3, submitted_at: new Date('2026-03-02T04:00:41Z'), done_at: new Date('2026-03-02T04:02:00Z') })
      .where('id', '=', second)
      .execute();
    const q = await call(server, 'GET', `/openapi/v1/sms/task?taskId=${s.body.data.taskId}`);
    expect(q.status).toBe(200);
    const [a, b] = q.body.data.list;
    const keys = Object.keys(a);
    expect(keys.indexOf('submitTime')).toBeLessThan(keys.indexOf('doneTime'));
    expect(a).toMatchObject({ submitTime: '2026-03-02 12:00:41', doneTime: '2026-03-02 12:00:41' });
    expect(b).toMatchObject({ submitTime: '2026-03-02 12:00:41', doneTime: '2026-03-02 12:02:00' });
    // the text as written: the key order of the JSON itself
    const raw = JSON.stringify(q.body.data.list[0]);
    expect(raw.indexOf('"submitTime"')).toBeLessThan(raw.indexOf('"doneTime"'));
  });

  it('a wrong signature answers the canonical string the server signed, never the secret (issue 41 item 10)', async () => {
    const { server } = t;
    const ts = String(Math.floor(server.clock.t / 1000));
    const nonce = randomUUID();
    const body = JSON.stringify({ limit: 5 });
    // signed with the interface password itself instead of the API secret derived from it: the usual mistake
    const bad = await call(
      server,
      'POST',
      '/openapi/v1/mo/pull?b=2&a=x%20y',
      { limit: 5 },
      { ts, nonce, secret: DEMO_INTERFACE_PASSWORD },
    );
    expect([bad.status, bad.body.error, bad.body.msg]).toEqual([401, 'SIGNATURE_INVALID', '签名错误']);
    const expected = canonicalString({
      method: 'POST',
      path: '/openapi/v1/mo/pull',
      query: 'b=2&a=x%20y',
      timestamp: ts,
      nonce,
      body,
    });
    expect(bad.body.data).toEqual({ canonical: expected });
    expect(expected.split('\n')).toEqual(['POST', '/openapi/v1/mo/pull', 'a=x%20y&b=2', ts, nonce, sha256hex(body)]);
    const text = JSON.stringify(bad.body);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(
      signRequest(SECRET, {
        method: 'POST',
        path: '/openapi/v1/mo/pull',
        query: 'b=2&a=x%20y',
        timestamp: ts,
        nonce,
        body,
      }),
    );
    // an unknown account gets the same kind of answer (nothing tells whether it exists)
    const unknown = await call(server, 'GET', '/openapi/v1/signs', undefined, { clientid: 'nobody1' });
    expect(unknown.body.error).toBe('SIGNATURE_INVALID');
    expect(unknown.body.data.canonical.split('\n').slice(0, 3)).toEqual(['GET', '/openapi/v1/signs', '']);
  });

  it('a send whose numbers are all invalid says there is no valid number, with how many (issue 41 item 10)', async () => {
    const { server } = t;
    const before = await remaining(server, 'client1');
    const r = await call(server, 'POST', '/openapi/v1/sms/send', {
      content: TEXT,
      mobiles: ['12345', '1380013800', 'abc'],
    });
    expect([r.status, r.body.code, r.body.error, r.body.msg]).toEqual([
      400,
      40005,
      'NO_VALID_NUMBER',
      '没有有效号码（无效号码 3 个）',
    ]);
    expect(r.body.data).toEqual({ invalidNum: 3, invalidNumbers: ['12345', '1380013800', 'abc'] });
    const items = await call(server, 'POST', '/openapi/v1/sms/send', { items: [{ mobile: '999', content: TEXT }] });
    expect([items.status, items.body.error, items.body.msg]).toEqual([
      400,
      'NO_VALID_NUMBER',
      '没有有效号码（无效号码 1 个）',
    ]);
    // one valid number among them: sent, the others listed as invalid
    const some = await call(server, 'POST', '/openapi/v1/sms/send', { content: TEXT, mobiles: ['12345', PHONES[0]] });
    expect(some.body.data).toMatchObject({ submitTotal: 1, invalidNumbers: ['12345'] });
    expect(await remaining(server, 'client1')).toBe(before - 1);
  });

  it('a pull of an account not in pull mode is refused with its mode, not answered empty (issue 41 item 10)', async () => {
    const { server } = t;
    await db(server)
      .updateTable('accounts')
      .set({ needreport: 1, needmo: 0 })
      .where('clientid', '=', 'client1')
      .execute();
    const r = await call(server, 'POST', '/openapi/v1/reports/pull', {});
    expect([r.status, r.body.code, r.body.error]).toEqual([422, 42203, 'NOT_PULL_MODE']);
    expect(r.body.msg).toBe('账户的状态报告方式为「简单状态报告（推送）」，不是「用户拉取」，不能拉取状态报告');
    expect(r.body.data).toEqual({ needreport: 1, needreportStr: '简单状态报告（推送）' });
    const mo = await call(server, 'POST', '/openapi/v1/mo/pull', { limit: 10 });
    expect([mo.status, mo.body.error, mo.body.msg]).toEqual([
      422,
      'NOT_PULL_MODE',
      '账户的上行方式为「不需要」，不是「用户拉取」，不能拉取上行',
    ]);
    expect(mo.body.data).toEqual({ needmo: 0, needmoStr: '不需要' });
  });

  it('the OpenAPI document is Chinese: every call has a Chinese summary and description, every field a description', async () => {
    const doc = (await t.server.app.inject({ method: 'GET', url: '/openapi/v1/openapi.json' })).json();
    const han = /[\u4e00-\u9fff]/;
    expect(doc.info.description).toMatch(han);
    expect(doc.info.description).toContain('data.canonical');
    const fields: string[] = [];
    const walk = (node: any, at: string) => {
      if (!node || typeof node !== 'object') return;
      if (node.properties)
        for (const [k, v] of Object.entries<any>(node.properties)) {
          if (!v.$ref) fields.push(`${at}.${k}:${v.description ?? ''}`);
          walk(v, `${at}.${k}`);
        }
      if (node.items) walk(node.items, `${at}[]`);
    };
    for (const [path, ops] of Object.entries<any>(doc.paths))
      for (const [method, op] of Object.entries<any>(ops)) {
        expect(op.summary, `${method} ${path}`).toMatch(han);
        expect(op.description, `${method} ${path}`).toMatch(han);
        walk(op.requestBody?.content['application/json'].schema, `${method} ${path} body`);
        walk(op.responses[200].content['application/json'].schema, `${method} ${path} answer`);
      }
    expect(fields.length).toBeGreaterThan(50);
    expect(fields.filter((f) => !han.test(f.split(':')[1] ?? ''))).toEqual([]);
    // the codes are the console's: the task status and the message states of schemas/enums
    const task =
      doc.paths['/openapi/v1/sms/task'].get.responses[200].content['application/json'].schema.properties.data
        .properties;
    expect(task.status.description).toContain('0 处理中，1 等待发送，2 发送中，3 已完成，4 已取消');
    expect(Object.keys(doc.components.schemas.Error.properties)).toEqual(['code', 'error', 'msg', 'data']);
  });

  it('an independent client (curl + openssl) signs and sends', async (ctx) => {
    const { server } = t;
    let have = true;
    try {
      execFileSync('sh', ['-c', 'command -v curl && command -v openssl'], { stdio: 'ignore' });
    } catch {
      have = false;
    }
    if (!have) return ctx.skip();
    const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
    // the shell computes everything from the interface password (docs/api-openapi.md)
    const script = `
set -e
CLIENTID=client1; PASSWORD=Demo2468
SECRET=$(printf '%s' "$CLIENTID" | openssl dgst -sha256 -hmac "$PASSWORD" | sed 's/^.*= //')
BODY='{"content":"${TEXT}","mobiles":["13800138000"]}'
TS=${Math.floor(server.clock.t / 1000)}; NONCE=$(openssl rand -hex 16)
BODY_HASH=$(printf '%s' "$BODY" | openssl dgst -sha256 | sed 's/^.*= //')
SIG=$(printf 'POST\\n/openapi/v1/sms/send\\n\\n%s\\n%s\\n%s' "$TS" "$NONCE" "$BODY_HASH" | openssl dgst -sha256 -hmac "$SECRET" | sed 's/^.*= //')
curl -s -X POST "$BASE/openapi/v1/sms/send" -H 'content-type: application/json' -H "x-sms-clientid: $CLIENTID" -H "x-sms-timestamp: $TS" -H "x-sms-nonce: $NONCE" -H "x-sms-signature: $SIG" --data-binary "$BODY"
`;
    // asynchronously: the server answering curl runs in this process
    const out = (await promisify(execFile)('bash', ['-c', script], { env: { ...process.env, BASE: address } })).stdout;
    const r = JSON.parse(out);
    expect(r.code).toBe(0);
    expect(r.data.messages[0].mobile).toBe('13800138000');
  });
});
