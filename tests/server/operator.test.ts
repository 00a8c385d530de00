/**
 * Operators (issue 39, docs/api-operator.md): login on /login with roles and TOTP, the two kinds
 * of session kept apart (no account route for an operator, no operator route for an account), the
 * review decisions through the CLI's functions with their audit rows in the same transaction,
 * idempotent decisions, the audit log's filters, operator-add, an operator's log-in-as through the
 * accounts' own (audited, one kind of session per browser).
 */
import { describe, expect, it, vi } from 'vitest';
import { backends, useServer, type Client, type TestServer } from './harness';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/app';
import { OperatorService } from '../../server/modules/operator';
import { runCommand } from '../../server/cli/operator-channel';
import { OperatorRole } from '../../common/generated/schemas';
import { readMailOutbox } from '../../server/modules/verification/outbox';
import { sql } from 'kysely';
import { createHash } from 'node:crypto';

async function as(
  server: TestServer,
  who: string,
  password?: string,
  extra: Record<string, unknown> = {},
): Promise<Client> {
  const c = await server.client().init();
  const r = await c.login(who, password, extra);
  if (r.body.code !== 0) throw new Error(`login ${who}: ${JSON.stringify(r.body)}`);
  return c;
}

/** every operator route of the OpenAPI document, with a body that passes its schema */
const OPERATOR_ROUTES: [method: 'get' | 'post', path: string, body?: Record<string, unknown>][] = [
  ['get', '/api/operator/me'],
  ['get', '/api/operator/review/counts'],
  ['post', '/api/operator/review/certifications/list', {}],
  ['post', '/api/operator/review/signs/list', {}],
  ['post', '/api/operator/review/templates/list', {}],
  ['post', '/api/operator/review/invoices/list', {}],
  ['post', '/api/operator/review/certifications/decide', { id: 1, approve: true }],
  ['post', '/api/operator/review/signs/decide', { id: 1, approve: true }],
  ['post', '/api/operator/review/templates/decide', { id: 1, approve: true }],
  ['post', '/api/operator/review/invoices/status', { id: 1, status: 3 }],
  ['get', '/api/operator/files/x/abcdefgh.png'],
  ['post', '/api/operator/customers/list', {}],
  ['post', '/api/operator/customers/freeze', { clientid: 'client1' }],
  ['post', '/api/operator/customers/unfreeze', { clientid: 'client2' }],
  ['post', '/api/operator/customers/unlock', { clientid: 'client1' }],
  ['post', '/api/operator/customers/reset-password', { clientid: 'client1' }],
  ['post', '/api/operator/customers/credit', { clientid: 'agent1', amount: '1', remark: 'x' }],
  ['post', '/api/operator/customers/login-as', { clientid: 'client1', remark: 'x' }],
  ['get', '/api/operator/channels/list'],
  ['post', '/api/operator/channels/save', { name: 'x1', url: 'smpp://a:b@127.0.0.1:2775' }],
  ['post', '/api/operator/channels/pause', { name: 'x1' }],
  ['post', '/api/operator/channels/resume', { name: 'x1' }],
  ['post', '/api/operator/channels/remove', { name: 'x1' }],
  ['post', '/api/operator/channels/route', { phone: '13800138000', smstype: 0 }],
  ['post', '/api/operator/words/list', {}],
  ['post', '/api/operator/words/add', { words: 'x' }],
  ['post', '/api/operator/words/remove', { id: 1 }],
  ['post', '/api/operator/words/test', { content: 'x' }],
  ['post', '/api/operator/notices/list', {}],
  ['post', '/api/operator/notices/publish', { name: 'x', html: '<p>x</p>' }],
  ['post', '/api/operator/notices/delete', { id: 1 }],
  ['get', '/api/operator/monitor?range=hour'],
  ['get', '/api/operator/archives/list'],
  ['post', '/api/operator/audit/list', {}],
  ['get', '/api/operator/operators/list'],
  ['post', '/api/operator/operators/add', { name: 'someone1', password: 'a'.repeat(64), role: 1 }],
  ['post', '/api/operator/operators/status', { id: 1, status: 2 }],
];

const call = (c: Client, [m, p, b]: (typeof OPERATOR_ROUTES)[number]) => (m === 'get' ? c.get(p) : c.post(p, b ?? {}));

