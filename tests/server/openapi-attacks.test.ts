/**
 * The customers' HTTP API (/openapi/v1) under the attacks of issue 35, on both databases:
 *   - item 4: bodies are not read before the signature headers pass, hashed as they arrive, parsed
 *     only once the signature holds; an address's unverified bytes have a budget;
 *   - item 6: an unknown account answers as a wrong signature; a (clientid, address) pair is locked
 *     after a few failures, with the same answers whether the account exists or not;
 *   - item 3: a test account is refused by the API;
 *   - item 8: unknown paths answer the API's NOT_FOUND; a refused send takes no accessSpeed
 *     tokens for its numbers; a nonce is used once, even by 30 requests at once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  deriveApiSecret,
  signRequest,
  DEMO_INTERFACE_PASSWORD,
  OPENAPI_HEADERS as H,
} from '../../server/modules/openapi';
import { interfaceNameHash } from '../../server/lib/login-lockout';
import { backends, type TestServer, useServer } from './harness';
import { db, numbers, remaining } from './send-helpers';

const SECRET = deriveApiSecret('client1', DEMO_INTERFACE_PASSWORD);
const WRONG = deriveApiSecret('client1', 'not-the-password');
const PHONES = ['13800138000', '13800138001', '18600186000', '18900189000'];
const TEXT = '【好易购】您的订单已发货，请注意查收。';

interface Signed {
  method?: string;
  url?: string;
  clientid?: string;
  secret?: string;
  ts?: string;
  nonce?: string;
  ip?: string;
  /** the bytes sent (a string, a Buffer or a stream); signed as is unless `signedBody` */
  body?: string | Buffer | Readable;
  signedBody?: string | Buffer;
  headers?: Record<string, string>;
}

/** A request signed as docs/api-openapi.md says (or signed wrong, as told). */
function request(server: TestServer, o: Signed = {}) {
  const method = o.method ?? 'GET';
  const url = o.url ?? '/openapi/v1/signs';
  const ts = o.ts ?? String(Math.floor(server.clock.t / 1000));
  const nonce = o.nonce ?? randomUUID();
  const q = url.indexOf('?');
  const signed = o.signedBody ?? (o.body instanceof Readable ? '' : (o.body ?? ''));
  const signature = signRequest(o.secret ?? SECRET, {
    method,
    path: q < 0 ? url : url.slice(0, q),
    query: q < 0 ? '' : url.slice(q + 1),
    timestamp: ts,
    nonce,
    body: signed,
  });
  return {
    method: method as 'GET',
    url,
    payload: o.body,
    remoteAddress: o.ip ?? '127.0.0.1',
    headers: {
      ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
      [H.clientid]: o.clientid ?? 'client1',
      [H.timestamp]: ts,
      [H.nonce]: nonce,
      [H.signature]: signature,
      ...o.headers,
    },
  };
}

async function call(server: TestServer, o: Signed = {}) {
  const r = await server.app.inject(request(server, o));
  return {
    status: r.statusCode,
    headers: r.headers,
    body: r.json() as { code: number; error?: string; msg: string; data?: any },
  };
}

/** A body of `size` bytes that counts how much of it the server pulled. */
function countedStream(size: number) {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const s = { pulled: 0, stream: undefined as unknown as Readable };
  s.stream = new Readable({
    read() {
      if (s.pulled >= size) return this.push(null);
      s.pulled += chunk.length;
      this.push(chunk);
    },
  });
  return s;
}

const sendBody = (mobiles: string[], padding = 0) =>
  `{"content":"${TEXT}","mobiles":${JSON.stringify(mobiles)}}${' '.repeat(padding)}`;

