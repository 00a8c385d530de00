/**
 * The operators' 审核 lists at 100,000 pending items each (issue 39): seeds 100,000 sub-accounts
 * whose certification waits, 100,000 pending signs and templates among as many decided ones, and
 * 100,000 invoices waiting, then times the review service (the route's work without HTTP): the
 * first page and a deep page of each list (pending first, oldest first, with its total), and the
 * menu's counts. Embedded PGlite in a temporary DATA_DIR, or PostgreSQL when DATABASE_URL is
 * given (a throw-away schema). Target: p95 under 50 ms.
 *
 *   DATABASE_URL=postgres://sms:sms@127.0.0.1:5432/postgres npx tsx bench/review-lists.ts   # ROWS=100000 RUNS=100
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { pgAdmin } from './lib/pg-admin';
import { buildApp } from '../server/app';
import { openDatabase } from '../server/db';
import { seed } from '../server/db/seed';

const ROWS = Number(process.env.ROWS ?? 100_000);
const RUNS = Number(process.env.RUNS ?? 100);
const TARGET_P95_MS = 50;
const databaseUrl = process.env.DATABASE_URL || undefined;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-review-'));
const schema = databaseUrl ? `bench_review_${process.pid}` : undefined;
const withPg = (q: string) => pgAdmin(databaseUrl!, q);
if (schema) await withPg(`create schema ${schema}`);

const handle = await openDatabase(databaseUrl ? { databaseUrl, schema } : { dataDir });
const db = handle.db;
try {
  await seed(db);
  const t0 = performance.now();
  const agent1 = await db
    .selectFrom('accounts')
    .select(['id', 'password_hash'])
    .where('clientid', '=', 'agent1')
    .executeTakeFirstOrThrow();
  // ROWS sub-accounts of agent1 whose certification waits (待认证), each with its submission
  await sql`insert into accounts (clientid, user_type, agent_id, name, password_hash, oauth_status)
    select 'rv' || g, '2', ${agent1.id}::int, '审核压测' || g, ${agent1.password_hash}, 2 from generate_series(1, ${ROWS}::int) g`.execute(
    db,
  );
  await sql`insert into certifications (account_id, cert_type, id_type, company, id_nbr, img_url, state, submitted_at)
    select a.id, 2, 6, a.name || '有限公司', '91330100MA' || lpad(a.id::text, 8, '0'), a.clientid || '/abcdefgh.png', 2,
      now() - make_interval(secs => (a.id % 86400)::double precision)
    from accounts a where a.clientid like 'rv%'`.execute(db);
  // signs and templates: half of 2 × ROWS pending, the rest decided; invoices: ROWS waiting and as many done
  await sql`insert into signs (account_id, clientid, sign, remarks, state, creator_id, creator_name, create_time, update_time)
    select a.id, a.clientid, '审核' || g, '', case when g % 2 = 0 then 0 else 1 end, a.id, a.clientid,
      now() - make_interval(secs => (g * 7)::double precision), now()
    from generate_series(1, 2 * ${ROWS}::int) g join accounts a on a.clientid = 'rv' || ((g % ${ROWS}::int) + 1)`.execute(
    db,
  );
  await sql`insert into templates (owner_id, sms_type, template_type, sign, content, state, create_time, update_time)
    select a.id, 10, 0, '审核', '您的验证码是123456，' || g, case when g % 2 = 0 then 0 else 1 end,
      now() - make_interval(secs => (g * 7)::double precision), now()
    from generate_series(1, 2 * ${ROWS}::int) g join accounts a on a.clientid = 'rv' || ((g % ${ROWS}::int) + 1)`.execute(
    db,
  );
  await sql`insert into invoices (invoice_no, account_id, applicant_id, invoice_type, invoice_amount, invoice_project, status, invoice_body, invoice_head, create_time, update_time)
    select 'BR' || lpad(g::text, 10, '0'), a.id, a.id, 1, 100, '短信服务费', case when g % 2 = 0 then 0 else 4 end, 2, a.name || '有限公司',
      now() - make_interval(secs => (g * 7)::double precision), now()
    from generate_series(1, 2 * ${ROWS}::int) g join accounts a on a.clientid = 'rv' || ((g % ${ROWS}::int) + 1)`.execute(
    db,
  );
  // the steady state autovacuum keeps: statistics and the visibility map (index-only counts)
  await sql`vacuum analyze`.execute(db);
  const t1 = performance.now();

  const app = await buildApp({ db, dataDir, purgeEveryMs: 0 });
  const review = app.services.review;
  const waiting: Record<string, number> = {};
  for (const kind of ['certifications', 'signs', 'templates', 'invoices'] as const)
    waiting[kind] = (await review[kind]({ pending: true })).totalCount;
  console.log(
    `seeded on ${handle.kind} (${handle.location}) in ${((t1 - t0) / 1000).toFixed(1)} s: waiting ${JSON.stringify(waiting)}; badges ${JSON.stringify(await review.counts())}`,
  );

  const pct = (xs: number[], p: number) =>
    [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
  const deep = Math.floor(ROWS / 15 / 2);
  let failed = false;
  const cases: [string, () => Promise<unknown>][] = [['counts (menu badges)', () => review.counts()]];
  for (const kind of ['certifications', 'signs', 'templates', 'invoices'] as const) {
    cases.push([`${kind}, pending, page 1`, () => review[kind]({ pending: true, currentPage: 1, pageRowCount: 15 })]);
    cases.push([
      `${kind}, pending, page ${deep}`,
      () => review[kind]({ pending: true, currentPage: deep, pageRowCount: 15 }),
    ]);
    cases.push([
      `${kind}, one account's`,
      () => review[kind]({ pending: false, clientid: 'rv77', currentPage: 1, pageRowCount: 15 }),
    ]);
  }
  for (const [label, run] of cases) {
    for (let i = 0; i < 5; i++) await run(); // warm-up
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const s = performance.now();
      await run();
      times.push(performance.now() - s);
    }
    const p95 = pct(times, 95);
    if (p95 >= TARGET_P95_MS) failed = true;
    console.log(
      `review ${label}: p50 ${pct(times, 50).toFixed(2)} ms, p95 ${p95.toFixed(2)} ms over ${RUNS} runs (target p95 < ${TARGET_P95_MS} ms)`,
    );
  }
  await app.close();
  process.exitCode = failed ? 1 : 0;
} finally {
  await handle.close();
  if (schema) await withPg(`drop schema ${schema} cascade`);
  fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
}
