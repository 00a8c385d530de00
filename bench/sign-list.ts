/**
 * POST /sign/list at 1,000,000 signs: seeds 1,000 sub-accounts under 50 agents (agent1 among
 * them, 20 sub-accounts each) and 1,000,000 signs over the last two years with generate_series,
 * then times the list service (agent scope + state + 90-day range + sign contains, count + page)
 * for page 1 and a deep page (plus, for information, the deepest page of an agent's ~20,000 live
 * signs with no filter at all, which sorts them all). Embedded PGlite in a temporary DATA_DIR, or PostgreSQL when
 * DATABASE_URL is given (in a throw-away schema). Target: p95 under 50 ms.
 *
 *   npx tsx bench/sign-list.ts            # RUNS=200 ROWS=1000000 by default
 */
import { SignState } from '../common/generated/schemas';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../server/app';
import { openDatabase } from '../server/db';
import { seed } from '../server/db/seed';

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const RUNS = Number(process.env.RUNS ?? 200);
const TARGET_P95_MS = 50;
const databaseUrl = process.env.DATABASE_URL || undefined;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-signs-'));
const schema = databaseUrl ? `bench_signs_${process.pid}` : undefined;
async function withPg(q: string) {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    await c.query(q);
  } finally {
    await c.end();
  }
}
if (schema) await withPg(`create schema ${schema}`);

const handle = await openDatabase(databaseUrl ? { databaseUrl, schema } : { dataDir });
const db = handle.db;
try {
  await seed(db);
  const t0 = performance.now();
  const agent1 = await db
    .selectFrom('accounts')
    .select(['id'])
    .where('clientid', '=', 'agent1')
    .executeTakeFirstOrThrow();
  const hash = (
    await db.selectFrom('accounts').select('password_hash').where('clientid', '=', 'agent1').executeTakeFirstOrThrow()
  ).password_hash;
  // 49 more agents, then 1,000 sub-accounts spread over the 50 (agent1 gets every 50th)
  await sql`insert into accounts (clientid, user_type, name, password_hash)
    select 'bagent' || g, '1', '压测代理商' || g, ${hash} from generate_series(1, 49) g`.execute(db);
  await sql`insert into accounts (clientid, user_type, agent_id, name, password_hash)
    select 'bc' || lpad(g::text, 4, '0'), '2',
      case when g % 50 = 0 then ${agent1.id}::int else (select id from accounts where clientid = 'bagent' || (g % 50)) end,
      '压测客户' || g, ${hash}
    from generate_series(1, 1000) g`.execute(db);
  const t1 = performance.now();
  // 1,000,000 signs: 1,000 per sub-account, states 0/1/2/4 ≈ 20/60/10/10 %, spread over 730 days
  await sql`insert into signs (account_id, clientid, sign, remarks, state, cause, creator_id, creator_name, create_time, update_time)
    select a.id, a.clientid, '云讯' || g, '压测数据',
      (array[0,1,1,1,2,1,1,0,4,1])[g % 10 + 1],
      case when g % 10 = 4 then '签名与企业名称不符' else '' end,
      a.id, a.clientid,
      now() - make_interval(secs => (g * 63.07)::double precision) , now()
    from generate_series(1, ${ROWS}::int) g
    join accounts a on a.clientid = 'bc' || lpad(((g % 1000) + 1)::text, 4, '0')`.execute(db);
  await sql`analyze`.execute(db);
  const t2 = performance.now();
  const total = Number(
    (
      await db
        .selectFrom('signs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  console.log(
    `seeded ${total.toLocaleString()} signs on ${handle.kind} (${handle.location}) in ${((t2 - t0) / 1000).toFixed(1)} s (accounts ${((t1 - t0) / 1000).toFixed(1)} s)`,
  );

  const app = await buildApp({ db, dataDir, purgeEveryMs: 0 });
  const me = await db.selectFrom('accounts').selectAll().where('id', '=', agent1.id).executeTakeFirstOrThrow();
  const day = (d: number) => new Date(Date.now() - d * 86_400_000 + 8 * 3600_000).toISOString().slice(0, 10);
  const filter = { state: SignState.Approved, start_time: day(90), end_time: day(0), sign: '7' };
  const first = await app.services.signs.list(me, { ...filter, currentPage: 1, pageRowCount: 15 });
  const deepPage = Math.max(1, first.totalPage - 1);
  const all = await app.services.signs.list(me, { currentPage: 1, pageRowCount: 15 });
  const deepAll = Math.max(1, all.totalPage - 1);
  console.log(
    `agent1 scope: ${first.totalCount} rows match the filter (${first.totalPage} pages of 15); ${all.totalCount} live signs unfiltered (${all.totalPage} pages)`,
  );

  const pct = (xs: number[], p: number) =>
    [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
  let failed = false;
  for (const [label, body] of [
    ['state + 90 days + sign contains, page 1', { ...filter, currentPage: 1, pageRowCount: 15 }],
    [`state + 90 days + sign contains, page ${deepPage}`, { ...filter, currentPage: deepPage, pageRowCount: 15 }],
    ['90 days, all states, page 1', { start_time: day(90), end_time: day(0), currentPage: 1, pageRowCount: 15 }],
    [
      `page ${deepAll}, unfiltered (every live sign of the agent; informational, no target)`,
      { currentPage: deepAll, pageRowCount: 15 },
    ],
  ] as const) {
    const informational = label.includes('informational');
    for (let i = 0; i < 10; i++) await app.services.signs.list(me, body); // warm-up
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < RUNS; i++) {
      const s = performance.now();
      const r = await app.services.signs.list(me, body);
      times.push(performance.now() - s);
      rows = r.list.length;
    }
    const p50 = pct(times, 50);
    const p95 = pct(times, 95);
    if (p95 >= TARGET_P95_MS && !informational) failed = true;
    console.log(
      `sign list, agent1 scope, ${label}: ${rows} rows, p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms over ${RUNS} runs${informational ? '' : ` (target p95 < ${TARGET_P95_MS} ms)`}`,
    );
  }
  await app.close();
  process.exitCode = failed ? 1 : 0;
} finally {
  await handle.close();
  if (schema) await withPg(`drop schema ${schema} cascade`);
  fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
}