describe.each(backends)('customer HTTP API under attack (%s)', (backend) => {
  const t = useServer(backend, { config: { openapiUnverifiedBytes: 8 * 1024 * 1024 } });

  describe('item 4: what an unsigned body may cost', () => {
    it('a wrong signature answers SIGNATURE_INVALID whatever the body is (not parsed before the signature)', async () => {
      const { server } = t;
      for (const body of ['{"a":', 'not json at all', '[1,2,3]', '\u0000\u0001']) {
        const r = await call(server, {
          method: 'POST',
          url: '/openapi/v1/sms/send',
          body,
          secret: WRONG,
          ip: '10.4.0.1',
        });
        expect([r.status, r.body.error], body).toEqual([401, 'SIGNATURE_INVALID']);
        server.clock.advance(1000);
      }
      // the right signature over the same invalid JSON: now it is parsed, and refused as such
      const bad = await call(server, { method: 'POST', url: '/openapi/v1/sms/send', body: '{"a":', ip: '10.4.0.1' });
      expect([bad.status, bad.body.error, bad.body.msg]).toEqual([400, 'BAD_REQUEST', '请求体不是合法的 JSON']);
    });

    it('the headers are checked before a byte of the body is read', async () => {
      const { server } = t;
      const cases: [Signed, string][] = [
        [{ ts: String(Math.floor(server.clock.t / 1000) - 3600) }, 'TIMESTAMP_EXPIRED'],
        [{ headers: { [H.signature]: 'zz' } }, 'AUTH_MISSING'],
        [{ headers: { [H.nonce]: 'short' } }, 'AUTH_MISSING'],
      ];
      for (const [o, error] of cases) {
        const s = countedStream(8 * 1024 * 1024);
        const r = await call(server, {
          ...o,
          method: 'POST',
          url: '/openapi/v1/sms/send',
          body: s.stream,
          ip: '10.4.0.2',
        });
        expect(r.body.error).toBe(error);
        // at most what the transport buffers ahead, never the body
        expect(s.pulled).toBeLessThanOrEqual(256 * 1024);
      }
    });

    it("an address's unverified bytes have a budget: large bodies with a wrong signature are refused early once it is spent", async () => {
      const { server } = t;
      const ip = '10.4.0.3';
      const big = Buffer.from(sendBody(PHONES, 3 * 1024 * 1024));
      // 10 at once, 3 MB each, budget 8 MB: at most two are read, the others are refused
      const rs = await Promise.all(
        Array.from({ length: 10 }, () =>
          call(server, { method: 'POST', url: '/openapi/v1/sms/send', body: big, secret: WRONG, ip }),
        ),
      );
      const errors = rs.map((r) => r.body.error);
      expect(errors.filter((e) => e === 'SIGNATURE_INVALID').length).toBeLessThanOrEqual(2);
      expect(errors.filter((e) => e === 'ADDRESS_THROTTLED').length).toBeGreaterThanOrEqual(8);
      expect(rs.every((r) => r.status < 500)).toBe(true);
      const refused = rs.find((r) => r.body.error === 'ADDRESS_THROTTLED')!;
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // spent: refused before the body is read, even a small signed one, until the window ends
      const s = countedStream(1024 * 1024);
      const early = await call(server, { method: 'POST', url: '/openapi/v1/sms/send', body: s.stream, ip });
      expect(early.body.error).toBe('ADDRESS_THROTTLED');
      expect(s.pulled).toBeLessThanOrEqual(256 * 1024);
      // another address is not concerned
      expect((await call(server, { ip: '10.4.0.4' })).status).toBe(200);
      server.clock.advance(10 * 60_000);
      expect((await call(server, { ip })).status).toBe(200);
    });

    it('bodies whose signature holds give their bytes back (large signed sends are not limited by the budget)', async () => {
      const { server } = t;
      const ip = '10.4.0.5';
      for (let i = 0; i < 4; i++) {
        server.clock.advance(1000);
        const r = await call(server, {
          method: 'POST',
          url: '/openapi/v1/sms/send',
          body: sendBody([PHONES[i]], 3 * 1024 * 1024),
          ip,
        });
        expect([r.status, r.body.code], `send ${i}`).toEqual([200, 0]);
      }
    });
  });

  describe('item 6: guessing tells nothing and is locked', () => {
    it('an unknown account answers exactly as a known one with a wrong signature, lock included', async () => {
      const { server } = t;
      const real: unknown[] = [];
      const unknown: unknown[] = [];
      // the signing hint (data.canonical, issue 41 item 10) carries each request's own nonce: compared without it
      const NONCE = /\n[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\n/;
      const answer = (r: {
        status: number;
        body: { data?: { canonical?: string } };
        headers: Record<string, unknown>;
      }) => {
        const canonical = r.body.data?.canonical;
        if (canonical !== undefined) expect(canonical).toMatch(NONCE);
        const body =
          canonical === undefined
            ? r.body
            : { ...r.body, data: { ...r.body.data, canonical: canonical.replace(NONCE, '\n<nonce>\n') } };
        return [r.status, body, r.headers['retry-after']];
      };
      for (let i = 0; i < 7; i++) {
        real.push(answer(await call(server, { secret: WRONG, ip: '10.6.0.1' })));
        unknown.push(
          answer(
            await call(server, {
              clientid: 'nobody-here',
              secret: deriveApiSecret('nobody-here', 'x'),
              ip: '10.6.0.1',
            }),
          ),
        );
      }
      expect(unknown).toEqual(real);
      expect(real[0]).toEqual([
        401,
        {
          code: 40102,
          error: 'SIGNATURE_INVALID',
          msg: '签名错误',
          data: { canonical: expect.stringContaining('/openapi/v1/signs') },
        },
        undefined,
      ]);
      // the 5th failure locks the pair (MAX_FAILED_LOGINS), the same for both names
      expect((real[4] as [number, { error: string }])[1].error).toBe('AUTH_LOCKED');
      expect((real[6] as [number, { error: string }])[0]).toBe(423);
      // an account without an API secret (no interface password yet) answers the same too
      const agent = await call(server, {
        clientid: 'agent1',
        secret: deriveApiSecret('agent1', DEMO_INTERFACE_PASSWORD),
        ip: '10.6.0.9',
      });
      expect(answer(agent)).toEqual(real[0]);
    });

    it('a locked (clientid, address) pair is refused even with the right signature; other addresses are not; the lock ends', async () => {
      const { server } = t;
      const ip = '10.6.0.2';
      for (let i = 0; i < 4; i++)
        expect((await call(server, { secret: WRONG, ip })).body.error).toBe('SIGNATURE_INVALID');
      const locking = await call(server, { secret: WRONG, ip });
      expect([locking.status, locking.body.error]).toEqual([423, 'AUTH_LOCKED']);
      expect(Number(locking.headers['retry-after'])).toBeGreaterThan(0);
      // counted under the doors' shared key (the SMPP bind counts under the same)
      const row = await db(server)
        .selectFrom('login_failures')
        .select(['failures', 'locked_until'])
        .where('name_hash', '=', interfaceNameHash('client1'))
        .where('ip', '=', ip)
        .executeTakeFirst();
      expect(row?.failures).toBe(5);
      expect(row?.locked_until).toBeTruthy();
      const right = await call(server, { ip });
      expect([right.status, right.body.error]).toEqual([423, 'AUTH_LOCKED']);
      // the lock is refused before the body is read
      const s = countedStream(4 * 1024 * 1024);
      expect((await call(server, { method: 'POST', url: '/openapi/v1/sms/send', body: s.stream, ip })).body.error).toBe(
        'AUTH_LOCKED',
      );
      expect(s.pulled).toBeLessThanOrEqual(256 * 1024);
      expect((await call(server, { ip: '10.6.0.3' })).status).toBe(200);
      // the lock lasts lockMs (15 min); then the right signature passes and clears the count
      server.clock.advance(15 * 60_000 + 1000);
      expect((await call(server, { ip })).status).toBe(200);
      expect(
        await db(server)
          .selectFrom('login_failures')
          .select('failures')
          .where('name_hash', '=', interfaceNameHash('client1'))
          .where('ip', '=', ip)
          .executeTakeFirst(),
      ).toBeUndefined();
    });
  });

  it('item 3: a test account cannot use the API (nothing sent, nothing charged)', async () => {
    const { server } = t;
    const before = await remaining(server, 'client1');
    await db(server)
      .updateTable('accounts')
      .set({ test_expires_at: new Date(server.clock.t + 7 * 86_400_000) })
      .where('clientid', '=', 'client1')
      .execute();
    try {
      const send = await call(server, { method: 'POST', url: '/openapi/v1/sms/send', body: sendBody(PHONES) });
      expect([send.status, send.body.error, send.body.msg]).toEqual([
        403,
        'ACCOUNT_DISABLED',
        '测试账户不能使用接口，请先转为正式账户',
      ]);
      const signs = await call(server);
      expect([signs.status, signs.body.error]).toEqual([403, 'ACCOUNT_DISABLED']);
    } finally {
      await db(server)
        .updateTable('accounts')
        .set({ test_expires_at: null })
        .where('clientid', '=', 'client1')
        .execute();
    }
    expect(await remaining(server, 'client1')).toBe(before);
  });

  describe('item 8', () => {
    it("unknown paths under /openapi/v1 answer the API's NOT_FOUND for every method", async () => {
      const { server } = t;
      for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const) {
        for (const url of ['/openapi/v1/nothing', '/openapi/v1/sms/nothing?x=1', '/openapi/v1', '/openapi/v1/']) {
          const r = await server.app.inject({ method, url, payload: method === 'GET' ? undefined : { a: 1 } });
          expect([r.statusCode, r.json()], `${method} ${url}`).toEqual([
            404,
            { code: 40401, error: 'NOT_FOUND', msg: '接口不存在' },
          ]);
        }
      }
      // signed, too
      expect((await call(server, { method: 'POST', url: '/openapi/v1/sms/nothing', body: '{}' })).body.error).toBe(
        'NOT_FOUND',
      );
      // the console's own 404 is unchanged
      expect((await server.app.inject({ method: 'GET', url: '/api/nothing-here' })).json()).toEqual({
        code: 404,
        msg: '接口不存在',
      });
    });

    it('a refused send takes no accessSpeed tokens for its numbers; an accepted one takes one per number', async () => {
      const { server } = t;
      await db(server).updateTable('accounts').set({ access_speed: 100 }).where('clientid', '=', 'client1').execute();
      await db(server).deleteFrom('api_throttle').execute();
      server.clock.advance(5000);
      // refused after the throttle's check: a sign not approved, 5,000 numbers
      const refused = await call(server, {
        method: 'POST',
        url: '/openapi/v1/sms/send',
        body: `{"content":"【苏州好易购】您好","mobiles":${JSON.stringify(numbers(5000))}}`,
      });
      expect([refused.status, refused.body.error]).toEqual([422, 'SIGN_NOT_APPROVED']);
      const next = await call(server);
      expect(next.status).toBe(200);
      // not certified: refused by the acceptance, the same
      await db(server).updateTable('accounts').set({ oauth_status: 2 }).where('clientid', '=', 'client1').execute();
      try {
        const unc = await call(server, { method: 'POST', url: '/openapi/v1/sms/send', body: sendBody(numbers(3000)) });
        expect(unc.body.error).toBe('SEND_REFUSED');
      } finally {
        await db(server).updateTable('accounts').set({ oauth_status: 3 }).where('clientid', '=', 'client1').execute();
      }
      expect((await call(server)).status).toBe(200);
      // accepted: 300 numbers at 100/s put the bucket about 3 s in debt
      const ok = await call(server, { method: 'POST', url: '/openapi/v1/sms/send', body: sendBody(numbers(300)) });
      expect([ok.status, ok.body.data?.submitTotal]).toEqual([200, 300]);
      const wait = await call(server);
      expect(wait.status).toBe(429);
      expect(Number(wait.headers['retry-after'])).toBeGreaterThanOrEqual(2);
      server.clock.advance(5000);
    });

    it('a nonce is used once: 30 requests at once pass once; a signed request refused for its account cannot be replayed later', async () => {
      const { server } = t;
      const parallel = async (o: Signed) => {
        const req = request(server, o);
        const rs = await Promise.all(Array.from({ length: 30 }, () => server.app.inject(req)));
        return rs.map((r) => r.json().error ?? 'ok');
      };
      const count = (xs: string[], x: string) => xs.filter((e) => e === x).length;
      // a fresh nonce, 30 at once
      const fresh = await parallel({ nonce: randomUUID() });
      expect([count(fresh, 'ok'), count(fresh, 'NONCE_REUSED')]).toEqual([1, 29]);
      // a nonce whose stored row has expired is taken again by exactly one
      const nonce = randomUUID();
      expect((await call(server, { nonce })).status).toBe(200);
      server.clock.advance(11 * 60_000);
      const again = await parallel({ nonce });
      expect([count(again, 'ok'), count(again, 'NONCE_REUSED')]).toEqual([1, 29]);
      // refused while the account is frozen; replayed 30 times at once after it is active again
      await db(server).updateTable('accounts').set({ status: 5 }).where('clientid', '=', 'client1').execute();
      const captured = request(server, { nonce: randomUUID() });
      let frozen;
      try {
        frozen = (await server.app.inject(captured)).json();
      } finally {
        await db(server).updateTable('accounts').set({ status: 1 }).where('clientid', '=', 'client1').execute();
      }
      expect(frozen.error).toBe('ACCOUNT_DISABLED');
      const replays = await Promise.all(Array.from({ length: 30 }, () => server.app.inject(captured)));
      expect(replays.map((r) => r.json().error)).toEqual(Array(30).fill('NONCE_REUSED'));
    });
  });
});

describe.each(backends)('customer HTTP API next to the console (%s)', (backend) => {
  const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smsp-static-'));
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>console</title>');
  const t = useServer(backend, { staticDir });

  it("item 8: with the console served, unknown /openapi/v1 paths still answer the API's NOT_FOUND (not the console's page)", async () => {
    const { server } = t;
    for (const method of ['GET', 'HEAD', 'POST', 'DELETE'] as const) {
      const r = await server.app.inject({
        method,
        url: '/openapi/v1/nothing',
        payload: method === 'POST' || method === 'DELETE' ? { a: 1 } : undefined,
      });
      expect(r.statusCode, method).toBe(404);
      if (method !== 'HEAD') expect(r.json()).toEqual({ code: 40401, error: 'NOT_FOUND', msg: '接口不存在' });
    }
    // the console's client-side routes still get the page (with the host's brand as its title)
    const page = await server.app.inject({ method: 'GET', url: '/some/console/page' });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toMatch(/^<!doctype html><title>[^<]+<\/title>/);
  });
});
