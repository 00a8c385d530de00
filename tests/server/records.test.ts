/**
 * The read side of sending (docs/api-records.md): task list and detail, the numbers export of a
 * task, timed tasks and their numbers, send records with both exports and the download, uplink.
 * Tasks, messages and uplink rows are written straight into the database (tests/fixtures/sending.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, dayOf } from '../../server/lib/time';
import { CONTENT_TASKS_MAX } from '../../server/modules/records/service';
import { startOfBusinessDay } from '../../server/lib/time';
import { insertMo, insertTask, type InsertedTask } from '../fixtures/sending';
import { clearSendingDemo } from '../../server/modules/send/seed';
import { backends, useServer, type Client, type TestServer } from './harness';

const DAY = 86_400_000;

async function loggedIn(server: TestServer, username: string) {
  const c = await server.client().init();
  const r = await c.login(username);
  expect(r.body.code).toBe(0);
  return c;
}

/** a POST or GET answering a file: the raw response */
async function raw(server: TestServer, c: Client, method: 'GET' | 'POST', url: string, form?: Record<string, string>) {
  return server.app.inject({
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
}

async function readSheet(buf: Buffer): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as any);
  const out: string[][] = [];
  wb.worksheets[0].eachRow((row) =>
    out.push((row.values as any[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v)))),
  );
  return out;
}

