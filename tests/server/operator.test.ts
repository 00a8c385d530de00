/**
 * Operators (issue 39, docs/api-operator.md): login on /login with roles and TOTP, the two kinds
 * of session kept apart (no account route for an operator, no operator route for an account), the
 * review decisions through the CLI's functions with their audit rows in the same transaction,
 * idempotent decisions, the audit log's filters, operator-add.
 */
import { describe, expect, it } from 'vitest';
import { backends, useServer, type Client, type TestServer } from './harness';
import { OperatorService } from '../../server/modules/operator';
import { runCommand } from '../../server/cli/operator-channel';
import { OperatorRole } from '../../common/generated/schemas';

async function as(server: TestServer, who: string, password?: string, extra: Record<string, unknown> = {}): Promise<Client> {
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
  ['post', '/api/operator/audit/list', {}],
  ['get', '/api/operator/operators/list'],
];

const call = (c: Client, [m, p, b]: (typeof OPERATOR_ROUTES)[number]) => (m === 'get' ? c.get(p) : c.post(p, b ?? {}));

describe.each(backends)('operators (%s)', (backend) => {
  const t = useServer(backend);

  it('logs an operator in on /login, apart from the accounts', async () => {
    const anon = await t.server.client().init();
    const r = await anon.login('reviewer1');
    expect(r.body).toMatchObject({ code: 0, msg: '登录成功', data: { userType: '3', clientid: 'reviewer1', role: OperatorRole.Reviewer } });
    expect((await anon.get('/api/login/timeout')).body.data).toBe(true);
    expect((await anon.get('/api/operator/me')).body.data).toMatchObject({ name: 'reviewer1', role: 1, totpEnabled: false });
    // no account route for an operator's session
    expect((await anon.get('/api/admin/info')).body.code).toBe(401);
    expect((await anon.post('/api/sign/list', {})).body.code).toBe(401);
    // its login is audited
    const log = await t.server.handle.db.selectFrom('audit_log').selectAll().where('action', '=', 'operator.login').execute();
    expect(log.map((x) => x.operator_name)).toContain('reviewer1');
    // a wrong password: the accounts' answer and lockout
    expect((await (await t.server.client().init()).login('reviewer1', 'Wrong1234')).body).toMatchObject({ code: 500, msg: '用户名或密码错误' });
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
    const ops = await as(t.server, 'operator1');
    expect((await ops.post('/api/operator/audit/list', {})).body.code).toBe(0);
    expect((await ops.get('/api/operator/operators/list')).body.code).toBe(403);
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
    expect((await reviewer.post('/api/operator/review/signs/decide', { id: s.id, approve: false })).body).toMatchObject({ code: 400, msg: '请填写驳回原因' });
    expect((await reviewer.post('/api/operator/review/signs/decide', { id: s.id, approve: false, reason: '签名与企业名称不符' })).body).toMatchObject({ code: 0, msg: '已驳回' });
    const row = await db.selectFrom('signs').select(['state', 'cause', 'reviewed_by']).where('id', '=', s.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ state: 2, cause: '签名与企业名称不符', reviewed_by: 'reviewer1' });
    // the same decision again: nothing written, who took it said
    expect((await reviewer.post('/api/operator/review/signs/decide', { id: s.id, approve: false, reason: '签名与企业名称不符' })).body).toMatchObject({
      code: 0,
      msg: '已审核（reviewer1）',
    });
    const audits = await db.selectFrom('audit_log').selectAll().where('target', '=', 'signs').where('target_id', '=', String(s.id)).execute();
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ action: 'sign.reject', operator_name: 'reviewer1', before: { state: 0 }, after: { state: 2, cause: '签名与企业名称不符' } });
    // then approved after all
    expect((await reviewer.post('/api/operator/review/signs/decide', { id: s.id, approve: true })).body.msg).toBe('已通过');
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
      expect((await reviewer.post('/api/operator/review/templates/decide', { id: tp.id, approve: true })).body.msg).toBe('已通过');
      const tr = await db.selectFrom('templates').select(['state', 'reviewed_by']).where('id', '=', tp.id).executeTakeFirstOrThrow();
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
      expect(await db.selectFrom('audit_log').select('action').where('target', '=', 'templates').where('target_id', '=', String(tp.id)).execute()).toEqual([
        { action: 'template.approve' },
      ]);
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
    expect((await reviewer.post('/api/operator/review/signs/decide', { id: 999999, approve: true })).body.code).toBe(404);
    const inv = (await reviewer.post('/api/operator/review/invoices/list', { pending: false })).body.data.list;
    if (inv.length) {
      // a move the transitions refuse: 409 with the CLI's explanation
      const bad = inv.find((i: { next: number[]; status: number }) => !i.next.includes(0) && i.status !== 0);
      if (bad) expect((await reviewer.post('/api/operator/review/invoices/status', { id: bad.id, status: 0 })).body.code).toBe(409);
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
    expect((await reviewer.post('/api/operator/review/certifications/decide', { id: c.id, approve: true })).body).toMatchObject({ code: 0, msg: '已通过' });
    const a = await db.selectFrom('accounts').select('oauth_status').where('clientid', '=', c.clientid).executeTakeFirstOrThrow();
    expect(a.oauth_status).toBe(3);
    const entry = await db.selectFrom('audit_log').selectAll().where('action', '=', 'certification.approve').executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ operator_name: 'reviewer1', target: 'certifications', target_id: String(c.id) });
    // a file that is no certification's image: not found, even for an operator
    expect((await reviewer.get('/api/operator/files/client1/abcdefgh.png')).body.code).toBe(404);
  });

  it('lists the audit log with its filters', async () => {
    const ops = await as(t.server, 'operator1');
    await as(t.server, 'reviewer1');
    const all = (await ops.post('/api/operator/audit/list', {})).body.data;
    expect(all.totalCount).toBeGreaterThanOrEqual(2);
    const mine = (await ops.post('/api/operator/audit/list', { operator: 'reviewer1', action: 'operator.login' })).body.data;
    expect(mine.list.length).toBeGreaterThan(0);
    for (const e of mine.list) expect(e).toMatchObject({ operator: 'reviewer1', action: 'operator.login' });
    expect((await ops.post('/api/operator/audit/list', { action: 'nope' })).body.code).toBe(400);
    expect((await ops.post('/api/operator/audit/list', { start_time: '2026-02-02', end_time: '2026-01-01' })).body).toMatchObject({ code: 400, msg: '开始时间不能晚于结束时间' });
  });

  it('adds operators with the CLI; a 管理员 logs in with its TOTP code, once per code', async () => {
    const { db } = t.server.handle;
    const run = (argv: string[]) => runCommand({ db, now: t.server.clock.now }, argv);
    expect((await run(['operator-add', 'a1234567', 'Passw0rd!', '1'])).code).not.toBe(0);
    expect((await run(['operator-add', 'client1', 'Passw0rd!', '1'])).code).not.toBe(0);
    expect((await run(['operator-add', 'chief.admin', 'Passw0rd!', '9'])).code).not.toBe(0);
    const r = await run(['operator-add', 'chief.admin', 'Passw0rd!', '管理员']);
    expect(r.code).toBe(0);
    expect(r.lines.join('\n')).toMatch(/otpauth:\/\/totp\//);
    const o = await db.selectFrom('operators').selectAll().where('name', '=', 'chief.admin').executeTakeFirstOrThrow();
    expect(o).toMatchObject({ role: 3, totp_enabled: true });
    const c = await t.server.client().init();
    expect((await c.login('chief.admin', 'Passw0rd!')).body).toMatchObject({ code: 428, msg: '请输入动态验证码' });
    const code = OperatorService.totpNow(o, t.server.clock.now());
    expect((await c.login('chief.admin', 'Passw0rd!', { totp: code === '000000' ? '111111' : '000000' })).body.msg).toBe('动态验证码错误');
    expect((await c.login('chief.admin', 'Passw0rd!', { totp: code })).body).toMatchObject({ code: 0, data: { userType: '3', role: 3 } });
    // the same code again is refused (replay)
    expect((await (await t.server.client().init()).login('chief.admin', 'Passw0rd!', { totp: code })).body.msg).toBe('动态验证码错误');
    expect((await c.get('/api/operator/operators/list')).body.data.map((x: { name: string }) => x.name)).toEqual(expect.arrayContaining(['reviewer1', 'operator1', 'chief.admin']));
    const listed = await run(['operators']);
    expect(listed.lines.join('\n')).toContain('chief.admin');
  });
});