describe.each(backends)('operators (%s)', (backend) => {
  const t = useServer(backend);

  it('logs an operator in on /login, apart from the accounts', async () => {
    const anon = await t.server.client().init();
    const r = await anon.login('reviewer1');
    expect(r.body).toMatchObject({
      code: 0,
      msg: '登录成功',
      data: { userType: '3', clientid: 'reviewer1', role: OperatorRole.Reviewer },
    });
    expect((await anon.get('/api/login/timeout')).body.data).toBe(true);
    expect((await anon.get('/api/operator/me')).body.data).toMatchObject({
      name: 'reviewer1',
      role: 1,
      totpEnabled: false,
    });
    // no account route for an operator's session
    expect((await anon.get('/api/admin/info')).body.code).toBe(401);
    expect((await anon.post('/api/sign/list', {})).body.code).toBe(401);
    // its login is audited
    const log = await t.server.handle.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'operator.login')
      .execute();
    expect(log.map((x) => x.operator_name)).toContain('reviewer1');
    // a wrong password: the accounts' answer and lockout
    expect((await (await t.server.client().init()).login('reviewer1', 'Wrong1234')).body).toMatchObject({
      code: 500,
      msg: '用户名或密码错误',
    });
    // logout ends it
    await anon.post('/api/logout', {});
    expect((await anon.get('/api/login/timeout')).body.data).toBe(false);
    expect((await anon.get('/api/operator/me')).body.code).toBe(401);
  });

  it('refuses every operator route to agents, sub-accounts and strangers, and by role', async () => {
    const agent = await as(t.server, 'agent1');
    const sub = await as(t.server, 'client1');
    const anon = await t.server.client().init();
    for (const r of OPERATOR_ROUTES) {
      for (const c of [agent, sub, anon]) expect((await call(c, r)).body.code, `${r[1]}`).toBe(401);
    }
    // the agent's session still works for its own routes (an operator route changed nothing)
    expect((await agent.get('/api/admin/info')).body.code).toBe(0);
    const reviewer = await as(t.server, 'reviewer1');
    expect((await reviewer.post('/api/operator/audit/list', {})).body.code).toBe(403);
    expect((await reviewer.get('/api/operator/operators/list')).body.code).toBe(403);
    expect((await reviewer.get('/api/operator/archives/list')).body.code).toBe(403);
    const ops = await as(t.server, 'operator1');
    expect((await ops.post('/api/operator/audit/list', {})).body.code).toBe(0);
    expect((await ops.get('/api/operator/archives/list')).body).toMatchObject({ code: 0, data: [] });
    expect((await ops.get('/api/operator/operators/list')).body.code).toBe(403);
  });

  /**
   * The matrix above is the document's, and the reverse holds: the OpenAPI document's operator
   * routes are exactly OPERATOR_ROUTES (a new one fails here until it is listed), and on every
   * other route of the document an operator's session gets no more than a stranger: where a call
   * without a session is 401, so is the operator's.
   */
  it("lists every operator route of the document; an operator is a stranger on the accounts' routes", async () => {
    const agent = await as(t.server, 'agent1');
    const doc = (await agent.get('/api/help/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => [m, p] as const));
    const key = (m: string, p: string) =>
      `${m} ${p
        .replace(/\?.*$/, '')
        .replace(/\{[^}]+\}/g, '*')
        .replace(/\/files\/.*$/, '/files/*')}`;
    const operatorRoutes = documented.filter(([, p]) => p.startsWith('/api/operator/'));
    expect(operatorRoutes.map(([m, p]) => key(m, p)).sort()).toEqual(OPERATOR_ROUTES.map(([m, p]) => key(m, p)).sort());

    const operator = await as(t.server, 'operator1');
    const anon = await t.server.client().init();
    let checked = 0;
    for (const [m, p] of documented) {
      if (p.startsWith('/api/operator/') || /logout/.test(p) || (m !== 'get' && m !== 'post')) continue;
      const url = p.replace(/\{[^}]+\}/g, 'x');
      const stranger = m === 'get' ? await anon.get(url) : await anon.post(url, {});
      if (stranger.body?.code !== 401) continue;
      const r = m === 'get' ? await operator.get(url) : await operator.post(url, {});
      expect(r.body?.code, `${m} ${p}`).toBe(401);
      checked++;
    }
    expect(checked).toBeGreaterThan(150);
    // the operator's own session is untouched
    expect((await operator.get('/api/operator/me')).body.data).toMatchObject({ name: 'operator1' });
  });

  it('reviews a sign and a template with audit rows, idempotently', async () => {
    const db = t.server.handle.db;
    const reviewer = await as(t.server, 'reviewer1');
    const counts = (await reviewer.get('/api/operator/review/counts')).body.data;
    const signs = (await reviewer.post('/api/operator/review/signs/list', {})).body.data;
    expect(signs.totalCount).toBe(counts.signs);
    expect(signs.list.length).toBeGreaterThan(0);
    const s = signs.list[0];
    expect(s.state).toBe(0);
    // rejection needs a reason
    expect((await reviewer.post('/api/operator/review/signs/decide', { id: s.id, approve: false })).body).toMatchObject(
      { code: 400, msg: '请填写驳回原因' },
    );
    expect(
      (
        await reviewer.post('/api/operator/review/signs/decide', {
          id: s.id,
          approve: false,
          reason: '签名与企业名称不符',
        })
      ).body,
    ).toMatchObject({ code: 0, msg: '已驳回' });
    const row = await db
      .selectFrom('signs')
      .select(['state', 'cause', 'reviewed_by'])
      .where('id', '=', s.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ state: 2, cause: '签名与企业名称不符', reviewed_by: 'reviewer1' });
    // the same decision again: nothing written, who took it said
    expect(
      (
        await reviewer.post('/api/operator/review/signs/decide', {
          id: s.id,
          approve: false,
          reason: '签名与企业名称不符',
        })
      ).body,
    ).toMatchObject({
      code: 0,
      msg: '已审核（reviewer1）',
    });
    const audits = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('target', '=', 'signs')
      .where('target_id', '=', String(s.id))
      .execute();
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      action: 'sign.reject',
      operator_name: 'reviewer1',
      before: { state: 0 },
      after: { state: 2, cause: '签名与企业名称不符' },
    });
    // then approved after all
    expect((await reviewer.post('/api/operator/review/signs/decide', { id: s.id, approve: true })).body.msg).toBe(
      '已通过',
    );
    expect((await reviewer.get('/api/operator/review/counts')).body.data.signs).toBe(counts.signs - 1);

    const tpls = (await reviewer.post('/api/operator/review/templates/list', {})).body.data;
    expect(tpls.totalCount).toBe(counts.templates);
    if (tpls.list.length) {
      const tp = tpls.list[0];
      const pushBefore = Number(
        (
          await db
            .selectFrom('push_outbox')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      expect(
        (await reviewer.post('/api/operator/review/templates/decide', { id: tp.id, approve: true })).body.msg,
      ).toBe('已通过');
      const tr = await db
        .selectFrom('templates')
        .select(['state', 'reviewed_by'])
        .where('id', '=', tp.id)
        .executeTakeFirstOrThrow();
      expect(tr).toEqual({ state: 1, reviewed_by: 'reviewer1' });
      const pushAfter = Number(
        (
          await db
            .selectFrom('push_outbox')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      // queued for the account's template callback when it has one (the same function as the CLI's)
      expect(pushAfter).toBeGreaterThanOrEqual(pushBefore);
      expect(
        await db
          .selectFrom('audit_log')
          .select('action')
          .where('target', '=', 'templates')
          .where('target_id', '=', String(tp.id))
          .execute(),
      ).toEqual([{ action: 'template.approve' }]);
    }
  });

  it('writes nothing, audit row included, when the decision fails', async () => {
    const db = t.server.handle.db;
    const reviewer = await as(t.server, 'reviewer1');
    const before = Number(
      (
        await db
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect((await reviewer.post('/api/operator/review/signs/decide', { id: 999999, approve: true })).body.code).toBe(
      404,
    );
    const inv = (await reviewer.post('/api/operator/review/invoices/list', { pending: false })).body.data.list;
    if (inv.length) {
      // a move the transitions refuse: 409 with the CLI's explanation
      const bad = inv.find((i: { next: number[]; status: number }) => !i.next.includes(0) && i.status !== 0);
      if (bad)
        expect((await reviewer.post('/api/operator/review/invoices/status', { id: bad.id, status: 0 })).body.code).toBe(
          409,
        );
    }
    const after = Number(
      (
        await db
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(after).toBe(before);
  });

  it('approves a pending certification and shows its images to operators only', async () => {
    const db = t.server.handle.db;
    const reviewer = await as(t.server, 'reviewer1');
    const list = (await reviewer.post('/api/operator/review/certifications/list', {})).body.data;
    expect(list.totalCount).toBe((await reviewer.get('/api/operator/review/counts')).body.data.certifications);
    if (!list.list.length) return;
    const c = list.list[0];
    for (const img of c.images) expect(img.startsWith('/api/operator/files/')).toBe(true);
    expect(
      (await reviewer.post('/api/operator/review/certifications/decide', { id: c.id, approve: true })).body,
    ).toMatchObject({ code: 0, msg: '已通过' });
    const a = await db
      .selectFrom('accounts')
      .select('oauth_status')
      .where('clientid', '=', c.clientid)
      .executeTakeFirstOrThrow();
    expect(a.oauth_status).toBe(3);
    const entry = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'certification.approve')
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ operator_name: 'reviewer1', target: 'certifications', target_id: String(c.id) });
    // a file that is no certification's image: not found, even for an operator
    expect((await reviewer.get('/api/operator/files/client1/abcdefgh.png')).body.code).toBe(404);
  });

  it('lists the audit log with its filters', async () => {
    const ops = await as(t.server, 'operator1');
    await as(t.server, 'reviewer1');
    const all = (await ops.post('/api/operator/audit/list', {})).body.data;
    expect(all.totalCount).toBeGreaterThanOrEqual(2);
    const mine = (await ops.post('/api/operator/audit/list', { operator: 'reviewer1', action: 'operator.login' })).body
      .data;
    expect(mine.list.length).toBeGreaterThan(0);
    for (const e of mine.list) expect(e).toMatchObject({ operator: 'reviewer1', action: 'operator.login' });
    expect((await ops.post('/api/operator/audit/list', { action: 'nope' })).body.code).toBe(400);
    expect(
      (await ops.post('/api/operator/audit/list', { start_time: '2026-02-02', end_time: '2026-01-01' })).body,
    ).toMatchObject({ code: 400, msg: '开始时间不能晚于结束时间' });
  });

  it('adds operators with the CLI; a 管理员 logs in with its TOTP code, once per code', async () => {
    const { db } = t.server.handle;
    const run = (argv: string[]) => runCommand({ db, now: t.server.clock.now }, argv);
    expect((await run(['operator-add', 'a1234567', 'Passw0rd!', '1'])).code).not.toBe(0);
    expect((await run(['operator-add', 'client1', 'Passw0rd!', '1'])).code).not.toBe(0);
    expect((await run(['operator-add', 'chief.admin', 'Passw0rd!', '9'])).code).not.toBe(0);
    // the password rule of forms/operator-password.json (the console's dialog checks the same)
    const short = await run(['operator-add', 'chief.admin', 'Pass123', '3']);
    expect(short.code).not.toBe(0);
    expect(short.lines.join('\n')).toContain('密码至少8位');
    const r = await run(['operator-add', 'chief.admin', 'Passw0rd!', '管理员']);
    expect(r.code).toBe(0);
    expect(r.lines.join('\n')).toMatch(/otpauth:\/\/totp\//);
    const o = await db.selectFrom('operators').selectAll().where('name', '=', 'chief.admin').executeTakeFirstOrThrow();
    expect(o).toMatchObject({ role: 3, totp_enabled: true });
    const c = await t.server.client().init();
    expect((await c.login('chief.admin', 'Passw0rd!')).body).toMatchObject({ code: 428, msg: '请输入动态验证码' });
    const code = OperatorService.totpNow(o, t.server.clock.now());
    expect(
      (await c.login('chief.admin', 'Passw0rd!', { totp: code === '000000' ? '111111' : '000000' })).body.msg,
    ).toBe('动态验证码错误');
    expect((await c.login('chief.admin', 'Passw0rd!', { totp: code })).body).toMatchObject({
      code: 0,
      data: { userType: '3', role: 3 },
    });
    // the same code again is refused (replay)
    expect((await (await t.server.client().init()).login('chief.admin', 'Passw0rd!', { totp: code })).body.msg).toBe(
      '动态验证码错误',
    );
    expect((await c.get('/api/operator/operators/list')).body.data.map((x: { name: string }) => x.name)).toEqual(
      expect.arrayContaining(['reviewer1', 'operator1', 'chief.admin']),
    );
    const listed = await run(['operators']);
    expect(listed.lines.join('\n')).toContain('chief.admin');
  });

  it('lists customers and acts on them: freeze, unlock, reset password, credit, each audited', async () => {
    const db = t.server.handle.db;
    const ops = await as(t.server, 'operator1');
    const reviewer = await as(t.server, 'reviewer1');
    expect((await reviewer.post('/api/operator/customers/list', {})).body.code).toBe(403);
    const found = (await ops.post('/api/operator/customers/list', { search: 'CLIENT1' })).body.data;
    expect(found.list.map((r: { clientid: string }) => r.clientid)).toContain('client1');
    const agents = (await ops.post('/api/operator/customers/list', { userType: '1' })).body.data.list;
    expect(agents.length).toBeGreaterThan(0);
    for (const r of agents) expect(r.userType).toBe('1');

    // freeze: client1's logins end and it may not log in; unfreeze
    const client = await as(t.server, 'client1');
    expect(
      (await ops.post('/api/operator/customers/freeze', { clientid: 'client1', remark: '投诉核查' })).body,
    ).toMatchObject({ code: 0, msg: '冻结成功' });
    expect((await client.get('/api/admin/info')).body.code).toBe(401);
    expect((await (await t.server.client().init()).login('client1')).body.msg).toBe('账户已冻结，请联系客服');
    expect((await ops.post('/api/operator/customers/freeze', { clientid: 'client1' })).body.code).not.toBe(0);
    expect((await ops.post('/api/operator/customers/unfreeze', { clientid: 'client1' })).body).toMatchObject({
      code: 0,
      msg: '解冻成功',
    });
    await as(t.server, 'client1');

    // a login lockout (5 wrong passwords) shows, and unlock lifts it
    const stranger = await t.server.client().init();
    for (let i = 0; i < 5; i++) await stranger.login('agent0', 'Wrong12345');
    expect((await stranger.login('agent0')).body.code).toBe(423);
    const locked = (await ops.post('/api/operator/customers/list', { search: 'agent0' })).body.data.list.find(
      (r: { clientid: string }) => r.clientid === 'agent0',
    );
    expect(locked.locked).toBe(true);
    expect((await ops.post('/api/operator/customers/unlock', { clientid: 'agent0' })).body.msg).toBe('已解除登录锁定');
    expect((await stranger.login('agent0')).body.code).toBe(0);

    // a new password, mailed; the old one no longer works
    const mails = readMailOutbox(t.server.dataDir).length;
    expect((await ops.post('/api/operator/customers/reset-password', { clientid: 'agent0' })).body.msg).toBe(
      '新密码已发送至 agent0@demo.smsp.local',
    );
    const mail = readMailOutbox(t.server.dataDir).slice(mails);
    expect(mail).toHaveLength(1);
    const pw = /重置为：([A-Za-z0-9]{10})/.exec(mail[0].text)![1];
    expect((await (await t.server.client().init()).login('agent0')).body.code).toBe(500);
    expect((await (await t.server.client().init()).login('agent0', pw)).body.code).toBe(0);

    // credit through the ledger: remark required, agents only, never below 0; the ledger stays exact
    expect(
      (await ops.post('/api/operator/customers/credit', { clientid: 'agent1', amount: '100' })).body,
    ).toMatchObject({ code: 400, msg: '请填写备注' });
    expect(
      (await ops.post('/api/operator/customers/credit', { clientid: 'client1', amount: '100', remark: '补偿' })).body
        .msg,
    ).toBe('只能为代理商调整额度');
    expect(
      (await ops.post('/api/operator/customers/credit', { clientid: 'agent1', amount: '1.234', remark: '补偿' })).body
        .code,
    ).toBe(400);
    const before = (
      await db.selectFrom('accounts').select('balance').where('clientid', '=', 'agent1').executeTakeFirstOrThrow()
    ).balance;
    expect(
      (await ops.post('/api/operator/customers/credit', { clientid: 'agent1', amount: '100.50', remark: '活动补偿' }))
        .body.code,
    ).toBe(0);
    const after = (
      await db.selectFrom('accounts').select('balance').where('clientid', '=', 'agent1').executeTakeFirstOrThrow()
    ).balance;
    expect(Number(after) - Number(before)).toBeCloseTo(100.5, 2);
    expect(
      (await ops.post('/api/operator/customers/credit', { clientid: 'agent1', amount: '-99999999', remark: '扣减' }))
        .body.code,
    ).not.toBe(0);
    const bad =
      await sql`select a.clientid from accounts a left join (select account_id, sum(amount) s from ledger group by account_id) l on l.account_id = a.id
      where a.balance <> coalesce(l.s, 0)`.execute(db);
    expect(bad.rows).toEqual([]);
    const log = await db
      .selectFrom('audit_log')
      .select(['action', 'operator_name', 'remark'])
      .where('operator_name', '=', 'operator1')
      .where('action', '<>', 'operator.login')
      .orderBy('id')
      .execute();
    expect(log.map((x) => x.action)).toEqual([
      'account.freeze',
      'account.unfreeze',
      'account.unlock',
      'account.reset-password',
      'account.credit',
    ]);
    expect(log.find((x) => x.action === 'account.credit')!.remark).toBe('活动补偿');
    // the new password is in no audit row
    const rows = await db.selectFrom('audit_log').select(['before', 'after', 'remark']).execute();
    expect(JSON.stringify(rows)).not.toContain(pw);
  });

  it('logs an operator in as any active account through the accounts\u2019 log-in-as, audited', async () => {
    const db = t.server.handle.db;
    const reason = '客户反馈发送失败，核查其发送设置';
    const reviewer = await as(t.server, 'reviewer1');
    expect(
      (await reviewer.post('/api/operator/customers/login-as', { clientid: 'client1', remark: reason })).body.code,
    ).toBe(403);
    const ops = await as(t.server, 'operator1');
    const auditCount = async () =>
      Number(
        (
          await db
            .selectFrom('audit_log')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('action', '=', 'account.login-as')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const tokens = async () =>
      Number(
        (
          await db
            .selectFrom('login_as_tokens')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const tokensBefore = await tokens();
    // the reason is required (trimmed); an unknown account; a frozen one (client2): nothing written
    expect((await ops.post('/api/operator/customers/login-as', { clientid: 'client1' })).body).toMatchObject({
      code: 400,
      msg: '请填写登录原因',
    });
    expect(
      (await ops.post('/api/operator/customers/login-as', { clientid: 'client1', remark: '   ' })).body,
    ).toMatchObject({ code: 400, msg: '请填写登录原因' });
    expect(
      (await ops.post('/api/operator/customers/login-as', { clientid: 'client1', remark: 'x'.repeat(201) })).body.code,
    ).toBe(400);
    expect(
      (await ops.post('/api/operator/customers/login-as', { clientid: 'nobody99', remark: reason })).body.code,
    ).toBe(404);
    expect(
      (await ops.post('/api/operator/customers/login-as', { clientid: 'client2', remark: reason })).body,
    ).toMatchObject({ code: 500, msg: '账户已冻结，请先解冻' });
    expect(await auditCount()).toBe(0);
    expect(await tokens()).toBe(tokensBefore);

    // a sub-account: the token and its audit row; redeemed in the operator's browser, whose operator session ends
    const r = await ops.post('/api/operator/customers/login-as', { clientid: 'client1', remark: `  ${reason}  ` });
    expect(r.body).toMatchObject({ code: 0, data: { clientid: 'client1' } });
    const token: string = r.body.data.token;
    expect(token).toMatch(/^\S{20,}$/);
    const me = (await ops.get('/api/operator/me')).body.data;
    const row = await db
      .selectFrom('login_as_tokens')
      .selectAll()
      .where('operator_id', '=', me.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ agent_id: null, used_at: null });
    expect(row.id).not.toBe(token);
    const log = await db.selectFrom('audit_log').selectAll().where('action', '=', 'account.login-as').execute();
    expect(log).toHaveLength(1);
    const client1 = await db
      .selectFrom('accounts')
      .select('id')
      .where('clientid', '=', 'client1')
      .executeTakeFirstOrThrow();
    expect(log[0]).toMatchObject({
      operator_name: 'operator1',
      target: 'accounts',
      target_id: String(client1.id),
      account_id: client1.id,
      remark: reason,
    });
    expect(
      (await ops.post('/api/operator/audit/list', { action: 'account.login-as' })).body.data.list[0],
    ).toMatchObject({ clientid: 'client1', remark: reason });
    const opSessions = async () =>
      Number(
        (
          await db
            .selectFrom('operator_sessions')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('operator_id', '=', me.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const sessionsBefore = await opSessions();
    expect((await ops.post('/api/client/loginAs/enter', { token })).body).toMatchObject({
      code: 0,
      msg: '登录成功',
      data: { clientid: 'client1' },
    });
    expect((await ops.get('/api/admin/info')).body.data).toMatchObject({ clientid: 'client1', userType: '2' });
    expect((await ops.get('/api/operator/me')).body.code).toBe(401);
    expect(await opSessions()).toBe(sessionsBefore - 1);
    // once only
    expect((await (await t.server.client().init()).post('/api/client/loginAs/enter', { token })).body).toMatchObject({
      code: 500,
      msg: '登录凭证无效或已过期',
    });
    // the token itself is in no audit row
    expect(JSON.stringify(await db.selectFrom('audit_log').selectAll().execute())).not.toContain(token);

    // an agent too (not only an agent's own sub-accounts)
    const ops2 = await as(t.server, 'operator1');
    const agentToken = (await ops2.post('/api/operator/customers/login-as', { clientid: 'agent1', remark: reason }))
      .body.data.token;
    expect((await ops2.post('/api/client/loginAs/enter', { token: agentToken })).body).toMatchObject({
      code: 0,
      data: { clientid: 'agent1' },
    });
    expect((await ops2.get('/api/admin/info')).body.data).toMatchObject({ clientid: 'agent1', userType: '1' });

    // frozen after the token was issued: refused when redeemed
    const ops3 = await as(t.server, 'operator1');
    const late = (await ops3.post('/api/operator/customers/login-as', { clientid: 'client3', remark: reason })).body
      .data.token;
    expect((await ops3.post('/api/operator/customers/freeze', { clientid: 'client3' })).body.code).toBe(0);
    expect(
      (await (await t.server.client().init()).post('/api/client/loginAs/enter', { token: late })).body,
    ).toMatchObject({ code: 500, msg: '账户状态异常，无法登录' });
    expect((await ops3.post('/api/operator/customers/unfreeze', { clientid: 'client3' })).body.code).toBe(0);
    // an operator disabled after issuing one: its token no longer opens anything
    await runCommand({ db, now: t.server.clock.now }, ['operator-add', 'second.ops', 'Passw0rd!', '2']);
    const second = await as(t.server, 'second.ops', 'Passw0rd!');
    const orphan = (await second.post('/api/operator/customers/login-as', { clientid: 'client1', remark: reason })).body
      .data.token;
    await db.updateTable('operators').set({ status: 2 }).where('name', '=', 'second.ops').execute();
    expect(
      (await (await t.server.client().init()).post('/api/client/loginAs/enter', { token: orphan })).body,
    ).toMatchObject({ code: 500, msg: '登录凭证无效或已过期' });
    // an agent's token still opens only its own sub-account
    const agent = await as(t.server, 'agent1');
    const own = (await agent.post('/api/client/loginAs', { clientId: 'client1' })).body.data.token;
    expect((await agent.post('/api/client/loginAs/enter', { token: own })).body.data.clientid).toBe('client1');
    expect(await auditCount()).toBe(4);
  });

  it('lets a 管理员 add, pause, resume and remove channels, and preview a route', async () => {
    const { db } = t.server.handle;
    await runCommand({ db, now: t.server.clock.now }, ['operator-add', 'root.admin', 'Passw0rd!', '3', '--no-totp']);
    const admin = await as(t.server, 'root.admin', 'Passw0rd!');
    const ops = await as(t.server, 'operator1');
    expect((await ops.get('/api/operator/channels/list')).body.code).toBe(403);
    expect((await admin.post('/api/operator/channels/save', { name: 'cm1', url: 'ftp://x' })).body.msg).toMatch(
      /^通道设置有误/,
    );
    expect(
      (await admin.post('/api/operator/channels/save', { name: 'bad name', url: 'smpp://a:b@127.0.0.1:2775' })).body
        .code,
    ).toBe(400);
    expect((await admin.post('/api/operator/channels/save', { name: 'cm1' })).body.msg).toBe('请输入通道地址');
    const save = await admin.post(
      '/api/operator/channels/save',
      { name: 'cm1', url: 'cmpp://901234:Secret99@127.0.0.1:7891?version=3', carriers: [1], priority: 0, weight: 2 },
      { json: true },
    );
    expect(save.body).toMatchObject({ code: 0, msg: '通道已保存，运行中的工作进程数秒内生效' });
    await admin.post('/api/operator/channels/save', {
      name: 'all1',
      url: 'smpp://sys:Pass77@127.0.0.1:2776',
      priority: 5,
    });
    let list = (await admin.get('/api/operator/channels/list')).body.data;
    const cm1 = list.find((c: { name: string }) => c.name === 'cm1');
    expect(cm1).toMatchObject({
      where: 'cmpp://901234@127.0.0.1:7891',
      carriers: [1],
      weight: 2,
      enabled: true,
      source: 'db',
      bound: 0,
    });
    expect(JSON.stringify(list)).not.toContain('Secret99');
    // an edit without a URL keeps the stored one
    expect(
      (await admin.post('/api/operator/channels/save', { name: 'cm1', carriers: [1], weight: 3 }, { json: true })).body
        .code,
    ).toBe(0);
    expect(
      (
        await db
          .selectFrom('dispatch_channels')
          .select(['url', 'weight'])
          .where('name', '=', 'cm1')
          .executeTakeFirstOrThrow()
      ).url,
    ).toContain('Secret99');
    // the route of a China Mobile number: cm1 first (priority 0), all1 behind it
    const preview = (await admin.post('/api/operator/channels/route', { phone: '13800138000', smstype: 0 })).body.data;
    expect(preview.carrier).toBe(1);
    expect(preview.candidates.map((c: { name: string }) => c.name)).toEqual(['cm1', 'all1']);
    expect(preview.candidates[0].share).toBe(100);
    // paused: out of routing (the workers read enabled rows only)
    expect((await admin.post('/api/operator/channels/pause', { name: 'cm1' })).body.msg).toBe('通道已暂停');
    expect(
      (await db.selectFrom('dispatch_channels').select('enabled').where('name', '=', 'cm1').executeTakeFirstOrThrow())
        .enabled,
    ).toBe(false);
    expect(
      (await admin.post('/api/operator/channels/route', { phone: '13800138000', smstype: 0 })).body.data.candidates.map(
        (c: { name: string }) => c.name,
      ),
    ).toEqual(['all1']);
    expect((await admin.post('/api/operator/channels/resume', { name: 'cm1' })).body.msg).toBe('通道已恢复');
    expect((await admin.post('/api/operator/channels/remove', { name: 'cm1' })).body.msg).toBe('通道已删除');
    expect((await admin.post('/api/operator/channels/remove', { name: 'cm1' })).body.code).toBe(404);
    list = (await admin.get('/api/operator/channels/list')).body.data;
    expect(list.map((c: { name: string }) => c.name)).toEqual(['all1']);
    const log = await db
      .selectFrom('audit_log')
      .select(['action', 'before', 'after'])
      .where('target', '=', 'dispatch_channels')
      .orderBy('id')
      .execute();
    expect(log.map((x) => x.action)).toEqual([
      'channel.save',
      'channel.save',
      'channel.save',
      'channel.pause',
      'channel.resume',
      'channel.remove',
    ]);
    expect(JSON.stringify(log)).not.toContain('Secret99');
  });

  it('lets a 管理员 add operators (the TOTP secret once) and disable them', async () => {
    const { db } = t.server.handle;
    await runCommand({ db, now: t.server.clock.now }, ['operator-add', 'boss.admin', 'Passw0rd!', '3', '--no-totp']);
    const admin = await as(t.server, 'boss.admin', 'Passw0rd!');
    const digest = (p: string) => createHash('sha256').update(p).digest('hex');
    expect(
      (await admin.post('/api/operator/operators/add', { name: 'a1234567', password: digest('x'), role: 1 })).body.code,
    ).toBe(400);
    expect(
      (await admin.post('/api/operator/operators/add', { name: 'reviewer1', password: digest('Passw0rd!'), role: 1 }))
        .body.msg,
    ).toBe('登录名已被使用');
    const added = await admin.post(
      '/api/operator/operators/add',
      { name: 'new.reviewer', password: digest('Passw0rd!'), role: 1, totp: true },
      { json: true },
    );
    expect(added.body).toMatchObject({
      code: 0,
      data: { operator: { name: 'new.reviewer', role: 1, totpEnabled: true } },
    });
    expect(added.body.data.totpUri).toMatch(/^otpauth:\/\/totp\//);
    const o = await db.selectFrom('operators').selectAll().where('name', '=', 'new.reviewer').executeTakeFirstOrThrow();
    expect(o.totp_secret).toBe(added.body.data.totpSecret);
    const them = await as(t.server, 'new.reviewer', 'Passw0rd!', {
      totp: OperatorService.totpNow(o, t.server.clock.now()),
    });
    expect((await them.get('/api/operator/me')).body.data.name).toBe('new.reviewer');
    // disabled: its session ends and it may not log in; an admin may not disable itself
    const me = (await admin.get('/api/operator/me')).body.data;
    expect((await admin.post('/api/operator/operators/status', { id: me.id, status: 2 })).body.msg).toBe(
      '不能停用自己',
    );
    expect((await admin.post('/api/operator/operators/status', { id: o.id, status: 2 })).body.code).toBe(0);
    expect((await them.get('/api/operator/me')).body.code).toBe(401);
    expect((await (await t.server.client().init()).login('new.reviewer', 'Passw0rd!')).body.msg).toBe(
      '用户名或密码错误',
    );
    const log = await db
      .selectFrom('audit_log')
      .select(['action', 'after'])
      .where('target', '=', 'operators')
      .where('target_id', '=', String(o.id))
      .orderBy('id')
      .execute();
    expect(log.map((x) => x.action)).toEqual(['operator.add', 'operator.login', 'operator.status']);
    expect(JSON.stringify(log)).not.toContain(o.totp_secret);
  });

  it('adds sensitive words that every check uses at once, removes them, audited', async () => {
    const { db } = t.server.handle;
    const ops = await as(t.server, 'operator1');
    const client = await as(t.server, 'client1');
    const text = '【好易购】周末特价，加微信领取蓝鲸优惠券';
    const clean = (await client.post('/api/content/content/test', { content: text })).body;
    expect(clean.data).toEqual({ 200: 'ok' });
    expect((await ops.post('/api/operator/words/add', { words: '  ' })).body.code).toBe(400);
    expect((await ops.post('/api/operator/words/add', { words: 'x'.repeat(51) })).body.msg).toBe(
      '敏感词不能超过50个字符',
    );
    const add = await ops.post('/api/operator/words/add', { words: '蓝鲸优惠券\n# 注释\n蓝鲸优惠券\n蓝鲸刷单群\n' });
    expect(add.body).toMatchObject({ code: 0, msg: '已添加 2 个' });
    expect((await ops.post('/api/operator/words/add', { words: '蓝鲸刷单群' })).body.msg).toBe(
      '已添加 0 个，1 个已存在',
    );
    // a word of the list file is not added again
    expect((await ops.post('/api/operator/words/add', { words: '代开发票' })).body.msg).toBe('已添加 0 个，1 个已存在');
    // the user's own check and the operator's test see it at once
    expect((await client.post('/api/content/content/test', { content: text })).body.data).toEqual({
      500: `${text.indexOf('蓝鲸')},${text.indexOf('蓝鲸') + 5}`,
    });
    expect((await ops.post('/api/operator/words/test', { content: text })).body.msg).toBe('检测到敏感内容');
    const list = (await ops.post('/api/operator/words/list', { word: '优惠' })).body.data;
    expect(list.list).toEqual([expect.objectContaining({ word: '蓝鲸优惠券', createdBy: 'operator1' })]);
    expect(list.fileCount).toBeGreaterThan(0);
    // another process over the same database picks them up within seconds
    const other = await buildApp({
      db: t.server.handle.db,
      dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'op-words-')),
      purgeEveryMs: 0,
    });
    try {
      await other.ready();
      // its sync reads the table within WORDS_SYNC_MS
      await vi.waitFor(() => expect(other.ctx.words.contains(text)).toBe(true), { timeout: 5000, interval: 50 });
    } finally {
      await other.close();
    }
    expect((await ops.post('/api/operator/words/remove', { id: list.list[0].id })).body.msg).toBe('删除成功');
    expect((await client.post('/api/content/content/test', { content: text })).body.data).toEqual({ 200: 'ok' });
    const log = await db
      .selectFrom('audit_log')
      .select(['action', 'after', 'before'])
      .where('target', '=', 'sensitive_words')
      .orderBy('id')
      .execute();
    expect(log.map((x) => x.action)).toEqual(['words.add', 'words.remove']);
    expect(log[0].after).toMatchObject({ count: 2 });
    expect(log[1].before).toEqual({ word: '蓝鲸优惠券' });
  });

  it('publishes and deletes notices that the accounts read, cleaned, audited', async () => {
    const ops = await as(t.server, 'operator1');
    const agent = await as(t.server, 'agent1');
    const total = (await ops.post('/api/operator/notices/list', {})).body.data.totalCount;
    expect(total).toBeGreaterThan(0);
    expect(
      (await ops.post('/api/operator/notices/publish', { name: '系统维护通知', html: '<script>alert(1)</script>' }))
        .body,
    ).toMatchObject({
      code: 400,
      msg: '公告内容不能为空',
    });
    const html = '<p>今晚 <b>22:00</b> 系统维护<img src=x onerror="alert(1)"></p><script>alert(2)</script>';
    expect(
      (await ops.post('/api/operator/notices/publish', { name: '系统维护通知', html, top: true }, { json: true })).body,
    ).toMatchObject({ code: 0, msg: '发布成功' });
    const mine = (await ops.post('/api/operator/notices/list', {})).body.data;
    expect(mine.totalCount).toBe(total + 1);
    expect(mine.list[0]).toMatchObject({ name: '系统维护通知', top: true });
    const seen = (await agent.post('/api/agent/noticePage', { page: 1, rows: 5 })).body.data;
    const n = seen.data.find((x: object) => JSON.stringify(x).includes('系统维护通知'));
    expect(n).toBeTruthy();
    expect(JSON.stringify(n)).not.toMatch(/script|onerror/);
    expect((await ops.post('/api/operator/notices/delete', { id: mine.list[0].id })).body.msg).toBe('删除成功');
    expect((await ops.post('/api/operator/notices/delete', { id: mine.list[0].id })).body.code).toBe(404);
    const log = await t.server.handle.db
      .selectFrom('audit_log')
      .select('action')
      .where('target', '=', 'notices')
      .orderBy('id')
      .execute();
    expect(log.map((x) => x.action)).toEqual(['notice.publish', 'notice.delete']);
  });

  it('serves the 监控 series to 运营 and 管理员', async () => {
    const ops = await as(t.server, 'operator1');
    const r = await ops.get('/api/operator/monitor?range=day');
    expect(r.body.code).toBe(0);
    expect(r.body.data.range).toBe('day');
    expect((await ops.get('/api/operator/monitor?range=week')).body.code).toBe(400);
    expect((await (await as(t.server, 'reviewer1')).get('/api/operator/monitor')).body.code).toBe(403);
  });
});
