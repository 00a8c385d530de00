/**
 * Consumption reports over a year of send records on PostgreSQL (docs/api-reports.md): the
 * figures come from the pre-aggregated daily rows (report_daily), so the benchmark writes those
 * rows directly for BENCH_RECORDS send records (default 10,000,000) instead of the records
 * themselves. Throw-away schema on BENCH_DATABASE_URL, else DATABASE_URL, else TEST_DATABASE_URL,
 * else postgres://sms:sms@127.0.0.1:5432/postgres.
 *
 * Data: 1,000 sub-accounts under 50 agents (agent1 has 200 of them, the others 16), each with rows
 * on each of the last 365 days for SMS types 通知 / 验证码 / 营销 (every 10th account postpaid,
 * every 5th also international rows): ~1.1 million aggregate rows whose send_num add up to
 * BENCH_RECORDS, split into success / fail / unknown / intercepted like a real mix.
 *
 * Timed: the reports service itself (parameters, date rules, scoping, the grouped query, paging),
 * RUNS times per case after a warm-up; p50 / p95 printed. Target: p95 < 100 ms for a month.
 *
 *   npx tsx bench/reports.ts
 */
import { performance } from 'node:perf_hooks';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../server/app';
import { openDatabase } from '../server/db';
import { seed } from '../server/db/seed';
import { businessDay, ReportsService } from '../server/modules/reports';

const N = Number(process.env.BENCH_RECORDS ?? 10_000_000);
const RUNS = Number(process.env.RUNS ?? 100);
const DAYS = 365;
const TARGET_P95_MS = 100;
const databaseUrl =
  process.env.BENCH_DATABASE_URL ||
  process.env.DATABASE_URL ||
  process.env.TEST_DATABASE_URL ||
  'postgres://sms:sms@127.0.0.1:5432/postgres';
const schema = `bench_reports_${process.pid}`;

