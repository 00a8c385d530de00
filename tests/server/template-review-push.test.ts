/**
 * Issue 26 item 9: a template's review result (operator approve / reject, server/cli/templates.ts)
 * is pushed to auto_template_callback_url — the template account's own, else its agent's — by the
 * push machinery of the delivery reports (server/modules/push): the same outbox, URL rules
 * (a private / loopback target is refused), retries. A local receiver that the injected resolver
 * makes look public stands for the customer. Both databases.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../../server/cli/operator-channel';
import { Pusher } from '../../server/modules/push/pusher';
import { PushKind } from '../../common/generated/schemas';
import { PUBLIC_TEST_ADDRESS, testResolver } from '../fixtures/resolver';
import { as } from './send-helpers';
import { backends, useServer, type Client } from './harness';

const valid = {
  clientId: 'client1',
  smsType: 10,
  templateType: 1,
  business: 0,
  smstype: 4,
  sign: '好易购',
  content: '您的验证码是{code}，请在5分钟内完成验证。',
};

describe.each(backends)('template review push (%s)', (backend) => {
  const t = useServer(backend);
  const hits: { path: string; body: any }[] = [];
  let status = 200;
  const rx = http.createServer((req, res) => {
    let b = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (b += c));
    req.on('end', () => {
      hits.push({ path: req.url ?? '', body: JSON.parse(b) });
      res.statusCode = status;
      res.end('{"code":0}');
    });
  });
  const port = () => (rx.address() as AddressInfo).port;
  const clock = { t: Date.now() + 3_600_000 };
  let agent1: Client;
  let client1: Client;
  const cli = (argv: string[]) => runCommand({ db: t.server.handle.db, now: () => new Date() }, argv);
  const pusher = () =>
    new Pusher({
      db: t.server.handle.db,
      now: () => new Date(clock.t),
      resolveHost: testResolver,
      dial: (target) =>
        target.address === PUBLIC_TEST_ADDRESS ? { ...target, address: '127.0.0.1', family: 4 } : target,
      timeoutMs: 1000,
      backoffMs: 1000,
    });
  const outbox = () =>
    t.server.handle.db
      .selectFrom('push_outbox')
      .selectAll()
      .where('kind', '=', PushKind.TemplateReview)
      .orderBy('id')
      .execute();
  const setUrls = (agent: string, client: string) =>
    Promise.all([
      t.server.handle.db
        .updateTable('accounts')
        .set({ auto_template_callback_url: agent })
        .where('clientid', '=', 'agent1')
        .execute(),
      t.server.handle.db
        .updateTable('accounts')
        .set({ auto_template_callback_url: client })
        .where('clientid', '=', 'client1')
        .execute(),
    ]);

  beforeAll(async () => {
    await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
    agent1 = await as(t.server, 'agent1');
    client1 = await as(t.server, 'client1');
  });
  afterAll(() => {
    rx.closeAllConnections();
    rx.close();
  });
  beforeEach(async () => {
    await t.server.handle.db.deleteFrom('push_outbox').execute();
    hits.length = 0;
    status = 200;
  });

  it('the agent’s callback URL (set in 基本资料) receives the approval and the refusal of its sub-account’s templates, with retries', async () => {
    await setUrls('', '');
    // the agent sets its URL through the console's form (the URL rules of report pushes)
    const info = (await agent1.get('/api/admin/baseinfo')).body.data;
    const saved = await agent1.post('/api/admin/baseinfo/edit', {
      agent_name: info.agent_name,
      address: info.address,
      mobile: info.mobile,
      auto_template_callback_url: `http://hook.example.com:${port()}/tpl`,
    });
    expect(saved.body.code, JSON.stringify(saved.body)).toBe(0);
    const a = (await agent1.post('/api/autoTemplate/add', valid)).body.data.templateId;
    const b = (await client1.post('/api/autoTemplate/add', { ...valid, content: '您的取件码是{code}。' })).body.data
      .templateId;
    expect(await outbox()).toHaveLength(0); // nothing before a review
    await cli(['template-approve', String(a)]);
    await cli(['template-reject', String(b), '内容不规范']);
    const rows = await outbox();
    expect(rows.map((r) => r.url)).toEqual([
      `http://hook.example.com:${port()}/tpl`,
      `http://hook.example.com:${port()}/tpl`,
    ]);

    status = 503; // the first attempt fails: retried after the backoff
    const p = pusher();
    await p.runOnce();
    expect(hits).toHaveLength(2);
    expect((await outbox()).every((r) => r.done_at === null && r.last_error === 'HTTP 503')).toBe(true);
    status = 200;
    hits.length = 0;
    clock.t += 60_000;
    await p.runOnce();
    expect(hits.map((h) => h.path)).toEqual(['/tpl', '/tpl']);
    const byId = Object.fromEntries(hits.map((h) => [h.body[0].templateId, h.body[0]]));
    expect(byId[a]).toMatchObject({
      clientId: 'client1',
      templateId: a,
      state: 1,
      stateStr: '审核通过',
      remark: '',
      sign: '好易购',
      content: valid.content,
    });
    expect(byId[b]).toMatchObject({
      clientId: 'client1',
      templateId: b,
      state: 3,
      stateStr: '审核不通过',
      remark: '内容不规范',
    });
    expect(byId[a].updateTimeStr).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect((await outbox()).every((r) => r.done_at !== null && r.last_error === '')).toBe(true);
  });

  it('the account’s own URL comes first; no URL, no push; a loopback URL is refused at push time', async () => {
    const id = (await client1.post('/api/autoTemplate/add', valid)).body.data.templateId;
    await setUrls(`http://hook.example.com:${port()}/agent`, `http://hook.example.com:${port()}/own`);
    await cli(['template-approve', String(id)]);
    expect((await outbox()).map((r) => r.url)).toEqual([`http://hook.example.com:${port()}/own`]);

    await t.server.handle.db.deleteFrom('push_outbox').execute();
    await setUrls('', '');
    await cli(['template-reject', String(id), '不通过']);
    expect(await outbox()).toHaveLength(0);

    // a URL that reached the database some other way (an old row) is still checked at every attempt
    await setUrls('', `http://127.0.0.1:${port()}/own`);
    await cli(['template-approve', String(id)]);
    await pusher().runOnce();
    expect(hits).toHaveLength(0);
    const [row] = await outbox();
    expect(row.done_at).not.toBeNull();
    expect(row.last_error).toMatch(/^refused: /);
    await setUrls('', '');
  });
});
