import { beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/lib/crypto';
import { runCommand } from '../../server/cli/operator-channel';
import { countVariables } from '../../common/template/rules';
import { backends, DEMO_PASSWORD, useServer, type Client, type TestServer } from './harness';

async function addAccount(server: TestServer, clientid: string, userType: '1' | '2', agent?: string, mode = '1') {
  const db = server.handle.db;
  const agentId = agent
    ? (await db.selectFrom('accounts').select('id').where('clientid', '=', agent).executeTakeFirstOrThrow()).id
    : null;
  await db
    .insertInto('accounts')
    .values({
      clientid,
      user_type: userType,
      agent_id: agentId,
      operation_mode: mode,
      name: `${clientid} 公司`,
      password_hash: await hashPassword(DEMO_PASSWORD),
      status: 1,
      oauth_status: 3,
    })
    .execute();
  // a template's sign must be one the account has had approved (as every send requires)
  const { id } = await db
    .selectFrom('accounts')
    .select('id')
    .where('clientid', '=', clientid)
    .executeTakeFirstOrThrow();
  await db.insertInto('signs').values({ account_id: id, clientid, sign: '好易购', state: 1 }).execute();
}

async function templateCount(server: TestServer) {
  const r = await server.handle.db
    .selectFrom('templates')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

const valid = {
  clientId: 'client1',
  smsType: 10,
  templateType: 1,
  business: 0,
  smstype: 4,
  sign: '好易购',
  content: '您的验证码是{code}，请在5分钟内完成验证。',
};

describe.each(backends)('templates (%s)', (backend) => {
  const t = useServer(backend);
  let agent1: Client, client1: Client, agent0: Client, client2: Client;

  beforeAll(async () => {
    await addAccount(t.server, 'tpl2', '2', 'agent1');
    await addAccount(t.server, 'tpl0', '2', 'agent0', '0');
    const login = async (name: string) => {
      const c = await t.server.client().init();
      const r = await c.login(name);
      expect(r.body.code, `${name}: ${r.body.msg}`).toBe(0);
      return c;
    };
    agent1 = await login('agent1');
    client1 = await login('client1');
    agent0 = await login('agent0');
    await login('tpl0'); // tpl0 has logged in once (a sub-account of agent0 beside client0)
    client2 = await login('tpl2');
  });

  const list = (c: Client, params: Record<string, unknown> = {}) => c.post('/api/autoTemplate/list', params);

  describe('variables', () => {
    it('counts {name} and {1} markers', () => {
      expect(countVariables('您好{name}，验证码{1}，{  }不是变量，{a-b}也不是')).toBe(2);
      expect(countVariables('无变量')).toBe(0);
    });
  });

  describe('POST /autoTemplate/list', () => {
    it('needs a session', async () => {
      const r = await (await t.server.client().init()).post('/api/autoTemplate/list', {});
      expect(r.body).toEqual({ code: 401, msg: '登录超时' });
    });

    it("gives an agent its sub-accounts' templates in {entityList,totalCount}, newest first, with isCreateor", async () => {
      const r = await list(agent1);
      expect(r.body.code).toBe(0);
      expect(r.body.data.totalCount).toBe(6);
      const rows = r.body.data.entityList;
      expect(rows).toHaveLength(6);
      expect(rows.map((x: any) => x.createTimeStr)).toEqual(
        [...rows.map((x: any) => x.createTimeStr)].sort().reverse(),
      );
      const verification = rows.find((x: any) => x.content.startsWith('您的好易购登录验证码'));
      expect(verification).toMatchObject({
        clientId: 'client1',
        smsType: 10,
        templateType: 1,
        business: 0,
        smstype: 4,
        sign: '好易购',
        state: 1,
        remark: '',
        userName: 'agent1',
        varibleCount: 1,
        isCreateor: 1,
      });
      expect(verification.createTimeStr).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(rows.find((x: any) => x.userName === 'client1').isCreateor).toBe(0);
      const rejected = rows.filter((x: any) => x.state === 3);
      expect(rejected.map((x: any) => x.remark)).toContain('签名与企业名称不符，请使用已报备的签名');
    });

    it('gives a sub-account only its own, with isCreateor from its point of view', async () => {
      const r = await list(client1);
      expect(r.body.data.totalCount).toBe(6);
      for (const row of r.body.data.entityList) expect(row.isCreateor).toBe(row.userName === 'client1' ? 1 : 0);
      expect((await list(client2)).body.data).toMatchObject({ entityList: [], totalCount: 0 });
    });

    it('keeps other agents out', async () => {
      expect((await list(agent0)).body.data.totalCount).toBe(0);
      expect((await list(agent0, { clientId: 'client1' })).body).toEqual({ code: 403, msg: '无权访问' });
      expect((await list(client2, { clientId: 'client1' })).body).toEqual({ code: 403, msg: '无权访问' });
    });

    it('filters by state, smsType, templateType, templateId, sign, content, clientId and creation dates', async () => {
      expect((await list(agent1, { state: 3 })).body.data.totalCount).toBe(2);
      expect((await list(agent1, { state: 0 })).body.data.entityList.every((x: any) => x.state === 0)).toBe(true);
      expect((await list(agent1, { smsType: 11 })).body.data.totalCount).toBe(2);
      expect((await list(agent1, { templateType: 0 })).body.data.totalCount).toBe(2);
      expect((await list(agent1, { sign: '易购' })).body.data.totalCount).toBe(6);
      expect((await list(agent1, { sign: '好易购' })).body.data.totalCount).toBe(5);
      expect((await list(agent1, { content: '积分' })).body.data.totalCount).toBe(1);
      expect((await list(agent1, { content: '100%' })).body.data.totalCount).toBe(0);
      expect((await list(agent1, { clientId: 'client1' })).body.data.totalCount).toBe(6);
      expect((await list(agent1, { clientId: 'tpl2' })).body.data.totalCount).toBe(0);
      const first = (await list(agent1)).body.data.entityList[0];
      const byId = (await list(agent1, { templateId: first.templateId })).body.data;
      expect(byId.entityList.map((x: any) => x.templateId)).toEqual([first.templateId]);
      expect((await list(agent1, { templateId: 'abc' })).body.data.totalCount).toBe(0);
      // seeded 2026-03-02 .. 2026-03-07 (Asia/Shanghai)
      expect(
        (await list(agent1, { createStartTime: '2026-03-03', createEndTime: '2026-03-04' })).body.data.totalCount,
      ).toBe(2);
      expect((await list(agent1, { createEndTime: '2026-03-02' })).body.data.totalCount).toBe(1);
    });

    it('checks its filter by filters/template-smart: dates, enum values, the range order, lengths', async () => {
      expect((await list(agent1, { createStartTime: '2026-03-05', createEndTime: '2026-03-03' })).body).toMatchObject({
        code: 400,
        msg: '开始时间不能晚于结束时间',
      });
      expect((await list(agent1, { createStartTime: '2026-02-30' })).body.code).toBe(400);
      expect((await list(agent1, { state: 42 })).body.code).toBe(400);
      expect((await list(agent1, { templateId: '9'.repeat(41) })).body).toMatchObject({ code: 400, msg: '参数错误' });
      // empty values mean "any"; a sub-account naming itself sees its own
      expect((await list(agent1, { state: '', sign: '', createStartTime: '' })).body.data.totalCount).toBe(6);
      expect((await list(client1, { clientId: 'client1' })).body.code).toBe(0);
    });

    it('pages with currentPage and pageRowCount', async () => {
      const r = await list(agent1, { currentPage: 2, pageRowCount: 4 });
      expect(r.body.data).toMatchObject({ totalCount: 6, currentPage: 2, pageRowCount: 4 });
      expect(r.body.data.entityList).toHaveLength(2);
    });
  });

  describe('POST /autoTemplate/commonlist', () => {
    it("lists the platform's general templates to everyone logged in, with filters", async () => {
      const all = await client2.post('/api/autoTemplate/commonlist', {});
      expect(all.body.code).toBe(0);
      expect(all.body.data.totalCount).toBe(11);
      expect(all.body.data.entityList[0]).toMatchObject({
        orderNo: 1,
        state: 1,
        isCreateor: 0,
        clientId: '',
        smsType: 10,
      });
      expect((await agent0.post('/api/autoTemplate/commonlist', { smsType: 11 })).body.data.totalCount).toBe(3);
      expect((await agent0.post('/api/autoTemplate/commonlist', { templateType: 0 })).body.data.totalCount).toBe(3);
      expect((await agent0.post('/api/autoTemplate/commonlist', { content: '验证码' })).body.data.totalCount).toBe(3);
      expect((await (await t.server.client().init()).post('/api/autoTemplate/commonlist', {})).body.code).toBe(401);
    });

    it('filters by 短信类型 (smstype): the send page offers only templates of the chosen type', async () => {
      for (const c of [agent0, client1]) {
        const all = (await c.post('/api/autoTemplate/commonlist', { pageRowCount: 100 })).body.data.entityList as {
          smstype?: number;
        }[];
        const types = [...new Set(all.map((x) => x.smstype).filter((x) => x !== undefined && x !== null))];
        expect(types.length).toBeGreaterThan(0);
        for (const type of types) {
          const r = await c.post('/api/autoTemplate/commonlist', { smstype: type, pageRowCount: 100 });
          expect(r.body.code).toBe(0);
          expect(r.body.data.totalCount).toBe(all.filter((x) => x.smstype === type).length);
          expect(r.body.data.entityList.every((x: { smstype: number }) => x.smstype === type)).toBe(true);
        }
      }
      const own = (await list(client1, { smstype: 4, pageRowCount: 100 })).body.data;
      expect(own.entityList.every((x: { smstype: number }) => x.smstype === 4)).toBe(true);
    });
  });

  describe('GET /autoTemplate/autoTemplateAccounts', () => {
    it('gives an agent its sub-accounts', async () => {
      const r = await agent1.get('/api/autoTemplate/autoTemplateAccounts?agentId=agent1');
      expect(r.body.code).toBe(0);
      expect(r.body.data).toEqual([
        { clientid: 'client1', name: '苏州好易购电子商务有限公司' },
        { clientid: 'client3', name: '宁波港航物流有限公司' }, // seeded; frozen client2 is not offered
        { clientid: 'tpl2', name: 'tpl2 公司' },
      ]);
      expect(
        (await agent0.get('/api/autoTemplate/autoTemplateAccounts')).body.data.map((c: any) => c.clientid),
      ).toEqual(['client0', 'tpl0']);
    });

    it("refuses another agent's id and sub-accounts", async () => {
      expect((await agent0.get('/api/autoTemplate/autoTemplateAccounts?agentId=agent1')).body).toEqual({
        code: 403,
        msg: '无权访问',
      });
      expect((await client1.get('/api/autoTemplate/autoTemplateAccounts?agentId=agent1')).body).toEqual({
        code: 403,
        msg: '无权访问',
      });
    });
  });

  describe('POST /autoTemplate/add', () => {
    it("adds a template for the agent's sub-account, pending review", async () => {
      const r = await agent1.post('/api/autoTemplate/add', valid);
      expect(r.body).toMatchObject({ code: 0, msg: '新增成功，请等待审核' });
      expect(r.body.data).toMatchObject({
        clientId: 'client1',
        userName: 'agent1',
        state: 0,
        varibleCount: 1,
        isCreateor: 1,
        smstype: 4,
      });
      const seen = (await list(client1, { templateId: r.body.data.templateId })).body.data.entityList[0];
      expect(seen).toMatchObject({ userName: 'agent1', isCreateor: 0, state: 0 });
    });

    it('a sub-account adds for itself, whatever clientId says', async () => {
      const r = await client2.post('/api/autoTemplate/add', { ...valid, clientId: 'client1' });
      expect(r.body.code).toBe(0);
      expect(r.body.data).toMatchObject({ clientId: 'tpl2', userName: 'tpl2', isCreateor: 1 });
      const { clientId: _c, ...noClient } = valid;
      expect((await client2.post('/api/autoTemplate/add', noClient)).body.code).toBe(0);
    });

    it("answers the schema's messages and changes nothing", async () => {
      const before = await templateCount(t.server);
      const { clientId: _c, ...noClient } = valid;
      const cases: [Client, Record<string, unknown>, string][] = [
        [agent1, noClient, '请选择子账号'],
        [agent1, { ...valid, clientId: '' }, '请选择子账号'],
        [agent1, { ...valid, clientId: 'agent1' }, '请选择子账号'],
        [agent1, { ...valid, sign: '好' }, '签名长度为2-12之间'],
        [agent1, { ...valid, sign: '好易购好易购好易购好易购好' }, '签名长度为2-12之间'],
        [agent1, { ...valid, sign: '   ' }, '签名长度为2-12之间'],
        [agent1, { ...valid, content: '{c}好' }, '模板内容长度为5-500个字符'],
        [agent1, { ...valid, content: `{code}${'好'.repeat(495)}` }, '模板内容长度为5-500个字符'],
        [agent1, { ...valid, templateType: 0 }, '固定模板不能包含变量'],
        [
          agent1,
          { ...valid, content: '您的验证码已发送，请查收。' },
          '变量模板至少需要包含一个变量，变量格式为{变量名}',
        ],
        [
          agent1,
          { ...valid, content: Array.from({ length: 31 }, (_, i) => `{${i + 1}}`).join('') },
          '变量个数不能超过30个',
        ],
        [agent1, { ...valid, smstype: 5 }, '行业模板的短信类型只能选择验证码或通知'],
        [agent1, { ...valid, smstype: undefined }, '行业模板的短信类型只能选择验证码或通知'],
        [
          agent1,
          { ...valid, content: '{name}您好，欢迎参加赌博和六合彩活动' },
          '模板内容包含敏感词：赌博、六合彩，请修改后再提交',
        ],
        [client1, { ...valid, sign: '博彩' }, '模板内容包含敏感词：博彩，请修改后再提交'],
        // a sign the account never had approved (issue 41 item 6)
        [client1, { ...valid, sign: '未报备签名' }, '签名未报备或未审核通过'],
        [agent1, { ...valid, sign: '瓯越鞋业' }, '签名未报备或未审核通过'],
      ];
      for (const [c, body, msg] of cases) {
        const r = await c.post('/api/autoTemplate/add', body);
        expect(r.body.code, JSON.stringify(body)).toBe(400);
        expect(r.body.msg, JSON.stringify(body)).toBe(msg);
      }
      const hit = await agent1.post('/api/autoTemplate/add', { ...valid, content: '{name}您好，欢迎参加赌博活动' });
      expect(hit.body.data).toMatchObject({ words: ['赌博'], errors: [{ field: 'content' }] });
      expect(await templateCount(t.server)).toBe(before);
    });

    it("reaches only the agent's own sub-accounts", async () => {
      const before = await templateCount(t.server);
      expect((await agent0.post('/api/autoTemplate/add', valid)).body).toEqual({ code: 403, msg: '无权访问' });
      expect((await agent0.post('/api/autoTemplate/add', { ...valid, clientId: 'nobody' })).body).toEqual({
        code: 403,
        msg: '无权访问',
      });
      expect(await templateCount(t.server)).toBe(before);
    });

    it('forces 营销 on a marketing template; in direct-charge mode an industry template defaults to 通知', async () => {
      const m = await agent1.post('/api/autoTemplate/add', {
        ...valid,
        smsType: 11,
        smstype: 4,
        templateType: 0,
        content: '年终大促全场五折，回T退订。',
      });
      expect(m.body.data).toMatchObject({ smsType: 11, smstype: 5, varibleCount: 0 });
      const d = await agent0.post('/api/autoTemplate/add', { ...valid, clientId: 'tpl0', smstype: undefined });
      expect(d.body.code).toBe(0);
      expect(d.body.data).toMatchObject({ clientId: 'tpl0', smstype: 0 });
    });

    it('approves at once with auto-review (AUTO_REVIEW=1)', async () => {
      const svc = t.server.app.services.template;
      svc.autoReview = true;
      try {
        const r = await agent1.post('/api/autoTemplate/add', valid);
        expect(r.body.data.state).toBe(1);
      } finally {
        svc.autoReview = false;
      }
    });
  });

  describe('POST /autoTemplate/edit and /autoTemplate/del', () => {
    it('the creator edits: the template goes back to review and the reason is cleared', async () => {
      const created = (await client1.post('/api/autoTemplate/add', valid)).body.data;
      await runCommand({ db: t.server.handle.db, now: () => new Date() }, [
        'template-reject',
        String(created.templateId),
        '内容不规范',
      ]);
      expect((await list(client1, { templateId: created.templateId })).body.data.entityList[0]).toMatchObject({
        state: 3,
        remark: '内容不规范',
      });
      const r = await client1.post('/api/autoTemplate/edit', {
        ...valid,
        templateId: created.templateId,
        content: '您的验证码{code}，10分钟内有效。',
      });
      expect(r.body).toMatchObject({ code: 0, msg: '修改成功，请等待审核' });
      expect(r.body.data).toMatchObject({
        templateId: created.templateId,
        state: 0,
        remark: '',
        content: '您的验证码{code}，10分钟内有效。',
      });
    });

    it('refuses anyone but the creator, and unknown ids', async () => {
      const byAgent = (await agent1.post('/api/autoTemplate/add', valid)).body.data;
      const edit = { ...valid, templateId: byAgent.templateId, content: '改过的内容{code}，请查收。' };
      expect((await client1.post('/api/autoTemplate/edit', edit)).body).toEqual({
        code: 403,
        msg: '只有模板创建者可以修改或删除该模板',
      });
      expect((await client1.post('/api/autoTemplate/del', { templateId: byAgent.templateId })).body).toEqual({
        code: 403,
        msg: '只有模板创建者可以修改或删除该模板',
      });
      expect((await agent0.post('/api/autoTemplate/edit', edit)).body).toEqual({ code: 404, msg: '模板不存在' });
      expect((await agent0.post('/api/autoTemplate/del', { templateId: byAgent.templateId })).body).toEqual({
        code: 404,
        msg: '模板不存在',
      });
      expect((await client2.post('/api/autoTemplate/del', { templateId: byAgent.templateId })).body).toEqual({
        code: 404,
        msg: '模板不存在',
      });
      expect((await agent1.post('/api/autoTemplate/del', { templateId: 99999999999 })).body).toEqual({
        code: 404,
        msg: '模板不存在',
      });
      for (const bad of ['abc', '-1', '', ' 12x ', '1.5'])
        expect((await agent1.post('/api/autoTemplate/del', { templateId: bad })).body).toEqual({
          code: 404,
          msg: '模板不存在',
        });
      expect((await agent1.post('/api/autoTemplate/edit', { ...edit, templateId: 'abc' })).body).toEqual({
        code: 404,
        msg: '模板不存在',
      });
      expect((await agent1.post('/api/autoTemplate/del', {})).body).toEqual({ code: 404, msg: '模板不存在' });
      const general = (await agent1.post('/api/autoTemplate/commonlist', {})).body.data.entityList[0];
      expect((await agent1.post('/api/autoTemplate/del', { templateId: general.templateId })).body).toEqual({
        code: 404,
        msg: '模板不存在',
      });
      const still = (await list(agent1, { templateId: byAgent.templateId })).body.data.entityList[0];
      expect(still).toMatchObject({ content: valid.content, state: 0 });
    });

    it('an invalid edit changes nothing', async () => {
      const mine = (await agent1.post('/api/autoTemplate/add', valid)).body.data;
      await runCommand({ db: t.server.handle.db, now: () => new Date() }, [
        'template-approve',
        String(mine.templateId),
      ]);
      const r = await agent1.post('/api/autoTemplate/edit', {
        ...valid,
        templateId: mine.templateId,
        content: '{x}参与赌博',
      });
      expect(r.body.code).toBe(400);
      expect((await list(agent1, { templateId: mine.templateId })).body.data.entityList[0]).toMatchObject({
        state: 1,
        content: valid.content,
      });
      expect(
        (await agent1.post('/api/autoTemplate/edit', { ...valid, templateId: mine.templateId, clientId: 'tpl0' })).body,
      ).toEqual({ code: 403, msg: '无权访问' });
    });

    it('the creator deletes', async () => {
      const mine = (await agent1.post('/api/autoTemplate/add', valid)).body.data;
      expect((await agent1.post('/api/autoTemplate/del', { templateId: mine.templateId })).body).toEqual({
        code: 0,
        msg: '删除成功',
      });
      expect((await list(agent1, { templateId: mine.templateId })).body.data.totalCount).toBe(0);
      expect((await agent1.post('/api/autoTemplate/del', { templateId: mine.templateId })).body.code).toBe(404);
    });
  });

  describe('operator CLI', () => {
    const cli = (argv: string[]) => runCommand({ db: t.server.handle.db, now: () => new Date() }, argv);

    it('approves, rejects with a reason, lists', async () => {
      const id = (await client1.post('/api/autoTemplate/add', valid)).body.data.templateId;
      expect(await cli(['template-approve', String(id)])).toEqual({ code: 0, lines: [`模板 ${id} 审核通过`] });
      expect((await list(client1, { templateId: id })).body.data.entityList[0].state).toBe(1);
      expect(await cli(['template-reject', String(id), '签名未报备', '请先报备'])).toEqual({
        code: 0,
        lines: [`模板 ${id} 审核不通过：签名未报备 请先报备`],
      });
      expect((await list(client1, { templateId: id })).body.data.entityList[0]).toMatchObject({
        state: 3,
        remark: '签名未报备 请先报备',
      });
      const out = await cli(['templates', 'client1']);
      expect(out.code).toBe(0);
      expect(out.lines.join('\n')).toContain('签名未报备');
      expect((await cli(['templates', 'general'])).lines.at(-1)).toBe('共 11 个模板');
    });

    it('refuses bad invocations', async () => {
      expect((await cli(['template-approve'])).code).toBe(2);
      expect((await cli(['template-approve', 'x1'])).code).toBe(2);
      expect((await cli(['template-reject', '100001'])).code).toBe(2);
      expect(await cli(['template-approve', '999999'])).toEqual({
        code: 1,
        lines: ['模板 999999 不存在（通用模板无需审核）'],
      });
      expect((await cli(['templates', 'nobody'])).code).toBe(1);
    });
  });
});

import ExcelJS from 'exceljs';

async function xlsx(rows: string[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('短信模板');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

function multipart(field: string, filename: string, file: Buffer) {
  const boundary = `----smsp${Date.now()}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe.each(backends)('template batch import (%s)', (backend) => {
  const t = useServer(backend);
  const header = ['子账户', '模板属性', '短信类型', '模板类型', '业务类型', '签名', '模板内容'];

  const upload = async (c: Client, file: Buffer, field = 'excel') => {
    const m = multipart(field, '模板.xlsx', file);
    // the harness client posts strings and forms; a file goes through inject with the client's cookies
    const headers: Record<string, string> = {
      host: 'localhost:8080',
      ...m.headers,
      cookie: [...c.jar].map(([k, v]) => `${k}=${v}`).join('; '),
    };
    if (c.jar.has('XSRF-TOKEN')) headers['x-xsrf-token'] = c.jar.get('XSRF-TOKEN')!;
    const raw = await t.server.app.inject({
      method: 'POST',
      url: '/api/autoTemplate/addBatch',
      headers,
      payload: m.body,
      remoteAddress: c.ip,
    });
    return { body: raw.json() };
  };

  it("imports the good rows and reports each refused row with the single add's message", async () => {
    await addAccount(t.server, 'tpl9', '2', 'agent0', '0');
    const agent = await t.server.client().init();
    await agent.login('agent1');
    const before = await templateCount(t.server);
    const file = await xlsx([
      header,
      ['client1', '行业', '验证码', '变量模板', '国内', '好易购', '您的验证码为{code}，请勿泄露。'],
      ['client1', '会员营销', '', '固定模板', '国内', '好易购', '年货节全场8折，回T退订。'],
      ['', '行业', '通知', '固定模板', '国内', '好易购', '您的包裹已到站，请取件。'],
      ['client1', '行业', '通知', '固定模板', '国内', '好易购', '您好{name}，欢迎光临'],
      ['client1', '行业', '通知', '变量模板', '国内', '好易购', '{name}您好，欢迎参加赌博活动'],
      ['tpl9', '行业', '通知', '固定模板', '国内', '好易购', '您的包裹已到站，请取件。'],
      ['', '', '', '', '', '', ''],
    ]);
    const r = await upload(agent, file);
    expect(r.body.code, r.body.msg).toBe(0);
    expect(r.body.msg).toBe('共6条，成功2条，失败4条');
    expect(r.body.data).toEqual({
      importTotal: 6,
      importSuccess: 2,
      importFall: 4,
      errors: [
        { row: 4, msg: '请选择子账号' },
        { row: 5, msg: '固定模板不能包含变量' },
        { row: 6, msg: '模板内容包含敏感词：赌博，请修改后再提交' },
        { row: 7, msg: '无权访问' },
      ],
    });
    expect(await templateCount(t.server)).toBe(before + 2);
    const list = (await agent.post('/api/autoTemplate/list', { content: '年货节' })).body.data.entityList;
    expect(list[0]).toMatchObject({
      smsType: 11,
      smstype: 5,
      templateType: 0,
      state: 0,
      userName: 'agent1',
      clientId: 'client1',
    });
  });

  it('refuses a missing or broken file and changes nothing', async () => {
    const c = await t.server.client().init();
    await c.login('client1');
    const before = await templateCount(t.server);
    expect((await upload(c, Buffer.from('not excel'))).body).toEqual({
      code: 400,
      msg: '文件格式不正确，请使用模板文件（xlsx）',
    });
    expect((await upload(c, await xlsx([header]))).body).toEqual({ code: 400, msg: '文件中没有数据' });
    expect(
      (
        await upload(
          c,
          await xlsx([header, ['', '行业', '通知', '固定模板', '国内', '好易购', '您的包裹已到站，请取件。']]),
          'other',
        )
      ).body,
    ).toEqual({
      code: 400,
      msg: '请选择要导入的Excel文件',
    });
    expect((await c.post('/api/autoTemplate/addBatch', {})).body).toEqual({
      code: 400,
      msg: '请选择要导入的Excel文件',
    });
    expect(await templateCount(t.server)).toBe(before);
    expect((await upload(await t.server.client().init(), await xlsx([header]))).body.code).toBe(401);
  });

  it('a sub-account imports for itself; the Excel template downloads', async () => {
    const c = await t.server.client().init();
    await c.login('client1');
    const r = await upload(
      c,
      await xlsx([header, ['agent1', '行业', '通知', '固定模板', '国内', '好易购', '您的包裹已到站，请取件。']]),
    );
    expect(r.body.data).toMatchObject({ importSuccess: 1, importFall: 0 });
    const dl = await c.get('/api/autoTemplate/downloadExcelTemplate');
    expect(dl.status).toBe(200);
    expect(dl.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(dl.raw.rawPayload as any);
    expect((wb.worksheets[0].getRow(1).values as string[]).filter(Boolean)).toEqual(header.slice(1));
  });
});