describe.each(backends)('records (%s)', (backend) => {
  const t = useServer(backend);
  let agent1: Client;
  let agent0: Client;
  let client1: Client;
  let client3: Client;
  let client0: Client;
  let A: InsertedTask; // client1, yesterday, completed: 3 3 6 1 11
  let B: InsertedTask; // client1, timed, waiting
  let C: InsertedTask; // client1, 100 days ago
  let D: InsertedTask; // client3 (agent1)
  let E: InsertedTask; // agent1 itself
  let F: InsertedTask; // client0 (agent0)
  let today: Date;
  const day = (offset: number) => dayOf(addDays(today, offset));
  const config = () => t.server.app.ctx.config;

  beforeAll(async () => {
    const db = t.server.handle.db;
    // counts below start from an empty history: drop the seeded demo tasks, records and uplink
    await clearSendingDemo(db);
    // noon (Asia/Shanghai): the fixtures' hours-ago rows stay on today's business day
    t.server.clock.toNextBusinessMorning();
    t.server.clock.advance(11 * 3600_000);
    const now = t.server.clock.now();
    today = startOfBusinessDay(now);
    A = await insertTask(db, {
      account: 'client1',
      content: '【云讯科技】您的验证码是1234',
      smstype: 4,
      createdAt: new Date(now.getTime() - DAY),
      creator: 'client1',
      messages: [
        { phone: '13800138000', state: 3, report: 'DELIVRD' },
        { phone: '18612345678', state: 3 },
        { phone: '13912345678', state: 6, errorCode: 'UNDELIV', report: 'UNDELIV' },
        { phone: '18912345678', state: 1 },
        { phone: '13312345678', state: 11 },
      ],
    });
    B = await insertTask(db, {
      account: 'client1',
      sign: '好易购',
      content: '【好易购】双十一大促_100%优惠',
      smstype: 5,
      sendType: 1,
      status: 1,
      sendTime: new Date(now.getTime() + 2 * DAY),
      createdAt: new Date(now.getTime() - 2 * 3600_000),
      creator: 'agent1',
      messages: [
        { phone: '13012345678', state: 0 },
        { phone: '15012345678', state: 0 },
        { phone: '13512345678', state: 0 },
      ],
    });
    C = await insertTask(db, {
      account: 'client1',
      createdAt: new Date(now.getTime() - 100 * DAY),
      messages: ['13811112222'],
    });
    D = await insertTask(db, {
      account: 'client3',
      content: '【宁波港航】到港通知',
      createdAt: new Date(now.getTime() - 3 * DAY),
      messages: ['13800138001', { phone: '18612345678', state: 4 }],
    });
    E = await insertTask(db, {
      account: 'agent1',
      createdAt: new Date(now.getTime() - 4 * DAY),
      messages: ['13800138000'],
    });
    F = await insertTask(db, {
      account: 'client0',
      createdAt: new Date(now.getTime() - DAY),
      messages: ['13800138000', '18612345678'],
    });
    await insertMo(db, [
      { account: 'client1', phone: '13800138000', content: 'TD 退订', receivedAt: new Date(now.getTime() - 3600_000) },
      {
        account: 'client1',
        phone: '18612345678',
        content: '好的，收到',
        receivedAt: new Date(now.getTime() - 20 * DAY),
      },
      { account: 'client1', phone: '13800138000', content: '四十天前', receivedAt: new Date(now.getTime() - 40 * DAY) },
      {
        account: 'client1',
        phone: '13800138000',
        content: '一百天前',
        receivedAt: new Date(now.getTime() - 100 * DAY),
      },
      {
        account: 'client0',
        phone: '13800138000',
        content: '别家的回复',
        receivedAt: new Date(now.getTime() - 3600_000),
      },
    ]);
    [agent1, agent0, client1, client3, client0] = await Promise.all(
      ['agent1', 'agent0', 'client1', 'client3', 'client0'].map((u) => loggedIn(t.server, u)),
    );
  });

  describe('POST /send/sendTask', () => {
    it("lists a sub-account's own tasks, newest first, in the entity shape", async () => {
      const r = await client1.post('/api/send/sendTask', {});
      expect(r.body.code).toBe(0);
      expect(r.body.data).toMatchObject({ totalCount: 3, currentPage: 1, pageRowCount: 15 });
      expect(r.body.data.list.map((x: any) => x.uid)).toEqual([B.uid, A.uid, C.uid]);
      expect(r.body.data.list[1]).toMatchObject({
        rowNum: 2,
        id: A.id,
        uid: A.uid,
        clientId: 'client1',
        content: '【云讯科技】您的验证码是1234',
        smstype: 4,
        smstypeStr: '验证码',
        sign: '云讯科技',
        templateType: 0,
        fileType: 0,
        submitTotal: 5,
        chargeNumTotal: 5,
        status: 3,
        statusStr: '已完成',
        taskSchedule: 100,
        creator: 'client1',
      });
      expect(r.body.data.list[1].createTimeStr).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      // B: nothing delivered yet
      expect(r.body.data.list[0]).toMatchObject({ status: 1, statusStr: '等待发送', taskSchedule: 0 });
    });

    it("an agent sees its own and its sub-accounts' tasks, never another agent's; clientId narrows", async () => {
      const all = await agent1.post('/api/send/sendTask', {});
      expect(all.body.data.list.map((x: any) => x.uid).sort()).toEqual([A.uid, B.uid, C.uid, D.uid, E.uid].sort());
      expect(
        (await agent1.post('/api/send/sendTask', { clientId: 'client3' })).body.data.list.map((x: any) => x.uid),
      ).toEqual([D.uid]);
      expect(
        (await agent1.post('/api/send/sendTask', { clientId: 'agent1' })).body.data.list.map((x: any) => x.uid),
      ).toEqual([E.uid]);
      expect((await agent1.post('/api/send/sendTask', { clientId: 'client0' })).body.code).toBe(403);
      expect((await agent0.post('/api/send/sendTask', {})).body.data.list.map((x: any) => x.uid)).toEqual([F.uid]);
      // a sub-account's clientId is ignored: always its own
      expect(
        (await client3.post('/api/send/sendTask', { clientId: 'client1' })).body.data.list.map((x: any) => x.uid),
      ).toEqual([D.uid]);
    });

    it('filters by status, type, template type, sign, task number, creator, content and creation days', async () => {
      const uids = async (f: Record<string, unknown>) =>
        (await client1.post('/api/send/sendTask', f)).body.data.list.map((x: any) => x.uid);
      expect(await uids({ status: 1 })).toEqual([B.uid]);
      expect(await uids({ status: '' })).toHaveLength(3);
      expect(await uids({ smstype: 4 })).toEqual([A.uid]);
      expect(await uids({ templateType: 1 })).toEqual([]);
      expect(await uids({ sign: '易购' })).toEqual([B.uid]);
      expect(await uids({ id: A.uid })).toEqual([A.uid]);
      expect(await uids({ creator: 'agent' })).toEqual([B.uid]);
      expect(await uids({ content: '验证码' })).toEqual([A.uid]);
      // % and _ are literal
      expect(await uids({ content: '100%' })).toEqual([B.uid]);
      expect(await uids({ content: '%' })).toEqual([B.uid]);
      expect(await uids({ createTimeStart: day(-1), createTimeEnd: day(-1) })).toEqual([A.uid]);
      expect(await uids({ createTimeStart: day(-2) })).toEqual([B.uid, A.uid]);
      expect(await uids({ createTimeEnd: day(-50) })).toEqual([C.uid]);
    });

    it('pages by page + rows; refuses bad values with their messages', async () => {
      const r = await client1.post('/api/send/sendTask', { page: 2, rows: 2 });
      expect(r.body.data).toMatchObject({ totalCount: 3, currentPage: 2, pageRowCount: 2, totalPage: 2 });
      expect(r.body.data.list.map((x: any) => [x.uid, x.rowNum])).toEqual([[C.uid, 3]]);
      const past = await client1.post('/api/send/sendTask', { page: 9, rows: 2 });
      expect(past.body.data).toMatchObject({ totalCount: 3, list: [] });
      expect((await client1.post('/api/send/sendTask', { createTimeStart: '2026-02-31' })).body).toMatchObject({
        code: 400,
        msg: '日期格式不正确',
      });
      expect(
        (await client1.post('/api/send/sendTask', { createTimeStart: day(0), createTimeEnd: day(-3) })).body,
      ).toMatchObject({ code: 400, msg: '开始日期不能晚于结束日期' });
      expect((await client1.post('/api/send/sendTask', { status: 9 })).body).toMatchObject({
        code: 400,
        msg: '参数错误',
      });
      expect((await client1.post('/api/send/sendTask', { page: 0 })).body.code).toBe(400);
    });
  });

  describe('POST /send/queryTaskInfo', () => {
    it('answers the counts by outcome (pending, success, fail, unknown, intercepted), by uid or id', async () => {
      const r = await client1.post('/api/send/queryTaskInfo', { id: A.uid });
      expect(r.body.data).toMatchObject({
        uid: A.uid,
        sentNum: 0,
        successNum: 2,
        failNum: 1,
        unknownNum: 1,
        interceptNum: 1,
        taskSchedule: 100,
      });
      const b = await agent1.post('/api/send/queryTaskInfo', { id: String(B.id) });
      expect(b.body.data).toMatchObject({ uid: B.uid, sentNum: 3, successNum: 0, taskSchedule: 0 });
      expect((await agent1.post('/api/send/queryTaskInfo', { id: B.id }, { json: true })).body.data.uid).toBe(B.uid);
    });

    it("another account's task does not exist for the caller", async () => {
      expect((await client0.post('/api/send/queryTaskInfo', { id: A.uid })).body).toMatchObject({
        code: 404,
        msg: '任务不存在',
      });
      expect((await client3.post('/api/send/queryTaskInfo', { id: String(A.id) })).body.code).toBe(404);
      expect((await agent0.post('/api/send/queryTaskInfo', { id: A.uid })).body.code).toBe(404);
      expect((await client1.post('/api/send/queryTaskInfo', {})).body).toMatchObject({ code: 400, msg: '参数错误' });
    });
  });

  describe('POST /send/exportTaskInfoPhones', () => {
    it('refuses without a chosen state: 请选择需要导出号码状态！', async () => {
      expect((await client1.post('/api/send/exportTaskInfoPhones', { id: A.uid })).body).toMatchObject({
        code: 400,
        msg: '请选择需要导出号码状态！',
      });
      expect((await client1.post('/api/send/exportTaskInfoPhones', { id: A.uid, sendTypes: '' })).body.msg).toBe(
        '请选择需要导出号码状态！',
      );
      expect(
        (await client1.post('/api/send/exportTaskInfoPhones', { id: A.uid, sendTypes: '1,9' })).body,
      ).toMatchObject({ code: 400, msg: '参数错误' });
    });

    it('streams the numbers of the chosen outcomes, one a line', async () => {
      const ok = await raw(t.server, client1, 'POST', '/api/send/exportTaskInfoPhones', { id: A.uid, sendTypes: '1' });
      expect(ok.headers['content-type']).toContain('text/plain');
      expect(ok.headers['content-disposition']).toContain(`${A.uid}.txt`);
      expect(ok.body.trim().split('\n')).toEqual(['13800138000', '18612345678']);
      const several = await raw(t.server, agent1, 'POST', '/api/send/exportTaskInfoPhones', {
        id: A.uid,
        sendTypes: '2,3,4',
      });
      expect(several.body.trim().split('\n')).toEqual(['13912345678', '18912345678', '13312345678']);
      const pending = await raw(t.server, client1, 'POST', '/api/send/exportTaskInfoPhones', {
        id: B.uid,
        sendTypes: '5',
      });
      expect(pending.body.trim().split('\n')).toHaveLength(3);
      const none = await raw(t.server, client1, 'POST', '/api/send/exportTaskInfoPhones', {
        id: C.uid,
        sendTypes: '2',
      });
      expect(none.body).toBe('');
      expect((await client0.post('/api/send/exportTaskInfoPhones', { id: A.uid, sendTypes: '1' })).body.code).toBe(404);
    });
  });

  describe('POST /send/smsTimerSend/list and /send/getAllPhone/list', () => {
    it('lists the timed tasks with their filters', async () => {
      const r = await client1.post('/api/send/smsTimerSend/list', {});
      expect(r.body.data.totalCount).toBe(1);
      expect(r.body.data.list[0]).toMatchObject({
        rowNum: 1,
        taskId: B.uid,
        clientid: 'client1',
        chargeNumTotal: 3,
        smstype: 5,
        smstypeStr: '营销',
        sign: '好易购',
        status: 1,
        statusStr: '等待发送',
        creator: 'agent1',
        getAllPhoneFlag: 1,
        cancelFlag: 1,
        templateType: 0,
      });
      expect(r.body.data.list[0].setSendTimeStr).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      const ids = async (f: Record<string, unknown>, c = client1) =>
        (await c.post('/api/send/smsTimerSend/list', f)).body.data.list.map((x: any) => x.taskId);
      expect(await ids({ timeType: 1, startTime: day(2), endTime: day(2) })).toEqual([B.uid]);
      expect(await ids({ timeType: 1, startTime: day(0), endTime: day(0) })).toEqual([]);
      expect(await ids({ timeType: 0, startTime: day(0) })).toEqual([B.uid]);
      expect(await ids({ timeType: 0, endTime: day(-1) })).toEqual([]);
      expect(await ids({ status: 3 })).toEqual([]);
      expect(await ids({ smstype: 5, sign: '好易', content: '大促' })).toEqual([B.uid]);
      expect(await ids({ smstype: 0 })).toEqual([]);
      expect(await ids({ templateType: 1 })).toEqual([]);
      expect(await ids({ clientid: 'client1' }, agent1)).toEqual([B.uid]);
      expect(await ids({ clientid: 'client3' }, agent1)).toEqual([]);
      expect(await ids({}, client3)).toEqual([]);
      expect((await agent0.post('/api/send/smsTimerSend/list', { clientid: 'client1' })).body.code).toBe(403);
      expect((await client1.post('/api/send/smsTimerSend/list', { timeType: 3 })).body.code).toBe(400);
    });

    it('pages the numbers of a task; another account gets 任务不存在', async () => {
      const r = await client1.post('/api/send/getAllPhone/list', { uid: B.uid, submitTime: '', page: 1, rows: 2 });
      expect(r.body.data).toMatchObject({
        totalCount: 3,
        pageRowCount: 2,
        list: [{ phone: '13012345678' }, { phone: '15012345678' }],
      });
      const p2 = await agent1.post('/api/send/getAllPhone/list', { uid: B.uid, page: 2, rows: 2 });
      expect(p2.body.data.list).toEqual([{ phone: '13512345678' }]);
      expect((await client3.post('/api/send/getAllPhone/list', { uid: B.uid })).body.code).toBe(404);
    });
  });

  describe('POST /send/getrecords', () => {
    const phones = async (c: Client, f: Record<string, unknown>) => {
      const r = await c.post('/api/send/getrecords', f);
      expect(r.body.code, JSON.stringify(r.body)).toBe(0);
      return r.body.data.list.map((x: any) => x.phone);
    };

    it('answers the last 90 days by default, 10 a page, newest first, in the entity shape', async () => {
      const r = await client1.post('/api/send/getrecords', {});
      expect(r.body.data).toMatchObject({ totalCount: 8, currentPage: 1, pageRowCount: 10, totalCapped: false });
      // B (2 h ago) first, then A; C (100 days ago) is outside the default range
      expect(r.body.data.list.map((x: any) => x.phone)).toEqual([
        '13512345678',
        '15012345678',
        '13012345678',
        '13312345678',
        '18912345678',
        '13912345678',
        '18612345678',
        '13800138000',
      ]);
      const failed = r.body.data.list.find((x: any) => x.phone === '13912345678');
      expect(failed).toMatchObject({
        clientid: 'client1',
        operatorstype: 1,
        provinceName: '江苏',
        cityName: '常州市',
        content: '【云讯科技】您的验证码是1234',
        state: 6,
        stateStr: '明确失败',
        errorcode: 'UNDELIV',
        report: 'UNDELIV',
        smsNum: 1,
      });
      expect(failed.dateStr).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(r.body.data.list.find((x: any) => x.phone === '13012345678')).toMatchObject({
        state: 0,
        stateStr: '未发送',
      });
      expect(await phones(client1, { beginDate: day(-120) })).toContain('13811112222');
    });

    it('filters by states, number, content, days, carrier, province and city', async () => {
      expect(await phones(client1, { stateList: '3' })).toEqual(['18612345678', '13800138000']);
      expect(await phones(client1, { stateList: '6,11' })).toEqual(['13312345678', '13912345678']);
      expect(await phones(client1, { phone: '13912345678' })).toEqual(['13912345678']);
      expect(await phones(client1, { phone: '1391234567' })).toEqual([]);
      expect(await phones(client1, { searchContent: '大促' })).toEqual(['13512345678', '15012345678', '13012345678']);
      expect(await phones(client1, { searchContent: '_' })).toEqual(['13512345678', '15012345678', '13012345678']);
      expect(await phones(client1, { beginDate: day(-1), endDate: day(-1) })).toHaveLength(5);
      expect(await phones(client1, { beginDate: day(-100), endDate: day(-100) })).toEqual(['13811112222']);
      expect(await phones(client1, { endDate: day(-2) })).toEqual([]);
      expect(await phones(client1, { operatorstype: 2 })).toEqual(['13012345678', '18612345678']);
      expect(await phones(client1, { operatorstype: 3 })).toEqual(['13312345678', '18912345678']);
      expect(await phones(client1, { operatorstype: 0 })).toHaveLength(8);
      expect(await phones(client1, { province: 32 })).toEqual(['18912345678', '13912345678']);
      expect(await phones(client1, { province: 50, city: 506104 })).toEqual(['13512345678', '13012345678']);
      expect(await phones(client1, { city: 112852 })).toEqual(['18612345678', '13800138000']);
      expect(await phones(client1, { province: 32, operatorstype: 3, stateList: '1' })).toEqual(['18912345678']);
    });

    it('a content filter matching more than CONTENT_TASKS_MAX tasks is refused with the message, before any record is read', async () => {
      const db = t.server.handle.db;
      const acc = await db
        .selectFrom('accounts')
        .select('id')
        .where('clientid', '=', 'client1')
        .executeTakeFirstOrThrow();
      const created = new Date(t.server.clock.now().getTime() - 3600_000);
      // tasks without messages: only the count of matching tasks matters
      await sql`
        insert into sms_tasks (uid, account_id, creator_id, payer_id, charge_mode, content, smstype, send_time, created_at, updated_at)
        select 'many' || g, ${acc.id}, ${acc.id}, ${acc.id}, 1, '【云讯科技】批量匹配' || g, 0, ${created}, ${created}, ${created}
        from generate_series(1, ${CONTENT_TASKS_MAX + 1}) g`.execute(db);
      try {
        const r = await client1.post('/api/send/getrecords', { searchContent: '批量匹配' });
        expect(r.body).toMatchObject({ code: 400, msg: '短信内容匹配的任务过多，请缩小查询范围' });
        // at the limit it is answered
        await sql`delete from sms_tasks where uid = ${`many${CONTENT_TASKS_MAX + 1}`}`.execute(db);
        expect((await client1.post('/api/send/getrecords', { searchContent: '批量匹配' })).body.data).toMatchObject({
          totalCount: 0,
        });
        // the exports refuse the same way
        const e = await client1.post('/api/send/exportrecords', { searchContent: '【云讯科技】' });
        expect(e.body).toMatchObject({ code: 400, msg: '短信内容匹配的任务过多，请缩小查询范围' });
      } finally {
        await sql`delete from sms_tasks where uid like 'many%'`.execute(db);
      }
    });

    it('scopes: an agent reads itself and its sub-accounts, never another agent; a sub-account only itself', async () => {
      expect((await agent1.post('/api/send/getrecords', {})).body.data.totalCount).toBe(8 + 2 + 1);
      expect(await phones(agent1, { clientid: 'client3' })).toEqual(['18612345678', '13800138001']);
      expect(await phones(agent1, { clientid: 'agent1' })).toEqual(['13800138000']);
      expect((await agent1.post('/api/send/getrecords', { clientid: 'client0' })).body).toMatchObject({
        code: 403,
        msg: '无权访问',
      });
      expect(await phones(agent0, {})).toEqual(['18612345678', '13800138000']);
      expect(await phones(client0, { clientid: 'client1' })).toEqual(['18612345678', '13800138000']);
      expect(await phones(client3, { phone: '13912345678' })).toEqual([]);
      // a number across the scope's accounts (client1's and client3's), with a state too
      expect(await phones(agent1, { phone: '18612345678' })).toEqual(['18612345678', '18612345678']);
      expect(await phones(agent1, { phone: '18612345678', stateList: '4' })).toEqual(['18612345678']);
      expect((await agent1.post('/api/send/getrecords', { phone: '18612345678' })).body.data.totalCount).toBe(2);
    });

    it('pages, and counts up to recordCountCap (totalCapped beyond; pages past the cap are empty)', async () => {
      const p2 = await client1.post('/api/send/getrecords', { page: 2, rows: 3 });
      expect(p2.body.data).toMatchObject({ totalCount: 8, currentPage: 2, pageRowCount: 3, totalPage: 3 });
      expect(p2.body.data.list.map((x: any) => x.phone)).toEqual(['13312345678', '18912345678', '13912345678']);
      const cap = config().recordCountCap;
      config().recordCountCap = 5;
      try {
        const r = await client1.post('/api/send/getrecords', { rows: 3, page: 2 });
        expect(r.body.data).toMatchObject({ totalCount: 5, totalCapped: true, totalPage: 2 });
        expect(r.body.data.list).toHaveLength(2);
        expect((await client1.post('/api/send/getrecords', { rows: 3, page: 3 })).body.data.list).toEqual([]);
        expect((await client1.post('/api/send/getrecords', { stateList: '3' })).body.data).toMatchObject({
          totalCount: 2,
          totalCapped: false,
        });
      } finally {
        config().recordCountCap = cap;
      }
    });

    it('refuses malformed filters with their messages', async () => {
      const msg = async (f: Record<string, unknown>) => (await client1.post('/api/send/getrecords', f)).body;
      expect(await msg({ stateList: '3,x' })).toMatchObject({ code: 400, msg: '发送状态不正确' });
      expect(await msg({ stateList: '2' })).toMatchObject({ code: 400, msg: '发送状态不正确' });
      expect(await msg({ phone: '138-0013' })).toMatchObject({ code: 400, msg: '手机号码格式不正确' });
      expect(await msg({ beginDate: '2026-13-01' })).toMatchObject({ code: 400, msg: '日期格式不正确' });
      expect(await msg({ beginDate: day(0), endDate: day(-5) })).toMatchObject({
        code: 400,
        msg: '开始日期不能晚于结束日期',
      });
      expect(await msg({ operatorstype: 7 })).toMatchObject({ code: 400 });
      expect(await msg({ province: 'abc' })).toMatchObject({ code: 400, msg: '参数错误' });
      expect(await msg({ city: 10_000_000 })).toMatchObject({ code: 400, msg: '参数错误' });
      expect(await msg({ rows: 'x' })).toMatchObject({ code: 400 });
      // far dates are days like any other: no rows, no fault
      for (const d of ['9999-12-31', '0001-01-01']) {
        const r = await msg({ beginDate: d, endDate: d });
        expect([0, 400], JSON.stringify(r)).toContain(r.code);
        if (r.code === 0) expect(r.data.list).toEqual([]);
      }
      for (const d of ['9999-12-31', '0001-01-01'])
        expect([0, 400]).toContain((await client1.post('/api/send/getmologs', { startReceivedate: d })).body.code);
      for (const d of ['9999-12-31', '0001-01-01'])
        expect([0, 400]).toContain(
          (await client1.post('/api/send/sendTask', { createTimeStart: d, createTimeEnd: d })).body.code,
        );
    });
  });

  describe('POST /send/exportrecords + GET /send/downloadExportSendRecords', () => {
    it('refuses over the limit (导出记录数不能大于100万。) and without rows (当前条件没有数据，无法导出)', async () => {
      const max = config().recordExportMax;
      config().recordExportMax = 7;
      try {
        expect((await client1.post('/api/send/exportrecords', {})).body).toMatchObject({
          code: 500,
          msg: '导出记录数不能大于100万。',
        });
        expect((await client1.post('/api/send/exportrecords', { stateList: '3' })).body.code).toBe(0);
      } finally {
        config().recordExportMax = max;
      }
      expect((await client1.post('/api/send/exportrecords', { phone: '13000000000' })).body).toMatchObject({
        code: 500,
        msg: '当前条件没有数据，无法导出',
      });
    });

    it('prepares an xlsx (entity titles as headers) that only the exporting account downloads', async () => {
      const r = await client1.post('/api/send/exportrecords', { stateList: '3,6' });
      expect(r.body).toMatchObject({ code: 0, data: { rows: 3 } });
      const id = r.body.data.filePath;
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      const file = await raw(t.server, client1, 'GET', `/api/send/downloadExportSendRecords?filePath=${id}`);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toContain('spreadsheetml');
      const rows = await readSheet(file.rawPayload);
      expect(rows[0]).toEqual([
        '账户',
        '手机号码',
        '运营商',
        '省份',
        '城市',
        '短信内容',
        '发送状态',
        '错误码',
        '状态报告',
        '发送时间',
        '计费条数',
      ]);
      expect(rows.slice(1).map((x) => [x[1], x[2], x[6]])).toEqual([
        ['13912345678', '移动', '明确失败'],
        ['18612345678', '联通', '明确成功'],
        ['13800138000', '移动', '明确成功'],
      ]);
      // not the agent, not another sub-account: the file is the exporter's
      for (const other of [agent1, client3, client0]) {
        expect((await other.get(`/api/send/downloadExportSendRecords?filePath=${id}`)).body).toMatchObject({
          code: 404,
        });
      }
      // no path, only an id
      expect(
        (await client1.get('/api/send/downloadExportSendRecords?filePath=..%2F..%2Fetc%2Fpasswd')).body,
      ).toMatchObject({ code: 400, msg: '参数错误' });
      expect((await client1.get(`/api/send/downloadExportSendRecords?filePath=exports%2F${id}.xlsx`)).body.code).toBe(
        400,
      );
      expect((await client1.get('/api/send/downloadExportSendRecords?filePath=' + '0'.repeat(32))).body.code).toBe(404);
      expect((await client1.get('/api/send/downloadExportSendRecords')).body.code).toBe(400);
      // kept 24 hours
      const db = t.server.handle.db;
      await sql`update export_files set created_at = ${new Date(t.server.clock.now().getTime() - 25 * 3600_000)} where id = ${id}`.execute(
        db,
      );
      expect((await client1.get(`/api/send/downloadExportSendRecords?filePath=${id}`)).body).toMatchObject({
        code: 404,
        msg: '文件不存在或已过期，请重新导出',
      });
      // the next export of the account removes it, file and row
      const file2 = (await db.selectFrom('export_files').select('path').where('id', '=', id).executeTakeFirstOrThrow())
        .path;
      expect((await client1.post('/api/send/exportrecords', { stateList: '3' })).body.code).toBe(0);
      expect(await db.selectFrom('export_files').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
      expect(fs.existsSync(path.join(t.server.dataDir, file2))).toBe(false);
    });

    it("an agent's export covers its scope and is its own", async () => {
      const r = await agent1.post('/api/send/exportrecords', { clientid: 'client3' });
      expect(r.body.data.rows).toBe(2);
      const file = await raw(
        t.server,
        agent1,
        'GET',
        `/api/send/downloadExportSendRecords?filePath=${r.body.data.filePath}`,
      );
      expect((await readSheet(file.rawPayload)).slice(1).map((x) => x[0])).toEqual(['client3', 'client3']);
      expect(
        (await client3.get(`/api/send/downloadExportSendRecords?filePath=${r.body.data.filePath}`)).body.code,
      ).toBe(404);
      expect((await agent1.post('/api/send/exportrecords', { clientid: 'client0' })).body.code).toBe(403);
    });
  });

  describe('POST /send/exportRecordsTxt', () => {
    it('streams the numbers; over the limit 导出号码数不能大于500万。; none 当前条件没有数据，无法导出', async () => {
      const r = await raw(t.server, client1, 'POST', '/api/send/exportRecordsTxt', { stateList: '3,6' });
      expect(r.headers['content-type']).toContain('text/plain');
      expect(r.body.trim().split('\n')).toEqual(['13912345678', '18612345678', '13800138000']);
      const max = config().recordTxtExportMax;
      config().recordTxtExportMax = 2;
      try {
        expect((await client1.post('/api/send/exportRecordsTxt', { stateList: '3,6' })).body).toMatchObject({
          code: 500,
          msg: '导出号码数不能大于500万。',
        });
        expect((await raw(t.server, client1, 'POST', '/api/send/exportRecordsTxt', { stateList: '6' })).body).toBe(
          '13912345678\n',
        );
      } finally {
        config().recordTxtExportMax = max;
      }
      expect((await client1.post('/api/send/exportRecordsTxt', { stateList: '14' })).body).toMatchObject({
        code: 500,
        msg: '当前条件没有数据，无法导出',
      });
    });

    it('streams every batch (more than one keyset batch)', async () => {
      const db = t.server.handle.db;
      const many = Array.from({ length: 5003 }, (_, i) => `1380000${String(i).padStart(4, '0')}`);
      await insertTask(db, {
        account: 'client3',
        createdAt: new Date(t.server.clock.now().getTime() - 5 * DAY),
        messages: many,
      });
      const r = await raw(t.server, client3, 'POST', '/api/send/exportRecordsTxt', {});
      const lines = r.body.trim().split('\n');
      expect(lines).toHaveLength(2 + 5003); // D's two (3 days ago), then the 5003 new ones (5 days ago)
      expect(lines.slice(0, 4)).toEqual(['18612345678', '13800138001', '13800005002', '13800005001']);
      expect(lines.slice(-2)).toEqual(['13800000001', '13800000000']);
      expect(new Set(lines).size).toBe(5005);
    });
  });

  describe('POST /send/getmologs + /send/exportmologs', () => {
    it('answers the last month by default, 15 a page, scoped', async () => {
      const r = await client1.post('/api/send/getmologs', {});
      expect(r.body.data).toMatchObject({ totalCount: 2, pageRowCount: 15 });
      expect(r.body.data.list[0]).toMatchObject({
        rowNum: 1,
        clientid: 'client1',
        phone: '13800138000',
        content: 'TD 退订',
      });
      expect(r.body.data.list[0].receivedateStr).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect((await agent1.post('/api/send/getmologs', {})).body.data.totalCount).toBe(2);
      expect((await agent0.post('/api/send/getmologs', {})).body.data.list.map((x: any) => x.content)).toEqual([
        '别家的回复',
      ]);
      expect((await agent0.post('/api/send/getmologs', { clientid: 'client1' })).body.code).toBe(403);
      expect(
        (await client1.post('/api/send/getmologs', { phone: '18612345678' })).body.data.list.map((x: any) => x.content),
      ).toEqual(['好的，收到']);
      expect((await client1.post('/api/send/getmologs', { searchContent: '退订' })).body.data.totalCount).toBe(1);
      expect(
        (
          await client1.post('/api/send/getmologs', { startReceivedate: day(-45), endReceivedate: day(-20) })
        ).body.data.list.map((x: any) => x.content),
      ).toEqual(['好的，收到', '四十天前']);
      expect(
        (await client1.post('/api/send/getmologs', { startReceivedate: day(-45) })).body.data.list.map(
          (x: any) => x.content,
        ),
      ).toContain('四十天前');
    });

    it('last three months only, a span of one month at most', async () => {
      expect(
        (await client1.post('/api/send/getmologs', { startReceivedate: day(-100), endReceivedate: day(-90) })).body,
      ).toMatchObject({
        code: 400,
        msg: '只能查询近三个月的上行记录',
      });
      expect(
        (await client1.post('/api/send/getmologs', { startReceivedate: day(-60), endReceivedate: day(-20) })).body,
      ).toMatchObject({
        code: 400,
        msg: '查询时间跨度不能超过一个月',
      });
      expect(
        (await client1.post('/api/send/exportmologs', { startReceivedate: day(-60), endReceivedate: day(-20) })).body
          .msg,
      ).toBe('查询时间跨度不能超过一个月');
      expect(
        (await client1.post('/api/send/getmologs', { startReceivedate: day(0), endReceivedate: day(-2) })).body.code,
      ).toBe(400);
      expect((await client1.post('/api/send/getmologs', { startReceivedate: 'x' })).body).toMatchObject({
        code: 400,
        msg: '日期格式不正确',
      });
    });

    it('exports the rows as xlsx; none → 当前条件没有数据，无法导出; over the limit refused', async () => {
      const r = await raw(t.server, client1, 'POST', '/api/send/exportmologs', {});
      expect(r.headers['content-type']).toContain('spreadsheetml');
      const rows = await readSheet(r.rawPayload);
      expect(rows[0]).toEqual(['序号', '账户', '手机号码', '回复内容', '接收时间']);
      expect(rows.slice(1).map((x) => x[3])).toEqual(['TD 退订', '好的，收到']);
      expect((await client1.post('/api/send/exportmologs', { phone: '13000000000' })).body).toMatchObject({
        code: 500,
        msg: '当前条件没有数据，无法导出',
      });
      const max = config().recordExportMax;
      config().recordExportMax = 1;
      try {
        expect((await client1.post('/api/send/exportmologs', {})).body).toMatchObject({
          code: 500,
          msg: '导出记录数不能大于100万。',
        });
      } finally {
        config().recordExportMax = max;
      }
    });
  });

  it('every route asks for a session', async () => {
    const anon = await t.server.client().init();
    for (const url of [
      '/api/send/sendTask',
      '/api/send/queryTaskInfo',
      '/api/send/exportTaskInfoPhones',
      '/api/send/smsTimerSend/list',
      '/api/send/getAllPhone/list',
      '/api/send/getrecords',
      '/api/send/exportrecords',
      '/api/send/exportRecordsTxt',
      '/api/send/getmologs',
      '/api/send/exportmologs',
    ])
      expect((await anon.post(url, {})).body.code, url).toBe(401);
    expect((await anon.get('/api/send/downloadExportSendRecords?filePath=' + '0'.repeat(32))).body.code).toBe(401);
  });
});
