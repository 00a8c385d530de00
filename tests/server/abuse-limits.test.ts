/**
 * Issue 23, item 8 (the smaller abuse paths), as the attacks: a request body that stalls is cut
 * off by the request timeout instead of holding its socket and parser for ever; a template id
 * beyond int4 is refused by the form schema before any SQL.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { backends, useServer } from './harness';

describe.each(backends)('request timeout (%s)', (backend) => {
  const t = useServer(backend, { config: { requestTimeoutMs: 600, connectionCheckMs: 100 } });

  it('a body that stalls is answered 408 and the connection closed within the request timeout', async () => {
    const app = t.server.app;
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const port = Number(new URL(address).port);
      const started = Date.now();
      const answer = await new Promise<string>((resolve, reject) => {
        const sock = net.connect(port, '127.0.0.1', () => {
          // headers announce 1,000 bytes, then only 10 arrive and nothing more
          sock.write(
            'POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"usernam',
          );
        });
        let got = '';
        sock.on('data', (d) => (got += d.toString()));
        sock.on('close', () => resolve(got));
        sock.on('error', reject);
        setTimeout(() => reject(new Error('the stalled request was never cut off')), 10_000).unref();
      });
      expect(Date.now() - started).toBeLessThan(5_000);
      // (the CSRF check may answer first without reading the body; the stalled body still ends in 408)
      expect(answer).toContain('HTTP/1.1 408 Request Timeout');
    } finally {
      await app.close().catch(() => {});
    }
  });
});

describe.each(backends)('abuse limits (%s)', (backend) => {
  const t = useServer(backend);

  it('a template id beyond int4 is refused by the schema (no 500)', async () => {
    const c = await t.server.client().init();
    expect((await c.login('client1')).body.code).toBe(0);
    const r = await c.post('/api/send/sending', {
      clientId: 'client1',
      smstype: 0,
      templateId: '2147483648',
      sign: '云讯通',
      content: 'x',
      mobile: '13800138000',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ code: 400, msg: '请选择模板' });
  });
});

describe.each(backends)('mobile lookup and freeze (%s)', (backend) => {
  const t = useServer(backend, { config: { mobileCheckPerHour: 5, sessionCheckCacheMs: 60_000 } });

  it('the open-account mobile check is limited per agent: no walking through numbers to learn whose they are', async () => {
    const agent1 = await t.server.client().init();
    expect((await agent1.login('agent1')).body.code).toBe(0);
    const answers = [];
    for (let i = 0; i < 8; i++)
      answers.push(
        (await agent1.get(`/api/client/account/validate/mobile?mobile=1380013${String(8000 + i)}`)).body.code,
      );
    expect(answers.slice(0, 5).every((c) => c !== 429)).toBe(true);
    expect(answers.slice(5)).toEqual([429, 429, 429]);
    // another agent has its own allowance
    const agent0 = await t.server.client().init();
    expect((await agent0.login('agent0')).body.code).toBe(0);
    expect((await agent0.get('/api/client/account/validate/mobile?mobile=13800139000')).body.code).not.toBe(429);
  });

  it('a freeze ends the cached session check of the frozen account at once', async () => {
    const sub = await t.server.client().init();
    expect((await sub.login('client1')).body.code).toBe(0);
    expect((await sub.get('/api/login/timeout')).body.data).toBe(true);
    const agent = await t.server.client().init();
    expect((await agent.login('agent1')).body.code).toBe(0);
    expect((await agent.post('/api/client/account/freeze', { clientId: 'client1' })).body.code).toBe(0);
    expect((await sub.get('/api/login/timeout')).body.data).toBe(false);
    expect((await agent.post('/api/client/account/unfreeze', { clientId: 'client1' })).body).toMatchObject({
      code: 0,
      data: { status: 1 },
    });
  });
});

describe.each(backends)('file parses per account (%s)', (backend) => {
  const t = useServer(backend);

  it('an account runs one file parse at a time: another while one runs is refused at once, others are not held', async () => {
    const { takeParseSlot, releaseParseSlot } = await import('../../server/http/parse-slots');
    const c = await t.server.client().init();
    expect((await c.login('client1')).body.code).toBe(0);
    const me = await t.server.handle.db
      .selectFrom('accounts')
      .select('id')
      .where('clientid', '=', 'client1')
      .executeTakeFirstOrThrow();
    const ctx = t.server.app.ctx;
    expect(takeParseSlot(ctx, me.id)).toBe(true); // a parse of client1 is running
    for (const url of ['/api/send/parsefile', '/api/send/parsefileInternational', '/api/send/parsefileVariate']) {
      expect((await c.post(url, { importFilePath: 'x' })).body, url).toMatchObject({
        code: 429,
        msg: '文件正在解析中，请等待当前文件解析完成后再试',
      });
    }
    // another account parses meanwhile
    const other = await t.server.client().init();
    expect((await other.login('agent1')).body.code).toBe(0);
    expect((await other.post('/api/send/parsefile', { importFilePath: 'x' })).body.code).not.toBe(429);
    releaseParseSlot(ctx, me.id);
    // the slot is free again, and a refused or failed parse gives its slot back
    expect((await c.post('/api/send/parsefile', { importFilePath: 'x' })).body.code).not.toBe(429);
    expect((await c.post('/api/send/parsefile', { importFilePath: 'x' })).body.code).not.toBe(429);
  });
});