async function withPg<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${schema}` });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-reports-'));
await withPg((c) => c.query(`create schema if not exists ${schema}`));
const handle = await openDatabase({ databaseUrl, schema });
const db = handle.db;
try {
  await seed(db);
  const t0 = performance.now();
  const rows = await withPg(async (c) => {
    const { rows: a1 } = await c.query(`select id, password_hash from accounts where clientid = 'agent1'`);
    const agent1 = a1[0].id as number;
    await c.query(
      `insert into accounts (clientid, user_type, name, password_hash) select 'bagent' || g, '1', '压测代理商' || g, $1 from generate_series(1, 49) g`,
      [a1[0].password_hash],
    );
    await c.query(
      `insert into accounts (clientid, user_type, agent_id, name, password_hash)
       select 'bc' || lpad(g::text, 4, '0'), '2',
         case when g % 5 = 0 then $1::int else (select id from accounts where clientid = 'bagent' || (1 + g % 49)) end,
         '压测客户' || g, $2
       from generate_series(1, 1000) g`,
      [agent1, a1[0].password_hash],
    );
    // rows per (account, day, smstype[, inter]); send_num spread so that the total is N
    await c.query(`drop index report_daily_agent`);
    await c.query(`select setseed(0.42)`);
    await c.query(
      `insert into report_daily (account_id, day, smstype, paytype, inter, agent_id, send_num, charge_total, success_num, unknown_num, fail_num, wait_num, intercept_num)
       select a.id, (now() at time zone 'Asia/Shanghai')::date - d, k.smstype, (case when g % 10 = 0 then 1 else 0 end), k.inter, a.agent_id,
         x.n, x.n - x.f - x.i, x.n - x.f - x.u - x.i, x.u, x.f, 0, x.i
       from generate_series(1, 1000) g
       join accounts a on a.clientid = 'bc' || lpad(g::text, 4, '0')
       cross join generate_series(1, ${DAYS}) d
       cross join (values (0, 0), (4, 0), (5, 0), (0, 1)) k(smstype, inter)
       cross join lateral (select greatest(1, round(random() * 2 * $1::float8 + 0 * d))::int as n) s
       cross join lateral (select s.n as n, (s.n * 0.05)::int as f, (s.n * 0.02)::int as u, (s.n * 0.01)::int as i) x
       where k.inter = 0 or g % 5 = 0`,
      // mean send_num per row: N / rows
      [N / (1000 * DAYS * 3 + 200 * DAYS)],
    );
    await c.query(
      `create index report_daily_agent on report_daily (agent_id, day) include (account_id, smstype, paytype, inter, send_num, charge_total, success_num, unknown_num, fail_num, wait_num, intercept_num)`,
    );
    await c.query(`vacuum analyze report_daily`);
    await c.query(`analyze accounts`);
    const { rows: r } = await c.query(`select count(*)::int as n, sum(send_num)::bigint as s from report_daily`);
    return r[0] as { n: number; s: string };
  });
  console.log(
    `loaded ${rows.n.toLocaleString()} aggregate rows for ${Number(rows.s).toLocaleString()} send records (${DAYS} days) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const app = await buildApp({ db, dataDir, purgeEveryMs: 0 });
  const reports = new ReportsService(app.ctx);
  const account = (clientid: string) =>
    db.selectFrom('accounts').selectAll().where('clientid', '=', clientid).executeTakeFirstOrThrow();
  const agent1 = await account('agent1');
  const other = await account('bagent7');
  const sub = await account('bc0045'); // agent1's, prepaid
  const yesterday = businessDay(new Date(Date.now() - 86_400_000));
  const back = (n: number) => businessDay(new Date(Date.now() - (n + 1) * 86_400_000));
  const month = { start_time_day: back(29), end_time_day: yesterday };

  const pct = (xs: number[], p: number) =>
    [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
  let failed = false;
  const cases: [string, () => Promise<{ list: unknown[]; totalCount: number }>, boolean?][] = [
    ['agent1 (200 sub-accounts), a month, prepaid, page 1', () => reports.total(agent1, 'pre', month)],
    ['agent1, a month, prepaid, page 20', () => reports.total(agent1, 'pre', { ...month, currentPage: 20 })],
    ['agent1, a month, postpaid', () => reports.total(agent1, 'suf', month)],
    ['agent1, a month, 营销 only', () => reports.total(agent1, 'pre', { ...month, smstype: 5 })],
    [
      'agent1, a month, customerInfo 压测客户1',
      () => reports.total(agent1, 'pre', { ...month, customerInfo: '压测客户1' }),
    ],
    ['bagent7 (16 sub-accounts), a month', () => reports.total(other, 'pre', month)],
    ['agent1, daily view of bc0045, a month', () => reports.daily(agent1, 'pre', { ...month, id: 'bc0045' })],
    ['sub-account bc0045, own report, a month', () => reports.total(sub, 'pre', month)],
    [
      'agent1, a year, prepaid (informational)',
      () => reports.total(agent1, 'pre', { start_time_day: back(364), end_time_day: yesterday }),
      true,
    ],
  ];
  for (const [label, run, informational] of cases) {
    for (let i = 0; i < 5; i++) await run();
    const times: number[] = [];
    let r!: { list: unknown[]; totalCount: number };
    for (let i = 0; i < RUNS; i++) {
      const s = performance.now();
      r = await run();
      times.push(performance.now() - s);
    }
    const p50 = pct(times, 50);
    const p95 = pct(times, 95);
    if (p95 >= TARGET_P95_MS && !informational) failed = true;
    console.log(
      `reports, ${label}: ${r.list.length} rows of ${r.totalCount}, p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms over ${RUNS} runs${informational ? '' : ` (target p95 < ${TARGET_P95_MS} ms)`}`,
    );
  }
  await app.close();
  process.exitCode = failed ? 1 : 0;
} finally {
  await handle.close();
  await withPg((c) => c.query(`drop schema ${schema} cascade`));
  fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
}
