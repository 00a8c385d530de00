/**
 * POST /send/getrecords over BENCH_RECORDS send records (default 1,000,000; the issue's figure with
 * BENCH_RECORDS=10000000) on PostgreSQL, in a throw-away schema: DATABASE_URL, else
 * TEST_DATABASE_URL, else postgres://sms:sms@127.0.0.1:5432/postgres.
 *
 * Data (generate_series): 1,000 sub-accounts under 50 agents (agent1 among them, 20 sub-accounts),
 * tasks of 1,000 messages spread over the last 180 days. One heavy sub-account of agent1 (bc0050)
 * holds BENCH_HEAVY_SHARE (default 10 %) of all records (1,000,000 of 10,000,000: ~500,000 in the
 * default 90 days); the other 999 share the rest (~9,000 each at 10M). Per message, independently
 * (random() with a fixed seed): states ≈ 80 % delivered, 10 % delivery failed, 5 % submitted,
 * 5 % submit failed, then 2 % intercepted and 2 % not sent; carriers 1-3 evenly; 8 provinces with
 * a city each, evenly; 2,000,000 distinct numbers (each ~5 times at 10M).
 * A query's cost depends on the rows of the accounts it reads, not on the table's size: with
 * BENCH_RECORDS=3000000 BENCH_HEAVY_SHARE=0.333 the heavy account is as large as at 10M.
 *
 * Months (migration 0052): each record's id carries the month of its created_at, so the records
 * lie in their months' partitions (7 over 180 days) as on a database partitioned for that long:
 * the (empty) legacy partition is dropped, the past months' partitions are created, and
 * sms_id_floor is the migration's without its legacy clause (which only matters for ids below the
 * first month's partition).
 *
 * Timed: the records service itself (filters, lateral scan per account, capped count, task
 * contents), `RUNS` times per filter after a warm-up; p50 / p95 printed per filter. Target: p95
 * under 50 ms for every filter not marked informational (issue 40: ≤ 20 ms at 30,000,000).
 *
 * Then (BENCH_DROP=1, the default) the oldest month's partition is dropped (retention's
 * dropExpired, without archive) while LOAD_CLIENTS loops run the filters above for LOAD_SECONDS:
 * the drop's time (target < 1 s) with its DETACH ... CONCURRENTLY and its DROP of the detached table
 * apart (seen in pg_stat_activity every 5 ms), the lists' latency before, during and after it, and
 * the longest lock wait of a list's statement (target ≤ 100 ms; exit code 1 past it). A kept schema
 * loses its oldest month each run.
 *
 *   npx tsx bench/send-records.ts                      # 1,000,000 records, RUNS=100
 *   BENCH_RECORDS=10000000 npx tsx bench/send-records.ts
 *   BENCH_SCHEMA=bench_records_keep ...   # load once, time again later; drop the schema by hand
 *   BENCH_RECORDS=30000000 BENCH_HEAVY_SHARE=0.0333 ...   # issue 40: 30M in 7 months, heavy ~1M
 */
import { performance } from 'node:perf_hooks';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../server/app';
import { openDatabase } from '../server/db';
import { seed } from '../server/db/seed';
import { RecordsService } from '../server/modules/records/service';
import { addDays, dayOf } from '../server/lib/time';
import { startOfBusinessDay } from '../server/lib/time';
import { cities } from '../common/sms/segments';
import { dropExpired, MONTH_SPAN, monthIndex, partitionName, partitions } from '../server/modules/retention/partitions';

const N = Number(process.env.BENCH_RECORDS ?? 1_000_000);
/** the heavy account's share of all records (default 10 %: 1,000,000 of 10,000,000) */
const HEAVY_SHARE = Number(process.env.BENCH_HEAVY_SHARE ?? 0.1);
const RUNS = Number(process.env.RUNS ?? 100);
const TASK_SIZE = 1000;
/** p95 target per filter (50 ms; issue 40 asks 20 ms at 30,000,000 records: TARGET_P95_MS=20) */
const TARGET_P95_MS = Number(process.env.TARGET_P95_MS ?? 50);
const DROP = process.env.BENCH_DROP !== '0';
const LOAD_CLIENTS = Number(process.env.LOAD_CLIENTS ?? 4);
const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 12);
const databaseUrl =
  process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://sms:sms@127.0.0.1:5432/postgres';
