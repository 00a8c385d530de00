/**
 * Reports (docs/api-reports.md): the pre-aggregated daily rows equal a recount of the send records
 * after sends, submit failures, receipts, intercepts, review rejections (refunds) and a timed-task
 * cancel; the report routes, their date rules and scoping; today's figures, the week chart, the
 * header pool figures, the API info of a sub-account and the remaining pools. Both databases.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { Dispatcher } from '../../server/modules/dispatch/dispatcher';
import { businessDay } from '../../server/modules/reports';
import { FakeLink } from '../fixtures/fake-smsc';
import { backends, useServer, type Client, type TestServer } from './harness';
import { accountId, as, cli, db, shanghai, templateId } from './send-helpers';

const codeContent = (code = '123456') => `您的好易购登录验证码为${code}，5分钟内有效，请勿告诉他人。`;
const shipContent = (goods: string) => `您在好易购购买的${goods}已发货，快递单号SF001，请留意查收。`;
const PHONES = [
  '13800138000',
  '13800138001',
  '13800138002',
  '13800138003',
  '18600186000',
  '18600186001',
  '18600186003',
  '18900189000',
  '18900189002',
  '18900189003',
];
const MARKETING_FIXED = '双十一狂欢节，全场商品满300减50，活动仅限3天，回T退订。';
const MIN = 60_000;
const DAY = 86_400_000;

type Row = Record<string, number | string>;

/**
 * The aggregate rows that are not all zero, as readers sum them (`report_rows`: the folded rows and
 * the deltas not folded yet; `folded`: report_daily alone after `report_fold()`), and the same
 * figures recounted from sms_messages.
 */
async function aggregateAndRecount(
  s: TestServer,
  opts: { folded?: boolean } = {},
): Promise<{ agg: Row[]; recount: Row[] }> {
  if (opts.folded) await sql`select report_fold()`.execute(db(s));
  const source = sql.raw(opts.folded ? 'report_daily' : 'report_rows');
  const agg = await sql<Row>`
    select account_id, to_char(day, 'YYYY-MM-DD') as day, smstype, paytype, inter, max(agent_id) as agent_id,
      sum(send_num) as send_num, sum(charge_total) as charge_total, sum(success_num) as success_num, sum(unknown_num) as unknown_num,
      sum(fail_num) as fail_num, sum(wait_num) as wait_num, sum(intercept_num) as intercept_num
    from ${source}
    group by 1, 2, 3, 4, 5
    having sum(send_num) <> 0 or sum(charge_total) <> 0 or sum(success_num) <> 0 or sum(unknown_num) <> 0 or sum(fail_num) <> 0 or sum(wait_num) <> 0 or sum(intercept_num) <> 0
    order by 1, 2, 3, 4, 5`.execute(db(s));
  const recount = await sql<Row>`
    select m.account_id, to_char(((m.created_at at time zone 'UTC') + interval '8 hours')::date, 'YYYY-MM-DD') as day, t.smstype,
      (case when t.payer_id <> t.account_id then 1 else 0 end) as paytype, (case when m.carrier = 4 then 1 else 0 end) as inter,
      coalesce(t.agent_id, 0) as agent_id,
      count(*)::int as send_num,
      coalesce(sum(case when m.state in (4, 6, 8, 9, 11, 12, 13, 14) then 0 else m.pieces end), 0)::int as charge_total,
      count(*) filter (where m.state in (3, 16))::int as success_num,
      count(*) filter (where m.state in (1, 15))::int as unknown_num,
      count(*) filter (where m.state in (4, 6, 8, 9, 14))::int as fail_num,
      count(*) filter (where m.state in (0, 7))::int as wait_num,
      count(*) filter (where m.state in (11, 12, 13))::int as intercept_num
    from sms_messages m join sms_tasks t on t.id = m.task_id
    group by 1, 2, 3, 4, 5, 6
    order by 1, 2, 3, 4, 5`.execute(db(s));
  const norm = (rows: Row[]) =>
    rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'day' ? v : Number(v)])));
  return { agg: norm(agg.rows), recount: norm(recount.rows) };
}

async function expectRecount(s: TestServer) {
  const { agg, recount } = await aggregateAndRecount(s);
  expect(agg.length).toBeGreaterThan(0);
  expect(agg).toEqual(recount);
  // folding moves the deltas into report_daily without changing a figure
  const folded = await aggregateAndRecount(s, { folded: true });
  expect(folded.agg).toEqual(recount);
  expect(
    Number((await sql<{ n: string }>`select count(*)::text as n from report_delta`.execute(db(s))).rows[0].n),
  ).toBe(0);
}

