/**
 * Issue 9 finding 5: hostile values answer a 400-class `{code, msg}`, never a 5xx. One test per
 * value class on a few representative routes; the guards live in server/http (guards.ts,
 * paging.ts, errors.ts) so they hold for every route. The fuzz test (fuzz.test.ts) covers all.
 */
import Fastify from 'fastify';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { frameworkErrors, installErrorHandler } from '../../server/http/errors';
import { INPUT_MESSAGES, checkInput, int4Of, jsonDepth } from '../../server/http/guards';
import { MAX_PAGE_SIZE, PAGING_MESSAGES, pagingOf } from '../../server/http/paging';
import { backends, type Client, useServer } from './harness';

const DEEP = '['.repeat(5000) + ']'.repeat(5000);

describe('guards (unit)', () => {
  it('measures JSON depth without parsing, ignoring brackets in strings', () => {
    expect(jsonDepth('{"a":[1,{"b":"[[[[["}]}')).toBe(3);
    expect(jsonDepth(DEEP, 32)).toBe(33);
    expect(jsonDepth('"\\"[[["')).toBe(0);
  });

  it('refuses control characters, lone surrogates, deep values, repeated and prototype keys', () => {
    const code = (f: () => void) => {
      try {
        f();
        return 0;
      } catch (e: any) {
        return `${e.code} ${e.message}`;
      }
    };
    expect(code(() => checkInput({ sign: 'a\u0000b' }))).toBe(`400 ${INPUT_MESSAGES.invalidChar}`);
    expect(code(() => checkInput({ sign: 'a\u007fb' }))).toBe(`400 ${INPUT_MESSAGES.invalidChar}`);
    expect(code(() => checkInput({ 'a\u0000': 'x' }))).toBe(`400 ${INPUT_MESSAGES.invalidChar}`);
    expect(code(() => checkInput({ sign: 'a\ud800b' }))).toBe(`400 ${INPUT_MESSAGES.invalidChar}`);
    expect(code(() => checkInput({ track: DEEP }))).toBe(`400 ${INPUT_MESSAGES.tooDeep}`);
    let deep: unknown = 1;
    for (let i = 0; i < 5000; i++) deep = [deep];
    expect(code(() => checkInput({ a: deep }))).toBe(`400 ${INPUT_MESSAGES.tooDeep}`);
    expect(code(() => checkInput({ clientId: ['1', '2'] }, { flat: true }))).toBe(`400 ${INPUT_MESSAGES.repeated}`);
    expect(code(() => checkInput({ ids: ['1', '2'] }, { flat: true, arraysAllowed: new Set(['ids']) }))).toBe(0);
    expect(code(() => checkInput({ track: [[1, 2]] }))).toBe(0);
    expect(code(() => checkInput(JSON.parse('{"a":{"__proto__":1}}')))).toBe(`400 ${INPUT_MESSAGES.badKey}`);
    // what people type passes: tabs, new lines, Chinese, emoji
    expect(code(() => checkInput({ remarks: '第一行\r\n\t第二行 😀' }))).toBe(0);
  });

  it('bounds paging: absent → defaults, size capped at 200, anything else that is not a positive integer → 400', () => {
    expect(pagingOf({})).toEqual({ page: 1, size: 15, offset: 0 });
    expect(pagingOf({ currentPage: '2', pageRowCount: '10' })).toEqual({ page: 2, size: 10, offset: 10 });
    expect(pagingOf({ page: 3, rows: 5 })).toEqual({ page: 3, size: 5, offset: 10 });
    expect(pagingOf({ pageRowCount: 1e18 }).size).toBe(MAX_PAGE_SIZE);
    expect(pagingOf({ pageRowCount: '99999999999999999999' }).size).toBe(MAX_PAGE_SIZE);
    for (const page of [
      1e18,
      '1e18',
      0.001,
      '0.001',
      0,
      '0',
      -1,
      '-1',
      'abc',
      ['1', '2'],
      { a: 1 },
      true,
      1.5,
      Number.NaN,
    ]) {
      expect(() => pagingOf({ currentPage: page }), String(page)).toThrow(PAGING_MESSAGES.page);
    }
    expect(() => pagingOf({ pageRowCount: 0 })).toThrow(PAGING_MESSAGES.size);
    expect(() => pagingOf({ rows: '0.5' })).toThrow(PAGING_MESSAGES.size);
  });

  it('int4Of keeps ids and enumerations inside int4', () => {
    expect(int4Of('42')).toBe(42);
    expect(int4Of(2147483647)).toBe(2147483647);
    for (const v of [2147483648, '2147483648', '99999999999', -1, 1.5, '1e3', 'x', null, undefined, true])
      expect(int4Of(v), String(v)).toBeUndefined();
  });
});