/** BENCH_SCHEMA=name: keep the data in that schema (and reuse it when already loaded) instead of a throw-away one */
const keep = process.env.BENCH_SCHEMA;
const schema = keep ?? `bench_records_${process.pid}`;
const PROVINCES = [11, 31, 32, 33, 44, 50, 51, 37];
const CITIES = PROVINCES.map((p) => cities(p)[0].cityId);

async function withPg<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${schema}` });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-records-'));
await withPg((c) => c.query(`create schema if not exists ${schema}`));
const handle = await openDatabase({ databaseUrl, schema });
const db = handle.db;
try {
  await seed(db);
  const t0 = performance.now();
  const tasks = Math.ceil(N / TASK_SIZE);
  const loaded = !!(await db.selectFrom('accounts').select('id').where('clientid', '=', 'bc0050').executeTakeFirst());
  if (loaded) console.log(`reusing the records of schema ${schema}`);
  else
    await withPg(async (c) => {
      await c.query(`set maintenance_work_mem = '512MB'`);
      const { rows: a1 } = await c.query(`select id, password_hash from accounts where clientid = 'agent1'`);
      const agent1 = a1[0].id as number;
      await c.query(
        `insert into accounts (clientid, user_type, name, password_hash) select 'bagent' || g, '1', '压测代理商' || g, $1 from generate_series(1, 49) g`,
        [a1[0].password_hash],
      );
      await c.query(
        `insert into accounts (clientid, user_type, agent_id, name, password_hash)
       select 'bc' || lpad(g::text, 4, '0'), '2',
         case when g % 50 = 0 then $1::int else (select id from accounts where clientid = 'bagent' || (g % 50)) end,
         '压测客户' || g, $2
       from generate_series(1, 1000) g`,
        [agent1, a1[0].password_hash],
      );
      // tasks: every 10th to the heavy account bc0050, the others round the 999 remaining; newest first by number
      await c.query(
        `insert into sms_tasks (uid, account_id, agent_id, creator_id, creator_name, payer_id, charge_mode, content, sign, smstype,
         submit_total, charge_num_total, status, send_type, send_time, success_num, created_at, updated_at)
       select 'b' || g, a.id, a.agent_id, a.id, a.clientid, a.id, 1,
         '【压测】' || case when g % 7 = 0 then '双十一大促' else '您的验证码是' || (g % 10000) end, '压测', case when g % 7 = 0 then 5 else 4 end,
         ${TASK_SIZE}, ${TASK_SIZE}, 3, 0, t.at, ${TASK_SIZE}, t.at, t.at
       from generate_series(1, ${tasks}) g
       cross join lateral (select now() - make_interval(secs => (g::double precision / ${tasks}) * 180 * 86400) as at) t
       join accounts a on a.clientid = case when floor(g * ${HEAVY_SHARE}::float8) > floor((g - 1) * ${HEAVY_SHARE}::float8) then 'bc0050'
         else 'bc' || lpad(((g % 999) + case when (g % 999) + 1 >= 50 then 2 else 1 end)::text, 4, '0') end`,
      );
      // indexes and the task FK after the load (recreated from their own definitions)
      const { rows: idx } = await c.query(
        `select indexname, indexdef from pg_indexes where schemaname = $1 and tablename = 'sms_messages' and indexname <> 'sms_messages_pkey'`,
        [schema],
      );
      for (const i of idx) await c.query(`drop index ${i.indexname}`);
      // the task FK, where the schema still has it (migration 0010 dropped it for the COPY of an acceptance)
      const { rows: fk } = await c.query(
        `select 1 from pg_constraint where conname = 'sms_messages_task_id_fkey' and connamespace = $1::regnamespace`,
        [schema],
      );
      if (fk.length) await c.query(`alter table sms_messages drop constraint sms_messages_task_id_fkey`);
      // the months' partitions: the legacy one (every id below the migration's month, empty here) goes,
      // the past months of the 180 days come, and the id floor prunes them as it does past the legacy ids
      const { rows: legacy } = await c.query(
        `select count(*)::int as n from pg_class where relname = 'sms_messages_legacy' and relnamespace = $1::regnamespace`,
        [schema],
      );
      if (legacy[0].n) {
        const { rows: held } = await c.query(`select count(*)::int as n from sms_messages_legacy`);
        if (held[0].n) throw new Error('sms_messages_legacy holds rows: not a fresh schema');
        await c.query(`alter table sms_messages detach partition sms_messages_legacy`);
        await c.query(`drop table sms_messages_legacy`);
      }
      const now = monthIndex(new Date());
      for (let m = monthIndex(new Date(Date.now() - 181 * 86_400_000)); m < now; m++)
        await c.query(
          `create table if not exists ${partitionName(m)} partition of sms_messages for values from (${m * MONTH_SPAN}) to (${(m + 1) * MONTH_SPAN})`,
        );
      await c.query(`create or replace function sms_id_floor(t timestamptz) returns bigint language sql stable parallel safe as
        'select sms_month_base(least(t, now()) - interval ''1 month'')'`);
      const { rows: first } = await c.query(`select min(id) as id from sms_tasks where uid like 'b%'`);
      const base = Number(first[0].id);
      await c.query(`select setseed(0.42)`);
      await c.query(
        `insert into sms_messages (id, task_id, account_id, phone, carrier, province_id, city_id, pieces, state, error_code, report, created_at, submitted_at, done_at)
       select sms_month_base(t.created_at) + nextval('sms_messages_id_seq'), t.id, t.account_id, (13800000000 + (g::bigint * 7919) % 2000000)::text,
         1 + x.c, (array[${PROVINCES.join(',')}])[x.p + 1], (array[${CITIES.join(',')}])[x.p + 1], 1,
         s.state, case when s.state = 6 then 'UNDELIV' else '' end, case when s.state = 3 then 'DELIVRD' else '' end,
         t.created_at + make_interval(secs => (g % ${TASK_SIZE}) / 100.0), t.created_at, t.created_at
       from generate_series(0, ${N - 1}) g
       join sms_tasks t on t.id = ${base} + g / ${TASK_SIZE}
       cross join lateral (select (array[3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,6,6,1,4])[floor(random() * 20)::int + 1] as st, floor(random() * 50)::int as r,
         floor(random() * 3)::int as c, floor(random() * 8)::int as p, g as dep) x
       cross join lateral (select case when x.r = 0 then 11 when x.r = 1 then 0 when x.r = 2 then 1 else x.st end as state) s`,
      );
      const t1 = performance.now();
      console.log(
        `loaded ${N.toLocaleString()} records in ${tasks.toLocaleString()} tasks in ${((t1 - t0) / 1000).toFixed(1)} s`,
      );
      // a partitioned table's definitions say ON ONLY (the parent's index alone): built on every partition here
      for (const i of idx) await c.query(i.indexdef.replace(' ON ONLY ', ' ON '));
      if (fk.length)
        await c.query(
          `alter table sms_messages add constraint sms_messages_task_id_fkey foreign key (task_id) references sms_tasks(id) not valid`,
        );
      await c.query(`vacuum analyze sms_messages`);
      await c.query(`vacuum analyze sms_tasks`);
      await c.query(`analyze accounts`);
      console.log(
        `indexes (${idx.map((i) => i.indexname).join(', ')}) and vacuum in ${((performance.now() - t1) / 1000).toFixed(1)} s`,
      );
    });

  const app = await buildApp({ db, dataDir, purgeEveryMs: 0 });
  const records = new RecordsService(app.ctx, app.services.clients);
  const account = (clientid: string) =>
    db.selectFrom('accounts').selectAll().where('clientid', '=', clientid).executeTakeFirstOrThrow();
  const heavy = await account('bc0050');
  const typical = await account('bc0100');
  const agent1 = await account('agent1');
  const counts = await db
    .selectFrom('sms_messages')
    .select((eb) => [eb.fn.countAll<string>().as('n'), 'account_id'])
    .where('account_id', 'in', [heavy.id, typical.id])
    .groupBy('account_id')
    .execute();
  console.log(
    `bc0050 (heavy): ${counts.find((c) => c.account_id === heavy.id)?.n} records; bc0100 (typical): ${counts.find((c) => c.account_id === typical.id)?.n}`,
  );
  const phone = (
    await db
      .selectFrom('sms_messages')
      .select('phone')
      .where('account_id', '=', heavy.id)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow()
  ).phone;
  const today = startOfBusinessDay(new Date());
  const day = (d: number) => dayOf(addDays(today, d));

  const pct = (xs: number[], p: number) =>
    [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
  let failed = false;
  const cases: [string, typeof heavy, Record<string, unknown>, boolean?][] = [
    ['heavy account, 90 days (default), page 1', heavy, {}],
    ['heavy account, 90 days, state 6 (明确失败)', heavy, { stateList: '6' }],
    [
      'heavy account, 30 days, states 4,6 + number',
      heavy,
      { beginDate: day(-29), endDate: day(0), stateList: '4,6', phone },
    ],
    ['heavy account, 90 days, number', heavy, { phone }],
    ['heavy account, 90 days, state 3 + 联通 + 广东', heavy, { stateList: '3', operatorstype: 2, province: 44 }],
    ['heavy account, 90 days, 电信 + city', heavy, { operatorstype: 3, province: PROVINCES[1], city: CITIES[1] }],
    [
      'heavy account, last 7 days, state 1 + 移动 + province',
      heavy,
      { beginDate: day(-6), stateList: '1', operatorstype: 1, province: 11 },
    ],
    ['typical account, 90 days, state 6', typical, { stateList: '6' }],
    ['typical account, 90 days, number', typical, { phone }],
    ['agent1 scope (20 sub-accounts incl. heavy), 90 days, state 3', agent1, { stateList: '3' }],
    ['agent1 scope, 90 days, state 6 + 电信 + province', agent1, { stateList: '6', operatorstype: 3, province: 32 }],
    ['agent1 scope, 90 days, province', agent1, { province: 44 }],
    [
      `heavy account, 90 days, page ${app.ctx.config.recordCountCap / 10} of 10 (the deepest the count cap allows)`,
      heavy,
      { page: app.ctx.config.recordCountCap / 10 },
    ],
    ['heavy account, 90 days, content contains 大促 (informational)', heavy, { searchContent: '大促' }, true],
    [
      'heavy account, 180 days, state 11 (rare: 2 %) (informational)',
      heavy,
      { beginDate: day(-179), stateList: '11' },
      true,
    ],
  ];
  for (const [label, me, filter, informational] of cases) {
    for (let i = 0; i < (informational ? 1 : 5); i++) await records.records(me, filter); // warm-up
    const times: number[] = [];
    let r!: Awaited<ReturnType<RecordsService['records']>>;
    const runs = informational ? Math.min(RUNS, 10) : RUNS;
    for (let i = 0; i < runs; i++) {
      const s = performance.now();
      r = await records.records(me, filter);
      times.push(performance.now() - s);
    }
    const p50 = pct(times, 50);
    const p95 = pct(times, 95);
    if (p95 >= TARGET_P95_MS && !informational) failed = true;
    console.log(
      `send records, ${label}: ${r.list.length} rows, total ${r.totalCount}${r.totalCapped ? '+' : ''}, p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms over ${runs} runs${informational ? '' : ` (target p95 < ${TARGET_P95_MS} ms)`}`,
    );
  }
  const held = await withPg(
    async (c) =>
      (
        await c.query(
          `select c.relname as name, c.reltuples::bigint as n from pg_inherits i join pg_class c on c.oid = i.inhrelid
           where i.inhparent = 'sms_messages'::regclass order by c.relname`,
        )
      ).rows as { name: string; n: string }[],
  );
  console.log(`partitions: ${held.map((p) => `${p.name} ${Number(p.n).toLocaleString()}`).join(', ')}`);

  if (DROP) {
    // the oldest month: every month after it kept
    const oldest = (await partitions(db))[0];
    const keepMonths = monthIndex(new Date()) - Math.round(oldest.from! / MONTH_SPAN) - 1;
    const load = cases.filter((x) => !x[3]);
    const lat: { start: number; ms: number }[] = [];
    let running = true;
    const loops = Array.from({ length: LOAD_CLIENTS }, async (_, k) => {
      for (let i = k; running; i++) {
        const [, me, filter] = load[i % load.length];
        const s = performance.now();
        await records.records(me, filter);
        lat.push({ start: s, ms: performance.now() - s });
      }
    });
    // the longest lock wait of a list's statement (a waiting statement's time since its start: an upper
    // bound), and when the drop's own statements ran (DETACH waits by design, for the statements begun before it)
    let lockWait = 0;
    const seen: Record<'detach' | 'drop', { first: number; last: number } | undefined> = {
      detach: undefined,
      drop: undefined,
    };
    const sampler = withPg(async (c) => {
      while (running) {
        const { rows } = await c.query(
          `select query, wait_event_type = 'Lock' as waiting, extract(epoch from clock_timestamp() - query_start) * 1000 as ms
           from pg_stat_activity where state = 'active' and datname = current_database() and pid <> pg_backend_pid()`,
        );
        const at = performance.now();
        for (const r of rows as { query: string; waiting: boolean; ms: number }[]) {
          const kind = /detach partition/i.test(r.query) ? 'detach' : /^\s*drop table/i.test(r.query) ? 'drop' : null;
          if (kind) seen[kind] = { first: seen[kind]?.first ?? at, last: at };
          else if (r.waiting) lockWait = Math.max(lockWait, r.ms);
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    });
    await new Promise((r) => setTimeout(r, (LOAD_SECONDS * 1000) / 2));
    const d0 = performance.now();
    const gone = await dropExpired(db, keepMonths, new Date());
    const d1 = performance.now();
    await new Promise((r) => setTimeout(r, (LOAD_SECONDS * 1000) / 2));
    running = false;
    await Promise.all([...loops, sampler]);
    const phase = (label: string, xs: number[]) =>
      `${label}: ${xs.length} requests, p50 ${pct(xs, 50).toFixed(2)} ms, p95 ${pct(xs, 95).toFixed(2)} ms, max ${Math.max(...xs).toFixed(2)} ms`;
    const before = lat.filter((x) => x.start + x.ms < d0).map((x) => x.ms);
    const during = lat.filter((x) => x.start < d1 && x.start + x.ms > d0).map((x) => x.ms);
    const after = lat.filter((x) => x.start > d1).map((x) => x.ms);
    const dropMs = d1 - d0;
    if (gone[0] !== oldest.name || lockWait > 100) failed = true;
    const span = (x?: { first: number; last: number }) => (x ? `~${(x.last - x.first + 5).toFixed(0)} ms` : '< 5 ms');
    console.log(
      `drop of ${gone.join(', ') || `nothing (${oldest.name} kept: its detach did not finish)`} under ${LOAD_CLIENTS} list loops: ${dropMs.toFixed(0)} ms in all (target < 1,000 ms): DETACH ... CONCURRENTLY ${span(seen.detach)}, DROP of the detached table ${span(seen.drop)} (no statement reads it); longest lock wait of a list's statement ${lockWait.toFixed(0)} ms (target ≤ 100 ms)`,
    );
    console.log(`  lists ${phase('before', before)}`);
    if (during.length) console.log(`  lists ${phase('during the drop', during)}`);
    console.log(`  lists ${phase('after', after)}`);
  }
  await app.close();
  process.exitCode = failed ? 1 : 0;
} finally {
  await handle.close();
  if (!keep) await withPg((c) => c.query(`drop schema ${schema} cascade`));
  fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
}
