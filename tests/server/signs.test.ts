import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../server/cli/operator-channel';
import { backends, useServer, type Client, type TestServer } from './harness';

/** multipart/form-data with one file part */
function multipart(
  field: string,
  filename: string,
  content: Buffer,
  type = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
) {
  const boundary = `----smsp${randomBytes(8).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

async function upload(
  server: TestServer,
  c: Client,
  content: Buffer,
  opts: { field?: string; filename?: string; type?: string } = {},
) {
  const { body, contentType } = multipart(opts.field ?? 'excel', opts.filename ?? 'signs.xlsx', content, opts.type);
  const raw = await server.app.inject({
    method: 'POST',
    url: '/api/sign/addsignBatch',
    headers: {
      host: 'localhost:8080',
      'content-type': contentType,
      cookie: [...c.jar].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-xsrf-token': c.jar.get('XSRF-TOKEN')!,
    },
    payload: body,
    remoteAddress: c.ip,
  });
  return raw.json();
}

/** GET/POST answering a file: the raw bytes and headers */
async function download(
  server: TestServer,
  c: Client,
  method: 'GET' | 'POST',
  url: string,
  form?: Record<string, string>,
) {
  const raw = await server.app.inject({
    method,
    url,
    headers: {
      host: 'localhost:8080',
      cookie: [...c.jar].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-xsrf-token': c.jar.get('XSRF-TOKEN')!,
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    payload: form ? new URLSearchParams(form).toString() : undefined,
    remoteAddress: c.ip,
  });
  return raw;
}

async function xlsx(rows: (string | number | null)[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('签名报备');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function readSheet(buf: Buffer, sheet = 0): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as any);
  const ws = wb.worksheets[sheet];
  const out: string[][] = [];
  ws.eachRow((row) =>
    out.push((row.values as any[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v)))),
  );
  return out;
}

async function loggedIn(server: TestServer, username: string) {
  const c = await server.client().init();
  const r = await c.login(username);
  expect(r.body.code).toBe(0);
  return c;
}

describe.each(backends)('signs (%s)', (backend) => {
  const t = useServer(backend);
  let agent1: Client;
  let agent0: Client;
  let client1: Client;
  let client0: Client;
  const countSigns = async () =>
    Number(
      (
        await t.server.handle.db
          .selectFrom('signs')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    const db = t.server.handle.db;
    const { password_hash } = await db
      .selectFrom('accounts')
      .select('password_hash')
      .where('clientid', '=', 'client1')
      .executeTakeFirstOrThrow();
    const a0 = await db.selectFrom('accounts').select('id').where('clientid', '=', 'agent0').executeTakeFirstOrThrow();
    const a1 = await db.selectFrom('accounts').select('id').where('clientid', '=', 'agent1').executeTakeFirstOrThrow();
    await db
      .insertInto('accounts')
      .values([
        {
          clientid: 'sgn0',
          user_type: '2',
          agent_id: a0.id,
          name: '杭州西湖茶业有限公司',
          password_hash,
          phone_inout_type: 0,
        },
        {
          clientid: 'sgn2',
          user_type: '2',
          agent_id: a1.id,
          name: '上海国际旅行社',
          password_hash,
          phone_inout_type: 1,
        },
        { clientid: 'sgn3', user_type: '2', agent_id: a1.id, name: '已注销客户', password_hash, status: 6 },
      ])
      .execute();
    [agent1, agent0, client1, client0] = await Promise.all(
      ['agent1', 'agent0', 'client1', 'sgn0'].map((u) => loggedIn(t.server, u)),
    );
    const r = await client0.post('/api/sign/add', { sign: '西湖龙井' });
    expect(r.body.code).toBe(0);
  });

  describe('POST /send/getclients', () => {
    it("answers an agent's live sub-accounts, filtered by phoneInoutType", async () => {
      expect((await agent1.post('/api/send/getclients', { getAll: 1 })).body.data).toEqual([
        { clientid: 'client1', name: '苏州好易购电子商务有限公司' },
        { clientid: 'client2', name: '南京甜心烘焙坊' }, // seeded, frozen: still a sub-account to pick
        { clientid: 'client3', name: '宁波港航物流有限公司' },
        { clientid: 'sgn2', name: '上海国际旅行社' },
      ]); // sgn3 (cancelled) is not offered
      // client1 sends both (phone_inout_type 2): offered for domestic and international sending
      expect(
        (await agent1.post('/api/send/getclients', { phoneInoutType: 1 })).body.data.map((c: any) => c.clientid),
      ).toEqual(['client1', 'sgn2']);
      expect(
        (await agent1.post('/api/send/getclients', { phoneInoutType: 0 })).body.data.map((c: any) => c.clientid),
      ).toEqual(['client1', 'client2', 'client3']);
      expect((await agent0.post('/api/send/getclients', {})).body.data.map((c: any) => c.clientid)).toEqual([
        'client0',
        'sgn0',
      ]);
    });

    it('reads a raw phone in/out bit mask stored for an account as its range: picker, current user (issue 41 item 12)', async () => {
      const db = t.server.handle.db;
      // sgn2 imported with the raw mask 8 | 1 (international and domestic): both; then 8 alone: international
      await db.updateTable('accounts').set({ phone_inout_type: 9 }).where('clientid', '=', 'sgn2').execute();
      try {
        expect(
          (await agent1.post('/api/send/getclients', { phoneInoutType: 0 })).body.data.map((c: any) => c.clientid),
        ).toEqual(['client1', 'client2', 'client3', 'sgn2']);
        expect(
          (await agent1.post('/api/send/getclients', { phoneInoutType: 1 })).body.data.map((c: any) => c.clientid),
        ).toEqual(['client1', 'sgn2']);
        const sgn2 = await loggedIn(t.server, 'sgn2');
        expect((await sgn2.get('/api/admin/info')).body.data.phone_inout_type).toBe(2);
        await db.updateTable('accounts').set({ phone_inout_type: 8 }).where('clientid', '=', 'sgn2').execute();
        expect(
          (await agent1.post('/api/send/getclients', { phoneInoutType: 0 })).body.data.map((c: any) => c.clientid),
        ).toEqual(['client1', 'client2', 'client3']);
        expect((await sgn2.get('/api/admin/info')).body.data.phone_inout_type).toBe(1);
      } finally {
        await db.updateTable('accounts').set({ phone_inout_type: 1 }).where('clientid', '=', 'sgn2').execute();
      }
    });

    it('answers a sub-account itself; 401 without a session', async () => {
      expect((await client1.post('/api/send/getclients', {})).body.data).toEqual([
        { clientid: 'client1', name: '苏州好易购电子商务有限公司' },
      ]);
      const anon = await t.server.client().init();
      expect((await anon.post('/api/send/getclients', {})).body.code).toBe(401);
    });

    it('refuses parameters outside params/clients-list with 参数错误 (an unknown range, a non-number getAll)', async () => {
      for (const body of [{ phoneInoutType: 7 }, { phoneInoutType: 'x' }, { getAll: 'abc' }, { smsfrom: 1e12 }]) {
        const r = await agent1.post('/api/send/getclients', body);
        expect(r.body, JSON.stringify(body)).toMatchObject({ code: 400, msg: '参数错误' });
      }
      // a form posts strings: coerced, as the send page sends them
      expect((await agent1.post('/api/send/getclients', { getAll: '1', phoneInoutType: '0' })).body.code).toBe(0);
    });
  });

  describe('POST /sign/list', () => {
    it('lists the seeded signs of client1 without the deleted one, newest first, in the entity shape', async () => {
      const r = await client1.post('/api/sign/list', { currentPage: 1, pageRowCount: 15 });
      expect(r.body.code).toBe(0);
      const d = r.body.data;
      expect(d).toMatchObject({ totalCount: 4, currentPage: 1, pageRowCount: 15, totalPage: 1 });
      expect(d.list.map((s: any) => s.sign)).toEqual(['苏州好易购', '易购优选', '好易购商城', '好易购']);
      const rejected = d.list[1];
      expect(rejected).toMatchObject({
        rownum: 2,
        clientid: 'client1',
        clientName: '苏州好易购电子商务有限公司',
        state: 2,
        stateStr: '审核不通过',
        cause: '签名与企业名称不符，请补充商标注册证或授权书',
      });
      expect(rejected.createDate).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(Object.keys(rejected).sort()).toEqual([
        'cause',
        'clientName',
        'clientid',
        'createDate',
        'id',
        'remarks',
        'rownum',
        'sign',
        'state',
        'stateStr',
        'userName',
      ]);
    });

    it('shows deleted signs only when state 4 is asked; filters by state, sign (contains) and pages', async () => {
      expect((await client1.post('/api/sign/list', { state: 4 })).body.data.list.map((s: any) => s.sign)).toEqual([
        '好易购测试',
      ]);
      expect((await client1.post('/api/sign/list', { state: 1 })).body.data.totalCount).toBe(2);
      expect((await client1.post('/api/sign/list', { sign: '商城' })).body.data.list.map((s: any) => s.sign)).toEqual([
        '好易购商城',
      ]);
      expect((await client1.post('/api/sign/list', { sign: '%' })).body.data.totalCount).toBe(0);
      const p2 = (await client1.post('/api/sign/list', { currentPage: 2, pageRowCount: 3 })).body.data;
      expect(p2).toMatchObject({ totalCount: 4, currentPage: 2, pageRowCount: 3, totalPage: 2 });
      expect(p2.list).toHaveLength(1);
      expect(p2.list[0].rownum).toBe(4);
      // past the last page: no rows, the total still told
      expect((await client1.post('/api/sign/list', { currentPage: 9, pageRowCount: 3 })).body.data).toMatchObject({
        list: [],
        totalCount: 4,
        currentPage: 9,
      });
    });

    it('filters by date range (Asia/Shanghai days, end day included) and refuses bad dates', async () => {
      const db = t.server.handle.db;
      const s = await db.selectFrom('signs').select(['id']).where('sign', '=', '好易购').executeTakeFirstOrThrow();
      // 2026-03-10 00:30 in Shanghai is 2026-03-09 16:30 UTC
      await db
        .updateTable('signs')
        .set({ create_time: new Date('2026-03-09T16:30:00Z') })
        .where('id', '=', s.id)
        .execute();
      const day = await client1.post('/api/sign/list', { start_time: '2026-03-10', end_time: '2026-03-10' });
      expect(day.body.data.list.map((x: any) => x.sign)).toEqual(['好易购']);
      expect(day.body.data.list[0].createDate).toBe('2026-03-10 00:30:00');
      expect(
        (await client1.post('/api/sign/list', { start_time: '2026-03-11', end_time: '2026-03-11' })).body.data
          .totalCount,
      ).toBe(0);
      expect((await client1.post('/api/sign/list', { end_time: '2026-03-09' })).body.data.totalCount).toBe(0);
      expect((await client1.post('/api/sign/list', { start_time: '2026-02-31' })).body).toMatchObject({
        code: 400,
        msg: '日期格式不正确',
      });
      expect(
        (await client1.post('/api/sign/list', { start_time: '2026-03-12', end_time: '2026-03-10' })).body,
      ).toMatchObject({ code: 400, msg: '开始时间不能晚于结束时间' });
      expect((await client1.post('/api/sign/list', { state: 3 })).body).toMatchObject({
        code: 400,
        msg: '状态参数不正确',
      });
    });

    it('an agent sees the signs of its own sub-accounts only; a sub-account only its own', async () => {
      const a1 = (await agent1.post('/api/sign/list', {})).body.data;
      expect(a1.list.every((s: any) => s.clientid === 'client1')).toBe(true);
      expect(a1.totalCount).toBe(4);
      expect((await agent1.post('/api/sign/list', { clientid: 'client1' })).body.data.totalCount).toBe(4);
      const a0 = (await agent0.post('/api/sign/list', {})).body.data;
      // sgn0's (added above) and client0's two approved demo signs
      expect(a0.list.map((s: any) => s.clientid)).toEqual(['sgn0', 'client0', 'client0']);
      // another agent's sub-account as a filter: refused
      expect((await agent0.post('/api/sign/list', { clientid: 'client1' })).body).toMatchObject({
        code: 403,
        msg: '无权访问',
      });
      expect((await agent1.post('/api/sign/list', { clientid: 'sgn0' })).body.code).toBe(403);
      // a sub-account's clientid is its own whatever it sends
      const c1 = (await client1.post('/api/sign/list', { clientid: 'sgn0' })).body.data;
      expect(c1.list.every((s: any) => s.clientid === 'client1')).toBe(true);
      expect((await client0.post('/api/sign/list', {})).body.data.list.map((s: any) => s.sign)).toEqual(['西湖龙井']);
    });

    it('needs a session', async () => {
      const anon = await t.server.client().init();
      expect((await anon.post('/api/sign/list', {})).body.code).toBe(401);
    });
  });

  describe('POST /sign/add', () => {
    it('an agent must choose a sub-account', async () => {
      const before = await countSigns();
      const r = await agent1.post('/api/sign/add', { sign: '云讯科技' });
      expect(r.body).toMatchObject({ code: 400, msg: '子账户内容不能为空,请选择子账户' });
      expect((await agent1.post('/api/sign/add', { clientid: '  ', sign: '云讯科技' })).body.msg).toBe(
        '子账户内容不能为空,请选择子账户',
      );
      expect(await countSigns()).toBe(before);
    });

    it("an agent cannot add for another agent's sub-account, nor for a cancelled or unknown one", async () => {
      const before = await countSigns();
      expect((await agent0.post('/api/sign/add', { clientid: 'client1', sign: '越权签名' })).body).toMatchObject({
        code: 403,
        msg: '无权访问',
      });
      expect((await agent1.post('/api/sign/add', { clientid: 'sgn3', sign: '注销签名' })).body.code).toBe(403);
      expect((await agent1.post('/api/sign/add', { clientid: 'nobody', sign: '未知账户' })).body.code).toBe(403);
      expect(await countSigns()).toBe(before);
    });

    it("validates with forms/sign-add's rules and messages (values trimmed)", async () => {
      const before = await countSigns();
      expect((await agent1.post('/api/sign/add', { clientid: 'client1', sign: '云' })).body).toMatchObject({
        code: 400,
        msg: '签名长度为2-12之间',
      });
      expect((await agent1.post('/api/sign/add', { clientid: 'client1', sign: '   云  ' })).body.msg).toBe(
        '签名长度为2-12之间',
      );
      expect(
        (await agent1.post('/api/sign/add', { clientid: 'client1', sign: '一二三四五六七八九十一二三' })).body.msg,
      ).toBe('签名长度为2-12之间');
      // saved with its brackets, a text would start 【【…】】 (issue 41 item 6)
      for (const sign of ['【好易购】', '好易购】', '[好易购]'])
        expect((await agent1.post('/api/sign/add', { clientid: 'client1', sign })).body, sign).toMatchObject({
          code: 400,
          msg: '签名无需填写【】，请只填写签名文字',
        });
      expect((await agent1.post('/api/sign/add', { clientid: 'client1' })).body.msg).toBe('签名长度为2-12之间');
      expect(
        (await agent1.post('/api/sign/add', { clientid: 'client1', sign: '云讯科技', remarks: '长'.repeat(51) })).body
          .msg,
      ).toBe('备注最大长度不超过50个字符');
      expect(await countSigns()).toBe(before);
    });

    it('adds a pending sign for the chosen sub-account (trimmed), then refuses the same live sign', async () => {
      const r = await agent1.post('/api/sign/add', {
        clientid: ' client1 ',
        sign: '  云讯科技 ',
        remarks: ' 官网通知 ',
      });
      expect(r.body.code).toBe(0);
      expect(r.body.data.state).toBe(0);
      const row = (await client1.post('/api/sign/list', { sign: '云讯科技' })).body.data.list[0];
      expect(row).toMatchObject({
        id: r.body.data.id,
        sign: '云讯科技',
        remarks: '官网通知',
        state: 0,
        stateStr: '待审核',
        userName: 'agent1',
        clientid: 'client1',
      });
      const before = await countSigns();
      expect((await client1.post('/api/sign/add', { sign: '云讯科技' })).body).toMatchObject({
        code: 500,
        msg: '该账户已存在相同的签名，请勿重复添加',
      });
      expect(await countSigns()).toBe(before);
      // another account may hold the same text
      expect((await agent1.post('/api/sign/add', { clientid: 'sgn2', sign: '云讯科技' })).body.code).toBe(0);
    });

    it("a sub-account's clientid is forced from the session", async () => {
      const r = await client1.post('/api/sign/add', { clientid: 'sgn0', sign: '好易购会员' });
      expect(r.body.code).toBe(0);
      const row = await t.server.handle.db
        .selectFrom('signs')
        .select(['clientid', 'creator_name'])
        .where('id', '=', r.body.data.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ clientid: 'client1', creator_name: 'client1' });
    });

    it('approves at once with the auto-review setting', async () => {
      const config = t.server.app.ctx.config;
      config.autoReview = true;
      try {
        const r = await client1.post('/api/sign/add', { sign: '好易购自营' });
        expect(r.body).toMatchObject({ code: 0, data: { state: 1 } });
      } finally {
        config.autoReview = false;
      }
    });
  });

  describe('POST /sign/update', () => {
    it('deletes (state 4) only, once, and only within scope', async () => {
      const added = (await client1.post('/api/sign/add', { sign: '待删签名' })).body.data.id;
      expect((await client1.post('/api/sign/update', { id: added, state: 1 })).body).toMatchObject({
        code: 400,
        msg: '只能删除签名',
      });
      expect((await client1.post('/api/sign/update', { id: added })).body.msg).toBe('只能删除签名');
      expect((await agent0.post('/api/sign/update', { id: added, state: 4 })).body).toMatchObject({
        code: 404,
        msg: '签名不存在',
      });
      expect((await client0.post('/api/sign/update', { id: added, state: 4 })).body.code).toBe(404);
      const still = await t.server.handle.db
        .selectFrom('signs')
        .select('state')
        .where('id', '=', added)
        .executeTakeFirstOrThrow();
      expect(still.state).toBe(0);
      expect((await agent1.post('/api/sign/update', { id: added, state: 4 })).body).toMatchObject({
        code: 0,
        msg: '删除成功',
      });
      expect((await client1.post('/api/sign/list', { sign: '待删签名' })).body.data.totalCount).toBe(0);
      expect((await client1.post('/api/sign/list', { sign: '待删签名', state: 4 })).body.data.totalCount).toBe(1);
      expect((await client1.post('/api/sign/update', { id: added, state: 4 })).body).toMatchObject({
        code: 500,
        msg: '该签名已删除，请勿重复操作',
      });
      // a deleted sign no longer blocks the same text
      expect((await client1.post('/api/sign/add', { sign: '待删签名' })).body.code).toBe(0);
      expect((await client1.post('/api/sign/update', { id: 'abc', state: 4 })).body.code).toBe(400);
    });
  });

  describe('POST /sign/export', () => {
    it('exports every matching row as a real .xlsx', async () => {
      const r = await download(t.server, agent1, 'POST', '/api/sign/export', { clientid: 'client1', state: '1' });
      expect(r.headers['content-type']).toContain('spreadsheetml');
      expect(String(r.headers['content-disposition'])).toContain("filename*=UTF-8''");
      const rows = await readSheet(r.rawPayload);
      expect(rows[0]).toEqual(['序号', '子账户', '账户名称', '签名', '创建人', '创建时间', '备注', '状态', '驳回原因']);
      expect(rows.slice(1).every((x) => x[1] === 'client1' && x[7] === '审核通过')).toBe(true);
      const listed = (await agent1.post('/api/sign/list', { clientid: 'client1', state: 1 })).body.data.totalCount;
      expect(rows.length - 1).toBe(listed);
    });

    it('answers 当前条件没有数据，无法导出 when nothing matches, and refuses over the limit', async () => {
      const none = await download(t.server, agent1, 'POST', '/api/sign/export', { sign: '不存在的签名' });
      expect(none.json()).toEqual({ code: 500, msg: '当前条件没有数据，无法导出' });
      const config = t.server.app.ctx.config;
      const saved = config.signExportMax;
      config.signExportMax = 2;
      try {
        const many = await download(t.server, client1, 'POST', '/api/sign/export', {});
        expect(many.json()).toEqual({ code: 500, msg: '导出记录数不能大于500万。' });
      } finally {
        config.signExportMax = saved;
      }
      expect((await download(t.server, agent0, 'POST', '/api/sign/export', { clientid: 'client1' })).json().code).toBe(
        403,
      );
    });

    it('a sub-account exports only its own signs', async () => {
      const rows = await readSheet((await download(t.server, client0, 'POST', '/api/sign/export', {})).rawPayload);
      expect(rows.slice(1).map((r) => r[3])).toEqual(['西湖龙井']);
    });
  });

  describe('GET /sign/downloadExcelTemplate', () => {
    it('answers a real .xlsx: agents get the 子账户 column', async () => {
      const a = await download(t.server, agent1, 'GET', '/api/sign/downloadExcelTemplate');
      expect(a.headers['content-type']).toContain('spreadsheetml');
      expect((await readSheet(a.rawPayload))[0]).toEqual(['子账户', '签名', '备注']);
      const notes = (await readSheet(a.rawPayload, 1)).flat().join('\n');
      expect(notes).toContain('长度为2-12之间');
      expect(notes).toContain('示例');
      const c = await download(t.server, client1, 'GET', '/api/sign/downloadExcelTemplate');
      expect((await readSheet(c.rawPayload))[0]).toEqual(['签名', '备注']);
    });
  });

  describe('POST /sign/addsignBatch and GET /sign/exportImportResult', () => {
    it('imports the good rows, reports the bad ones with their reasons', async () => {
      const file = await xlsx([
        ['子账户', '签名', '备注'],
        ['client1', '批量签名一', '第一批'],
        ['client1', ' 批量签名二 ', ''],
        [null, null, null],
        ['sgn2', '国旅假期', '国际旅游'],
        ['client1', '云', '太短'],
        ['', '无账户签名', ''],
        ['sgn0', '越权导入', '别家的子账户'],
        ['client1', '好易购', '已存在'],
        ['client1', '批量签名一', '文件内重复'],
        ['client1', '备注超长', '长'.repeat(51)],
      ]);
      const before = await countSigns();
      const r = await upload(t.server, agent1, file);
      expect(r).toMatchObject({ code: 0, data: { importSuccess: 3, importTotal: 9, importFall: 6 } });
      expect(await countSigns()).toBe(before + 3);
      const added = (await agent1.post('/api/sign/list', { sign: '批量签名' })).body.data.list
        .map((s: any) => s.sign)
        .sort();
      expect(added).toEqual(['批量签名一', '批量签名二']);

      const res = await download(t.server, agent1, 'GET', '/api/sign/exportImportResult');
      expect(res.headers['content-type']).toContain('spreadsheetml');
      const rows = await readSheet(res.rawPayload);
      expect(rows[0]).toEqual(['子账户', '签名', '备注', '失败原因']);
      expect(rows.slice(1)).toEqual([
        ['client1', '云', '太短', '签名长度为2-12之间'],
        ['', '无账户签名', '', '子账户内容不能为空,请选择子账户'],
        ['sgn0', '越权导入', '别家的子账户', '子账户不存在或不属于当前账户'],
        ['client1', '好易购', '已存在', '该账户已存在相同的签名，请勿重复添加'],
        ['client1', '批量签名一', '文件内重复', '文件中存在相同的签名'],
        ['client1', '备注超长', '长'.repeat(51), '备注最大长度不超过50个字符'],
      ]);
      // agent0 has no import of its own; its sub-account gained nothing
      expect((await download(t.server, agent0, 'GET', '/api/sign/exportImportResult')).json()).toEqual({
        code: 500,
        msg: '没有导入失败的记录',
      });
      expect((await client0.post('/api/sign/list', {})).body.data.totalCount).toBe(1);
    });

    it("a sub-account's file needs no 子账户 column; the failed-rows file can be re-imported", async () => {
      const r = await upload(
        t.server,
        client0,
        await xlsx([
          ['签名', '备注'],
          ['龙井新茶', '春茶上市'],
          ['西湖龙井', '重复'],
        ]),
      );
      expect(r.data).toEqual({ importSuccess: 1, importTotal: 2, importFall: 1 });
      const failed = (await download(t.server, client0, 'GET', '/api/sign/exportImportResult')).rawPayload;
      expect((await readSheet(failed))[0]).toEqual(['签名', '备注', '失败原因']);
      await client0.post('/api/sign/update', {
        id: (await client0.post('/api/sign/list', { sign: '西湖龙井' })).body.data.list[0].id,
        state: 4,
      });
      expect((await upload(t.server, client0, failed)).data).toEqual({
        importSuccess: 1,
        importTotal: 1,
        importFall: 0,
      });
      expect((await download(t.server, client0, 'GET', '/api/sign/exportImportResult')).json().msg).toBe(
        '没有导入失败的记录',
      );
    });

    it('refuses bad files whole, importing nothing', async () => {
      const before = await countSigns();
      const cases: [Buffer, string, object?][] = [
        [Buffer.alloc(0), '上传的文件为空'],
        [
          Buffer.from('子账户,签名,备注\nclient1,文本签名,\n'),
          '文件格式不正确，请上传.xlsx格式的Excel文件',
          { filename: 'signs.xlsx' },
        ],
        [Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(200)]), '文件格式不正确，请上传.xlsx格式的Excel文件'],
        [await xlsx([['账户', '签名']]), '表头不正确，请下载模板并按模板填写（子账户、签名、备注）'],
        [
          await xlsx([
            ['签名', '备注'],
            ['缺子账户', ''],
          ]),
          '表头不正确，请下载模板并按模板填写（子账户、签名、备注）',
        ],
        [await xlsx([['子账户', '签名', '备注']]), '文件中没有签名数据'],
        [
          await xlsx([
            ['子账户', '签名', '备注'],
            ...Array.from({ length: 5001 }, (_, i) => ['client1', `超量签名${i}`, '']),
          ]),
          '单次导入不能超过5000行',
        ],
        [Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(5 * 1024 * 1024)]), '文件大小不能超过5MB'],
      ];
      for (const [file, msg, opts] of cases) {
        const r = await upload(t.server, agent1, file, opts as any);
        expect(r, msg).toMatchObject({ code: 400, msg });
      }
      expect(
        (
          await upload(
            t.server,
            agent1,
            await xlsx([
              ['子账户', '签名'],
              ['client1', '字段错误'],
            ]),
            { field: 'file' },
          )
        ).msg,
      ).toBe('请选择要导入的Excel文件');
      expect((await agent1.post('/api/sign/addsignBatch', { excel: 'x' })).body).toMatchObject({
        code: 400,
        msg: '请选择要导入的Excel文件',
      });
      expect(await countSigns()).toBe(before);
    });
  });

  describe('operator CLI', () => {
    it('approves and rejects signs; lists them', async () => {
      const ctx = { db: t.server.handle.db, now: () => new Date() };
      const id = (await client1.post('/api/sign/add', { sign: '审核测试' })).body.data.id;
      const ok = await runCommand(ctx, ['sign-approve', String(id)]);
      expect(ok.code).toBe(0);
      expect(ok.lines.join()).toContain('已审核通过');
      expect((await client1.post('/api/sign/list', { sign: '审核测试' })).body.data.list[0]).toMatchObject({
        state: 1,
        stateStr: '审核通过',
      });
      const rej = await runCommand(ctx, ['sign-reject', String(id), '签名', '与主体不符']);
      expect(rej.code).toBe(0);
      expect((await agent1.post('/api/sign/list', { sign: '审核测试' })).body.data.list[0]).toMatchObject({
        state: 2,
        stateStr: '审核不通过',
        cause: '签名 与主体不符',
      });
      expect((await runCommand(ctx, ['sign-reject', String(id)])).code).toBe(2);
      expect((await runCommand(ctx, ['sign-approve', '999999'])).lines.join()).toContain('签名 999999 不存在');
      expect((await runCommand(ctx, ['sign-approve', 'x'])).code).toBe(2);
      const list = await runCommand(ctx, ['signs', 'client1']);
      expect(list.code).toBe(0);
      expect(list.lines.join('\n')).toContain('审核测试');
      expect(list.lines.join('\n')).not.toContain('西湖龙井');
    });
  });
});
