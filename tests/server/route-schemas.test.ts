/**
 * Routes declared from schemas (server/http/route.ts): Fastify validates each payload with the
 * shared ajv before the handler, with the schema's messages and the usual {code, msg, data}
 * answer; access is checked once per route, before validation; ids and paging numbers are
 * bounded; the OpenAPI document is built from the same declarations.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installAccess } from '../../server/http/route';
import { backends, useServer } from './harness';

describe.each(backends)('route schemas (%s)', (backend) => {
  const t = useServer(backend);
  const as = async (user?: string) => {
    const c = await t.server.client().init();
    if (user) expect((await c.login(user)).body.code).toBe(0);
    return c;
  };

  it('a failed schema answers code 400 with the first schema message and every field error', async () => {
    const c = await as('agent1');
    const r = await c.post('/api/content/content/test', {});
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      code: 400,
      msg: '请输入短信内容',
      data: { errors: [{ field: 'content', message: '请输入短信内容' }] },
    });
    // form posts carry strings: declared numbers and booleans are coerced before the check
    const price = await c.post('/api/client/price', { clientId: 'client1', priceType: '0', unifiedPrice: '0.0450' });
    expect(price.body.code).toBe(0);
  });

  it('checks access before the payload: no session is 401, a sub-account on an agent route 403', async () => {
    const anon = await as();
    const r = await anon.post('/api/content/content/test', {});
    expect(r.body).toEqual({ code: 401, msg: '登录超时' });
    const sub = await as('client1');
    expect((await sub.post('/api/client/recharge', {})).body).toEqual({ code: 403, msg: '无权访问' });
    expect((await sub.get('/api/client/stat')).body).toEqual({ code: 403, msg: '无权访问' });
    const agent = await as('agent1');
    expect((await agent.get('/api/account/clientinfo')).body).toEqual({ code: 403, msg: '无权访问' });
    expect((await sub.get('/api/account/clientinfo')).body.code).toBe(0);
  });

  it('refuses out-of-range ids and paging numbers with 400 instead of reaching the database', async () => {
    const c = await as('agent1');
    for (const bad of [
      { currentPage: 1e18 },
      { currentPage: '0.001' },
      { currentPage: 0 },
      { currentPage: '1e18' },
      { pageRowCount: -1 },
      { pageRowCount: 1.5 },
    ]) {
      expect((await c.post('/api/sign/list', bad, { json: true })).body, JSON.stringify(bad)).toMatchObject({
        code: 400,
        msg: expect.stringMatching(/^参数错误：(页码|每页条数)须为正整数$/),
      });
      expect((await c.post('/api/client/accounts', bad, { json: true })).body, JSON.stringify(bad)).toMatchObject({
        code: 400,
        msg: expect.stringMatching(/^参数错误：(页码|每页条数)须为正整数$/),
      });
    }
    // a page size beyond what a list serves is capped, not refused
    expect((await c.post('/api/client/accounts', { pageRowCount: 100000 }, { json: true })).body).toMatchObject({
      code: 0,
      data: { pageRowCount: 200 },
    });
    expect((await c.post('/api/agent/noticePage', { page: 0.5 }, { json: true })).body).toMatchObject({
      code: 400,
      msg: '参数错误：页码须为正整数',
    });
    expect((await c.post('/api/sign/update', { id: '2147483648', state: '4' })).body).toMatchObject({
      code: 400,
      msg: '签名编号不正确',
    });
    expect((await c.post('/api/client/accounts', { status: '99999999999' })).body).toMatchObject({
      code: 400,
      msg: '参数错误',
    });
    // a repeated query parameter is refused by the input guards before the route schema
    expect((await c.get('/api/agent/notice/detail?noticeId=1&noticeId=2')).body).toMatchObject({
      code: 400,
      msg: '参数错误：参数重复',
    });
    // a filter's own message stays the spec's
    expect((await c.post('/api/sign/list', { state: 3 })).body).toMatchObject({ code: 400, msg: '状态参数不正确' });
    // good values still work, as numbers or as the strings a form posts
    expect((await c.post('/api/sign/list', { currentPage: '1', pageRowCount: '15', state: '' })).body.code).toBe(0);
    expect(
      (await c.post('/api/client/accounts', { currentPage: 1, pageRowCount: 1000, status: 1 }, { json: true })).body
        .code,
    ).toBe(0);
  });

  it('documents every route from its own declaration: summary, tag, access, body schema', async () => {
    const c = await as('agent1');
    const spec = (await c.get('/api/help/openapi.json')).body;
    const ops = Object.entries<any>(spec.paths).flatMap(([p, item]) =>
      Object.entries<any>(item).map(([m, op]) => ({ p, m, op })),
    );
    expect(ops.length).toBeGreaterThan(60);
    for (const { p, m, op } of ops) {
      expect(op.summary, `${m} ${p}`).toBeTruthy();
      expect(op.tags?.[0], `${m} ${p}`).toBeTruthy();
      expect(op.description, `${m} ${p}`).toMatch(/无需登录|需要登录/);
    }
    expect(spec.paths['/api/login'].post.description).toContain('无需登录');
    expect(spec.paths['/api/client/recharge'].post.description).toContain('仅代理商');
    expect(spec.paths['/api/account/clientinfo'].get.description).toContain('仅子账户');
    const recharge =
      spec.paths['/api/client/recharge'].post.requestBody.content['application/x-www-form-urlencoded'].schema;
    expect(recharge.properties.clientId.title).toBe('子账户');
    expect(JSON.stringify(recharge)).not.toMatch(/errorMessage|x-schema-key/);
    // the answers' shapes: the envelope with data from the entity schemas
    const list = spec.paths['/api/sign/list'].post.responses['200'].content['application/json'].schema;
    expect(list.properties.code.type).toBe('integer');
    expect(list.properties.data.properties.list.items.properties.sign.title).toBe('签名');
    expect(JSON.stringify(list)).not.toMatch(/errorMessage|x-column/);
  });

  it('documents the converted modules (clients, upload) with their params schemas', async () => {
    const c = await as('agent1');
    const spec = (await c.get('/api/help/openapi.json')).body;
    const clients =
      spec.paths['/api/send/getclients'].post.requestBody.content['application/x-www-form-urlencoded'].schema;
    expect(clients.title).toBe('ClientsListParams');
    expect(clients.properties.getAll).toMatchObject({ type: 'integer', maximum: 1 });
    const upload = spec.paths['/api/file/upload'].post;
    expect(upload.parameters.find((p: any) => p.name === 'scene').schema.maxLength).toBe(32);
  });

  it('documents the send and template modules with their request schemas and answers', async () => {
    const c = await as('agent1');
    const spec = (await c.get('/api/help/openapi.json')).body;
    const body = (path: string) =>
      spec.paths[path].post.requestBody.content['application/x-www-form-urlencoded'].schema;
    expect(body('/api/send/sendTim').title).toBe('SendTimedParams');
    expect(body('/api/send/sendTim').properties.isCheckAvailableCredit).toMatchObject({
      type: 'integer',
      enum: [0, 1],
    });
    expect(body('/api/send/chargeInfo').properties.smstype).toMatchObject({ type: 'integer', maximum: 99 });
    expect(body('/api/send/edit').title).toBe('SendTaskEditParams');
    expect(body('/api/autoTemplate/list').properties.createStartTime.format).toBe('date');
    expect(body('/api/autoTemplate/del').title).toBe('TemplateRefParams');
    const sent = spec.paths['/api/send/sending'].post.responses['200'].content['application/json'].schema;
    expect(Object.keys(sent.properties.data.properties)).toEqual([
      'taskId',
      'smsNum',
      'chargeNum',
      'submitTotal',
      'amount',
      'blacklistNum',
    ]);
    expect(
      spec.paths['/api/autoTemplate/commonlist'].post.responses['200'].content['application/json'].schema.properties
        .data.required,
    ).toContain('entityList');
    // a bad parameter: 参数错误, never a 5xx
    expect(
      (await c.post('/api/send/sendTim', { jsmsAccessTimerSms: {}, isCheckAvailableCredit: 7 }, { json: true })).body,
    ).toMatchObject({ code: 400, msg: '参数错误' });
    expect((await c.post('/api/send/chargeInfo', { clientId: 'client1', smstype: 'x' })).body).toMatchObject({
      code: 400,
      msg: '参数错误',
    });
  });
});

describe('installAccess', () => {
  it('refuses to register a route that declares no access', async () => {
    const app = Fastify();
    installAccess(app, {} as any, {} as any);
    expect(() => app.get('/x', async () => 'x')).toThrow(/declares no access/);
    app.get('/y', { config: { access: 'public' } }, async () => 'y');
    expect((await app.inject({ method: 'GET', url: '/y' })).body).toBe('y');
    await app.close();
  });
});