describe.each(backends)('reports (%s)', (backend) => {
  const t = useServer(backend);
  let client1: Client;
  let client0: Client;
  let agent1: Client;
  let agent0: Client;
  let codeTpl: number;
  let shipTpl: number;
  const send = async (c: Client, payload: Record<string, unknown>) => {
    t.server.clock.advance(3100);
    return c.post('/api/send/sending', payload);
  };
  const dispatchAll = async (link: FakeLink) => {
    const d = new Dispatcher(t.server.app.ctx, link, { maintenanceMs: 0, batchSize: 7 });
    while ((await d.dispatchOnce()) > 0);
    await link.flushReceipts();
    await d.applyOnce();
  };
  const today = () => businessDay(t.server.clock.now());
  const daysAgo = (n: number) => businessDay(new Date(t.server.clock.t - n * DAY));

  it('the migration backfill and the demo seed equal a recount', async () => {
    // a fixed morning, so that "today" does not straddle midnight while the test runs
    t.server.clock.toNextBusinessMorning();
    client1 = await as(t.server, 'client1');
    client0 = await as(t.server, 'client0');
    agent1 = await as(t.server, 'agent1');
    agent0 = await as(t.server, 'agent0');
    codeTpl = await templateId(t.server, '您的好易购登录验证码为');
    shipTpl = await templateId(t.server, '您在好易购购买的');
    await expectRecount(t.server);
  });

  it('folds beside sends and dispatch never change a figure; one fold runs at a time (migration 0041)', async () => {
    const reports = t.server.app.services.reports;
    const sent = send(client1, {
      sign: '好易购',
      smstype: 4,
      templateId: codeTpl,
      content: codeContent(),
      mobile: PHONES.slice(0, 5).join(','),
    });
    const folds = await Promise.all([reports.fold(), reports.fold(), sent.then(() => reports.fold())]);
    expect((await sent).body.code).toBe(0);
    for (const n of folds) expect(n).toBeGreaterThanOrEqual(-1);
    const link = new FakeLink(() => 'accept');
    await Promise.all([dispatchAll(link), reports.fold()]);
    await expectRecount(t.server);
    if (backend === 'postgres') {
      // a fold in a transaction still open holds the lock: another process's fold returns -1 and
      // leaves the deltas to it
      await send(client1, {
        sign: '好易购',
        smstype: 4,
        templateId: codeTpl,
        content: codeContent(),
        mobile: PHONES[0],
      });
      await db(t.server)
        .transaction()
        .execute(async (trx) => {
          expect((await sql<{ n: number }>`select report_fold() as n`.execute(trx)).rows[0].n).toBeGreaterThan(0);
          expect(await reports.fold()).toBe(-1);
        });
      await dispatchAll(link);
      await expectRecount(t.server);
    }
  });

  it('sends, submit failures and receipts keep the aggregates equal to a recount; today and the week move', async () => {
    const before = (await client1.get('/api/index/dataoftoday')).body.data;
    const weekBefore = (await client1.post('/api/WeekSubmitNumber', {})).body.data;
    const a = await send(client1, {
      sign: '好易购',
      smstype: 4,
      templateId: codeTpl,
      content: codeContent(),
      mobile: PHONES.join(','),
    });
    const b = await send(client0, {
      sign: '云讯通',
      smstype: 5,
      templateId: await templateId(t.server, MARKETING_FIXED),
      content: MARKETING_FIXED,
      mobile: PHONES.slice(0, 4).join(','),
    });
    expect(a.body.code).toBe(0);
    await expectRecount(t.server);
    const accepted = (await client1.get('/api/index/dataoftoday')).body.data;
    expect(accepted.submitTotal).toBe(before.submitTotal + 10);
    expect(accepted.sending).toBe(before.sending + 10);

    const link = new FakeLink((req) => (req.to.endsWith('3') ? 'reject' : 'accept'));
    link.delivered = (ref) => ref % 3 !== 0;
    await dispatchAll(link);
    await expectRecount(t.server);

    const after = (await client1.get('/api/index/dataoftoday')).body.data;
    expect(after.submitTotal).toBe(before.submitTotal + 10);
    expect(after.sending).toBe(before.sending);
    expect(
      after.sendSuccess + after.sendFail + after.unknown - (before.sendSuccess + before.sendFail + before.unknown),
    ).toBe(10);
    expect(after.sendFail).toBeGreaterThan(before.sendFail);
    const week = (await client1.post('/api/WeekSubmitNumber', {})).body.data;
    expect(week.dates).toHaveLength(7);
    expect(week.dates[6]).toBe(today());
    expect(week.submitTotal[6]).toBe(weekBefore.submitTotal[6] + 10);
    // an agent's chart counts its sub-accounts; another agent's sub-account is refused
    const agentWeek = (await agent1.post('/api/WeekSubmitNumber', {})).body.data;
    expect(agentWeek.submitTotal[6]).toBeGreaterThanOrEqual(week.submitTotal[6]);
    expect((await agent0.post('/api/WeekSubmitNumber', { clientid: 'client1' })).body.code).toBe(403);
    expect((await agent0.get('/api/index/dataoftoday?clientId=client1')).body.code).toBe(403);
    expect(b.body.code).toBe(0);
  });

  it('intercepts, review rejections (refunds) and a timed-task cancel keep the aggregates equal to a recount', async () => {
    const i = await send(client1, {
      sign: '好易购',
      smstype: 0,
      templateId: shipTpl,
      content: shipContent('刷单返利卡'),
      mobile: '13800138000,18600186000',
    });
    expect(i.body.msg).toBe('短信内容包含敏感词，已拦截');
    await expectRecount(t.server);
    expect((await client1.get('/api/index/dataoftoday')).body.data.intercept).toBeGreaterThanOrEqual(2);

    const c1 = await accountId(t.server, 'client1');
    await db(t.server).updateTable('accounts').set({ needaudit: 2 }).where('id', '=', c1).execute();
    try {
      const r = await send(client1, {
        sign: '好易购',
        smstype: 4,
        templateId: codeTpl,
        content: codeContent('111111'),
        mobile: '13800138000,18600186000,18900189000',
      });
      await expectRecount(t.server);
      expect((await cli(t.server, 'send', 'reject', r.body.data.taskId, '不合规')).code).toBe(0);
      await expectRecount(t.server);
    } finally {
      await db(t.server).updateTable('accounts').set({ needaudit: 0 }).where('id', '=', c1).execute();
    }

    t.server.clock.advance(3100);
    const timed = await client1.post(
      '/api/send/sendTim',
      {
        jsmsAccessTimerSms: {
          sign: '好易购',
          smstype: 4,
          templateId: codeTpl,
          content: codeContent(),
          mobilelist: '13800138000,18600186000',
          sendtime: shanghai(new Date(t.server.clock.t + 30 * MIN)),
        },
      },
      { json: true },
    );
    expect(timed.body.code).toBe(0);
    await expectRecount(t.server);
    expect((await client1.post('/api/send/undoSend', { uid: timed.body.data.taskId })).body.code).toBe(0);
    await expectRecount(t.server);
  });

  it('reports: rows per sub-account from the aggregates, the daily view, scoping and the exports', async () => {
    const sentToday = (await aggregateAndRecount(t.server)).recount.filter((r) => r.day === today());
    const c1 = await accountId(t.server, 'client1');
    const mine = sentToday.filter((r) => r.account_id === c1 && r.paytype === 0);
    const sum = (rows: Row[], k: string) => rows.reduce((s, r) => s + Number(r[k]), 0);
    // reports run up to yesterday: tomorrow, today's sends are in
    t.server.clock.toNextBusinessMorning();
    [client1, client0, agent1, agent0] = await Promise.all(
      ['client1', 'client0', 'agent1', 'agent0'].map((w) => as(t.server, w)),
    );
    const day = daysAgo(1);
    const r = await agent1.post('/api/client/report/consume/pretotal', { start_time_day: day, end_time_day: day });
    expect(r.body.code).toBe(0);
    const rows = r.body.data.list.filter((x: Row) => x.clientid === 'client1');
    expect(rows.length).toBeGreaterThan(0);
    expect(sum(rows, 'send_num')).toBe(sum(mine, 'send_num'));
    expect(sum(rows, 'chargeTotal')).toBe(sum(mine, 'charge_total'));
    expect(sum(rows, 'success_num')).toBe(sum(mine, 'success_num'));
    expect(sum(rows, 'fail_num')).toBe(sum(mine, 'fail_num'));
    expect(sum(rows, 'intercept_num')).toBe(sum(mine, 'intercept_num'));
    expect(rows[0]).toMatchObject({
      name: expect.any(String),
      paytype: 0,
      paytype_str: '预付费',
      smstype_str: expect.any(String),
      not_known_num: expect.any(Number),
      wait_send_num: expect.any(Number),
    });
    expect(r.body.data).toMatchObject({ totalCount: expect.any(Number), currentPage: 1 });
    // agent1's rows are its own and its sub-accounts' only
    expect(
      r.body.data.list.every((x: Row) => ['agent1', 'client1', 'client2', 'client3'].includes(String(x.clientid))),
    ).toBe(true);
    // customerInfo narrows; a sub-account sees only itself whatever it asks
    const f = await agent1.post('/api/client/report/consume/pretotal', {
      start_time_day: day,
      end_time_day: day,
      customerInfo: 'client2',
    });
    expect(f.body.data.list.every((x: Row) => x.clientid === 'client2')).toBe(true);
    const own = await client1.post('/api/client/report/consume/pretotal', {
      start_time_day: day,
      end_time_day: day,
      customerInfo: 'client2',
    });
    expect(own.body.data.list.map((x: Row) => x.clientid)).toEqual(rows.map((x: Row) => x.clientid));
    expect(
      (
        await agent0.post('/api/client/report/consume/pretotal', { start_time_day: day, end_time_day: day })
      ).body.data.list.some((x: Row) => x.clientid === 'client1'),
    ).toBe(false);

    // postpaid tab (client3 is billed against agent1): no client1 row
    const post = await agent1.post('/api/client/report/consume/suftotal', {
      start_time_day: daysAgo(30),
      end_time_day: day,
    });
    expect(post.body.data.list.every((x: Row) => x.paytype === 1 && x.clientid === 'client3')).toBe(true);

    // daily view of one sub-account
    const d = await agent1.get(
      `/api/client/report/consume/preday?id=client1&start_time_day=${daysAgo(7)}&end_time_day=${day}`,
    );
    expect(d.body.code).toBe(0);
    const dayRows = d.body.data.list.filter((x: Row) => x.date === day);
    expect(sum(dayRows, 'send_num')).toBe(sum(mine, 'send_num'));
    expect(d.body.data.list.every((x: Row) => x.clientid === 'client1')).toBe(true);
    expect((await agent0.get(`/api/client/report/consume/preday?id=client1`)).body.code).toBe(403);
    expect((await agent1.get(`/api/client/report/consume/preday`)).body.code).toBe(400);

    // direct mode (agent0): pre = 普通短信, suf = 国际短信
    const direct = await agent0.post('/api/client/report/consume/pretotal', { start_time_day: day, end_time_day: day });
    expect(direct.body.data.list.some((x: Row) => x.clientid === 'client0')).toBe(true);
    const inter = await agent0.post('/api/client/report/consume/suftotal', { start_time_day: day, end_time_day: day });
    expect(inter.body.data.list).toEqual([]);

    // exports: an xlsx (zip) stream; no rows → the spec's message
    const x = await agent1.post('/api/client/report/consume/consumeReportTotalExport', {
      start_time_day: day,
      end_time_day: day,
      paytype: 0,
    });
    expect(x.headers['content-type']).toContain('spreadsheetml');
    expect(x.raw.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const xd = await agent1.post('/api/client/report/consume/consumeReportDayExport', {
      id: 'client1',
      start_time_day: daysAgo(7),
      end_time_day: day,
      paytype: 0,
    });
    expect(xd.raw.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const none = await agent1.post('/api/client/report/consume/consumeReportTotalExport', {
      start_time_day: daysAgo(300),
      end_time_day: daysAgo(300),
      paytype: 0,
    });
    expect(none.body.msg).toBe('当前条件没有数据，无法导出');

    const users = await agent1.get('/api/client/consume/user');
    expect(users.body.data.map((u: Row) => u.clientid)).toEqual(
      expect.arrayContaining(['client1', 'client2', 'client3']),
    );
    expect((await client1.get('/api/client/consume/user')).body.code).not.toBe(0);
  });

  it('date rules: up to today (live), postpaid 90 days back, prepaid 365, end not before start', async () => {
    const pre = (b: Record<string, unknown>) => agent1.post('/api/client/report/consume/pretotal', b);
    const suf = (b: Record<string, unknown>) => agent1.post('/api/client/report/consume/suftotal', b);
    expect((await pre({ start_time_day: daysAgo(1), end_time_day: today() })).body.code).toBe(0);
    expect((await pre({ start_time_day: daysAgo(1), end_time_day: daysAgo(-1) })).body.msg).toBe(
      '报表只能查询到今天的数据',
    );
    expect((await pre({ start_time_day: daysAgo(2), end_time_day: daysAgo(3) })).body.msg).toBe(
      '结束日期不能早于开始日期',
    );
    expect((await suf({ start_time_day: daysAgo(92), end_time_day: daysAgo(1) })).body.msg).toBe(
      '后付费报表最多查询90天内的数据',
    );
    expect((await suf({ start_time_day: daysAgo(91), end_time_day: daysAgo(1) })).body.code).toBe(0);
    expect((await pre({ start_time_day: daysAgo(367), end_time_day: daysAgo(1) })).body.msg).toBe(
      '预付费报表最多查询365天内的数据',
    );
    expect((await pre({ start_time_day: daysAgo(366), end_time_day: daysAgo(1) })).body.code).toBe(0);
    expect((await pre({ start_time_day: '2026-02-30' })).body.code).toBe(400);
    expect((await pre({ smstype: 99 })).body.code).toBe(400);
    expect((await pre({ clickType: 'x' })).body.code).toBe(400);
    // the route schemas (filters/report, filters/remain, params/reports-client) answer bad values, with the schema's message
    expect((await pre({ start_time_day: '2026-1-2' })).body).toMatchObject({ code: 400, msg: '日期格式不正确' });
    expect((await agent1.get(`/api/client/report/consume/preday?id=client1&end_time_day=x`)).body).toMatchObject({
      code: 400,
      msg: '日期格式不正确',
    });
    expect((await pre({ paytype: 7 })).body.code).toBe(400);
    expect((await agent1.get(`/api/index/dataoftoday?clientId=${'c'.repeat(33)}`)).body.code).toBe(400);
    expect((await agent1.get('/api/index/clientsmsdetail?type=9')).body.code).toBe(400);
    expect((await agent1.get('/api/index/clientsmsdetail?product_type=9')).body.code).toBe(400);
    // no dates: the 90 days up to today
    expect((await pre({})).body.data).toMatchObject({ start_time_day: daysAgo(89), end_time_day: today() });
  });

  it('header data, API info of a sub-account and the remaining pools with the expiring one marked', async () => {
    const h = (await client1.get('/api/index/data')).body.data;
    expect(h.data).toMatchObject({
      hy_remain_num: expect.any(Number),
      yzm_remain_num: expect.any(Number),
      tz_remain_num: expect.any(Number),
      yx_remain_num: expect.any(Number),
      gj_remain_amount: expect.any(Number),
    });
    expect(h.data.hy_remain_num).toBeGreaterThan(0);
    expect(Object.values(h.agent_pool_due_time_data as Record<string, number>).some((n) => n > 0)).toBe(true);
    expect(h.smsGivePoolData).toMatchObject({ isShow: 1, remainNumber: expect.any(Number) });
    const info = await client1.post('/api/account/getAccountInfo', {});
    expect(info.body.data).toMatchObject({ clientid: 'client1', password: '********' });

    const r = (await client1.get('/api/index/clientsmsdetail')).body.data;
    expect(r.list.length).toBeGreaterThan(1);
    expect(r.total).toBeNull();
    expect(r.list.every((x: Row) => x.client_id === 'client1')).toBe(true);
    expect(r.list.some((x: Row) => x.dead === 0)).toBe(true);
    expect(r.list.some((x: Row) => x.dead === 1)).toBe(true);
    const hy = (await client1.get('/api/index/clientsmsdetail?product_type=0')).body.data.list;
    expect(hy.every((x: Row) => x.product_type === 0)).toBe(true);
    const agent = (await agent1.get('/api/index/clientsmsdetail')).body.data;
    // the agent's own pools and its sub-accounts' are summed apart, pieces apart from the international yuan (issue 27 item 8)
    const sum = (own: boolean, intl: boolean) =>
      agent.list
        .filter((x: Row) => (x.client_id === 'agent1') === own && (x.product_type === 2) === intl)
        .reduce((s: number, x: Row) => s + Number(x.account_balance), 0);
    expect(agent.total.own).toMatchObject({ pieces: sum(true, false), yuan: sum(true, true).toFixed(2) });
    expect(agent.total.subAccounts).toMatchObject({ pieces: sum(false, false), yuan: sum(false, true).toFixed(2) });
    expect(agent.total.own.pieces).toBe(60000);
    expect(agent.total.subAccounts.yuan).toBe('200.00');
    // every pool bought has its price (the demo pools too); a gift pool is free
    expect(agent.list.filter((x: Row) => !x.gift).every((x: Row) => Number(x.sms_unitprice) > 0)).toBe(true);
    expect(agent.list.find((x: Row) => x.client_id === 'agent1' && x.product_type === 0)).toMatchObject({
      sms_unitprice: '0.0428',
    });
    expect(agent.list.some((x: Row) => x.client_id === 'client1')).toBe(true);
    expect((await agent0.get('/api/index/clientsmsdetail?clientid=client1')).body.code).toBe(403);
    expect((await client1.get('/api/index/clientsmsdetail?operator_code=9')).body.code).toBe(400);
  });
});