describe('error handler (unit)', () => {
  it('maps data exceptions of the database to 400 and logs them; other faults stay 500', async () => {
    const app = Fastify({ frameworkErrors });
    installErrorHandler(app);
    const dbError = (code: string) => Object.assign(new Error('invalid input syntax'), { code, severity: 'ERROR' });
    app.get('/22P02', async () => {
      throw dbError('22P02');
    });
    app.get('/22003', async () => {
      throw dbError('22003');
    });
    app.get('/23505', async () => {
      throw dbError('23505');
    });
    app.get('/boom', async () => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    for (const c of ['22P02', '22003']) {
      const r = await app.inject({ url: `/${c}` });
      expect([r.statusCode, r.json()]).toEqual([200, { code: 400, msg: '参数错误' }]);
    }
    expect((await app.inject({ url: '/23505' })).statusCode).toBe(500);
    expect((await app.inject({ url: '/boom' })).json()).toEqual({ code: 500, msg: '服务器繁忙，请稍后再试' });
    const bad = await app.inject({ url: '/%E0%A4%A' });
    expect([bad.statusCode, bad.json()]).toEqual([400, { code: 400, msg: '请求格式错误' }]);
    await app.close();
  });
});

describe.each(backends)('hostile input on representative routes (%s)', (backend) => {
  const t = useServer(backend);
  let agent: Client;
  let client: Client;
  const setup = async () => {
    if (agent) return;
    agent = await t.server.client().init();
    expect((await agent.login('agent1')).body.code).toBe(0);
    client = await t.server.client().init();
    expect((await client.login('client1')).body.code).toBe(0);
  };
  const refusedWith = (r: { status: number; body: any }, code: number, msg?: string) => {
    expect(r.status).toBeLessThan(500);
    expect(r.body).toMatchObject(msg ? { code, msg } : { code });
  };

  it('a NUL (or other control character) in any string: JSON, form, query, key', async () => {
    await setup();
    refusedWith(
      await client.post('/api/sign/add', { sign: 'a\u0000b', remarks: 'x' }, { json: true }),
      400,
      INPUT_MESSAGES.invalidChar,
    );
    refusedWith(await client.post('/api/sign/add', { sign: 'a\u0000b' }), 400, INPUT_MESSAGES.invalidChar);
    refusedWith(await agent.post('/api/client/accounts', { customerInfo: 'x\u0001' }), 400, INPUT_MESSAGES.invalidChar);
    refusedWith(await agent.get('/api/agent/notice/detail?noticeId=1%00'), 400, INPUT_MESSAGES.invalidChar);
    refusedWith(await agent.get('/api/client/account/detail?clientId=client1%00'), 400, INPUT_MESSAGES.invalidChar);
    refusedWith(
      await agent.post('/api/autoTemplate/list', '{"content\\u0000":"x"}', {
        headers: { 'content-type': 'application/json' },
      }),
      400,
      INPUT_MESSAGES.invalidChar,
    );
    refusedWith(
      await client.post('/api/sign/add', '{"sign":"a\\ud800"}', { headers: { 'content-type': 'application/json' } }),
      400,
      INPUT_MESSAGES.invalidChar,
    );
    // anonymous routes too (the guard runs before the session check)
    refusedWith(
      await (
        await t.server.client().init()
      ).post('/api/login', { username: 'agent1\u0000', password: 'x' }, { json: true }),
      400,
      INPUT_MESSAGES.invalidChar,
    );
  });

  it('5,000-deep nesting: a JSON body, and a JSON string in a form field', async () => {
    await setup();
    const json = { 'content-type': 'application/json' };
    refusedWith(
      await client.post('/api/sign/list', `{"state":${DEEP}}`, { headers: json }),
      400,
      INPUT_MESSAGES.tooDeep,
    );
    refusedWith(
      await agent.post('/api/client/recharge', `{"clientId":"client1","amount":${DEEP}}`, { headers: json }),
      400,
      INPUT_MESSAGES.tooDeep,
    );
    const anon = await t.server.client().init();
    const { body } = await anon.get('/api/captcha/slider');
    refusedWith(
      await anon.post('/api/captcha/slider/verify', { server: body.data.server, width: 260, track: DEEP }),
      400,
      INPUT_MESSAGES.tooDeep,
    );
    // a JSON body must be an object
    refusedWith(await client.post('/api/sign/list', '[1,2]', { headers: json }), 400, '请求格式错误');
    refusedWith(await client.post('/api/sign/list', '"x"', { headers: json }), 400, '请求格式错误');
  });

  it('paging: currentPage 1e18, page 0.001 and friends answer 400; a huge page size is capped', async () => {
    await setup();
    refusedWith(await client.post('/api/sign/list', { currentPage: 1e18 }, { json: true }), 400, PAGING_MESSAGES.page);
    refusedWith(await client.post('/api/sign/list', { currentPage: '1e18' }), 400, PAGING_MESSAGES.page);
    refusedWith(await client.post('/api/agent/noticePage', { page: 0.001 }, { json: true }), 400, PAGING_MESSAGES.page);
    refusedWith(await agent.post('/api/client/accounts', { currentPage: '0' }), 400, PAGING_MESSAGES.page);
    refusedWith(await agent.get('/api/index/clients?currentPage=-3'), 400, PAGING_MESSAGES.page);
    refusedWith(
      await agent.post('/api/autoTemplate/list', { currentPage: 1.5 }, { json: true }),
      400,
      PAGING_MESSAGES.page,
    );
    const capped = await client.post('/api/sign/list', { currentPage: 1, pageRowCount: 1e18 }, { json: true });
    expect(capped.body).toMatchObject({ code: 0, data: { pageRowCount: MAX_PAGE_SIZE } });
  });

  it('integers beyond int4 (ids, enumerations) answer 400-class, never 500', async () => {
    await setup();
    for (const [c, url, body] of [
      [client, '/api/sign/list', { state: '99999999999' }],
      [client, '/api/sign/update', { id: 2147483648, state: 4 }],
      [client, '/api/sign/update', { id: '99999999999', state: '4' }],
      [agent, '/api/client/accounts', { status: '99999999999' }],
      [agent, '/api/autoTemplate/list', { templateId: '2147483648' }],
      [agent, '/api/autoTemplate/del', { templateId: 2147483648 }],
      [agent, '/api/autoTemplate/list', { state: '2147483648', smsType: 99999999999, templateType: '-2147483649' }],
    ] as [Client, string, Record<string, unknown>][]) {
      const r = await c.post(url, body, { json: true });
      expect(r.status, `${url} ${JSON.stringify(body)}`).toBeLessThan(500);
      expect(r.body.msg, `${url} ${JSON.stringify(r.body)}`).not.toBe('服务器繁忙，请稍后再试');
    }
    refusedWith(await agent.get('/api/agent/notice/detail?noticeId=2147483648'), 404);
    // bounded in the service: its own message, not the database's error
    refusedWith(
      await client.post('/api/sign/update', { id: 2147483648, state: 4 }, { json: true }),
      400,
      '签名编号不正确',
    );
    // a value outside the filter's enumeration is refused by the route's schema
    refusedWith(await agent.post('/api/client/accounts', { status: '99999999999' }), 400, '参数错误');
    refusedWith(await agent.post('/api/autoTemplate/list', { state: '40000', smsType: '2147483648' }), 400);
  });

  it('a repeated query or form parameter answers 400', async () => {
    await setup();
    refusedWith(await agent.get('/api/client/account/detail?clientId=1&clientId=2'), 400, INPUT_MESSAGES.repeated);
    refusedWith(await agent.get('/api/index/clients?currentPage=1&currentPage=2'), 400, INPUT_MESSAGES.repeated);
    refusedWith(
      await agent.post('/api/client/account/freeze', 'clientId=client1&clientId=client3', {}),
      400,
      INPUT_MESSAGES.repeated,
    );
    refusedWith(await agent.post('/api/client/account/freeze', '__proto__=1'), 400, INPUT_MESSAGES.badKey);
    expect((await client.get('/api/login/timeout')).body.data).toBe(true); // client1 was not frozen
  });

  it("malformed URLs and the framework's own refusals answer the usual {code, msg}", async () => {
    await setup();
    const bad = await agent.get('/api/%E0%A4%A');
    expect([bad.status, bad.body]).toEqual([400, { code: 400, msg: '请求格式错误' }]);
    const bad2 = await agent.post('/api/sign/list/%E0%A4%A', {});
    expect([bad2.status, bad2.body]).toEqual([400, { code: 400, msg: '请求格式错误' }]);
    expect((await agent.get('/api/nope')).body).toEqual({ code: 404, msg: '接口不存在' });
    refusedWith(
      await agent.post('/api/sign/list', 'hello', { headers: { 'content-type': 'text/plain' } }),
      415,
      '不支持的请求格式',
    );
    refusedWith(
      await agent.post('/api/sign/list', '<a/>', { headers: { 'content-type': 'application/xml' } }),
      415,
      '不支持的请求格式',
    );
    refusedWith(
      await agent.post('/api/sign/list', '{"a":', { headers: { 'content-type': 'application/json' } }),
      400,
      '请求格式错误',
    );
    refusedWith(
      await agent.post('/api/sign/list', '{"__proto__":{"x":1}}', { headers: { 'content-type': 'application/json' } }),
      400,
      '请求格式错误',
    );
    refusedWith(
      await agent.post('/api/sign/list', `{"a":"${'z'.repeat(1024 * 1024 + 1)}"}`, {
        headers: { 'content-type': 'application/json' },
      }),
      413,
      '请求内容过大',
    );
  });

  it('a broken multipart body on the file routes answers 400-class', async () => {
    await setup();
    const truncated =
      '--XyZ\r\nContent-Disposition: form-data; name="excel"; filename="a.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\nPK\u0003\u0004';
    for (const url of ['/api/autoTemplate/addBatch', '/api/sign/addsignBatch', '/api/file/upload']) {
      refusedWith(
        await agent.post(url, 'x', { headers: { 'content-type': 'multipart/form-data' } }),
        400,
        '请求格式错误',
      );
      const r = await agent.post(url, truncated, { headers: { 'content-type': 'multipart/form-data; boundary=XyZ' } });
      expect(r.status, url).toBeLessThan(500);
      expect(r.body.code, url).toBeGreaterThanOrEqual(400);
    }
  });

  it('a data exception raised by the database itself answers 400 (last line of defence)', async () => {
    // a route of a test app on the same database: what a service would hit if a guard missed a value
    const db = t.server.handle.db;
    const app = Fastify();
    installErrorHandler(app);
    app.get('/cast', async (req) => (await sql`select ${(req.query as any).v}::int as n`.execute(db)).rows);
    app.get('/nul', async () => (await sql`select ${'a\u0000b'}::text as s`.execute(db)).rows);
    for (const url of ['/cast?v=abc', '/cast?v=2147483648', '/nul']) {
      const r = await app.inject({ url });
      expect([url, r.statusCode, r.json()]).toEqual([url, 200, { code: 400, msg: '参数错误' }]);
    }
    await app.close();
  });
});
