/**
 * Sub-accounts at volume: 10,000 sub-accounts under one agent.
 * 1) POST /api/client/accounts with a search term and a date range: p50/p95 (target p95 < 30 ms);
 * 2) 1,000 concurrent recharge/rollback calls on 20 sub-accounts: counts, duration, and the ledger
 *    invariant (sum(ledger) == balance, no negative balance) afterwards.
 * PGlite in memory by default; BENCH_DATABASE_URL=postgres://... runs it on PostgreSQL (own schema).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { buildApp } from '../server/app';
import { openDatabase } from '../server/db';
import { seed } from '../server/db/seed';
import { randomToken, sha256hex } from '../server/lib/crypto';

const N = Number(process.env.BENCH_SUBACCOUNTS ?? 10_000);
const CALLS = Number(process.env.BENCH_TRANSFERS ?? 1_000);
const url = process.env.BENCH_DATABASE_URL;
const schema = url ? `bench_${randomBytes(4).toString('hex')}` : undefined;
if (url) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`create schema ${schema}`);
  await c.end();
}
const handle = await openDatabase(url ? { databaseUrl: url, schema, poolSize: 10 } : { memory: true });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-sub-'));
let failed = false;
try {
  const db = handle.db;
  await seed(db);
  const agent = await db.selectFrom('accounts').selectAll().where('clientid', '=', 'agent1').executeTakeFirstOrThrow();
  const { password_hash } = agent;
  const t0 = Date.now();
  const cities = ['杭州', '苏州', '南京', '上海', '宁波', '温州', '合肥', '福州'];
  const trades = ['电子商务', '物流', '教育科技', '餐饮管理', '医疗器械', '网络科技', '文化传媒', '实业'];
  for (let b = 0; b < N; b += 1000) {
    const rows = [];
    for (let i = b; i < Math.min(N, b + 1000); i++) {
      rows.push({
        clientid: `b${String(i).padStart(5, '0')}`,
        user_type: '2',
        agent_id: agent.id,
        name: `${cities[i % cities.length]}${trades[(i >> 3) % trades.length]}有限公司${i}`,
        email: `bench${i}@example.com`,
        mobile: `137${String(i).padStart(8, '0')}`,
        password_hash,
        status: i % 17 === 0 ? 5 : 1,
        oauth_status: i % 5 === 0 ? 2 : 3,
        create_time: new Date(Date.UTC(2026, 0, 1) + (i % 320) * 86_400_000),
      });
    }
    await db.insertInto('accounts').values(rows).execute();
  }
  await sql`analyze accounts`.execute(db);
  console.log(`${N} sub-accounts inserted in ${Date.now() - t0} ms (${handle.kind})`);

  const app = await buildApp({ db, dataDir, purgeEveryMs: 0 });
  await app.ready();
  const token = randomToken();
  await db
    .insertInto('sessions')
    .values({
      id: sha256hex(token),
      account_id: agent.id,
      expires_at: new Date(Date.now() + 3600_000),
      last_seen_at: new Date(),
    })
    .execute();
  // the CSRF token is bound to the session: ask the server for this session's
  const first = await app.inject({ method: 'GET', url: '/api/login/timeout', headers: { cookie: `sid=${token}` } });
  const xsrf = (first.cookies as { name: string; value: string }[]).find((c) => c.name === 'XSRF-TOKEN')!.value;
  const headers = {
    cookie: `sid=${token}; XSRF-TOKEN=${xsrf}`,
    'x-xsrf-token': xsrf,
    'content-type': 'application/x-www-form-urlencoded',
  };
  const post = async (u: string, body: Record<string, string>) => {
    const r = await app.inject({ method: 'POST', url: u, headers, payload: new URLSearchParams(body).toString() });
    return r.json() as { code: number; msg: string; data: any };
  };

  // 1) list with search + date range
  const terms = ['杭州', '物流', 'b0012', '1370000', 'bench99', '教育'];
  const times: number[] = [];
  for (let i = 0; i < 220; i++) {
    const s = performance.now();
    const r = await post('/api/client/accounts', {
      customerInfo: terms[i % terms.length],
      start_time_day: '2026-02-01',
      end_time_day: '2026-10-31',
      currentPage: String(1 + (i % 3)),
      pageRowCount: '15',
    });
    const ms = performance.now() - s;
    if (r.code !== 0) throw new Error(JSON.stringify(r));
    if (i >= 20) times.push(ms); // warm-up
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(2);
  const p95 = Number(q(0.95));
  console.log(
    `manager list, search + date range over ${N} sub-accounts: p50 ${q(0.5)} ms, p95 ${q(0.95)} ms (target p95 < 30 ms) ${p95 < 30 ? 'OK' : 'MISSED'}; load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} on ${os.cpus().length} cores`,
  );
  if (p95 >= 30) failed = true;

  // 2) 1,000 concurrent recharges and rollbacks
  const targets = Array.from({ length: 20 }, (_, i) => `b${String(i * 7 + 1).padStart(5, '0')}`).filter(
    (_, i) => (i * 7 + 1) % 17 !== 0,
  );
  const s = Date.now();
  const res = await Promise.all(
    Array.from({ length: CALLS }, (_, i) =>
      post(i % 3 === 2 ? '/api/client/rollback' : '/api/client/recharge', {
        clientId: targets[i % targets.length],
        amount: i % 3 === 2 ? '15.00' : `${(i % 50) + 1}.${String(i % 100).padStart(2, '0')}`,
        requestId: `bench-${i}`,
      }),
    ),
  );
  const dur = Date.now() - s;
  const okN = res.filter((r) => r.code === 0).length;
  const refused = res.filter((r) => r.code !== 0);
  const byMsg = new Map<string, number>();
  for (const r of refused)
    byMsg.set(r.msg.replace(/[\d.]+ 元/, 'N 元'), (byMsg.get(r.msg.replace(/[\d.]+ 元/, 'N 元')) ?? 0) + 1);
  const bad = await sql<{ clientid: string }>`
    select a.clientid from accounts a left join (select account_id, sum(amount) s from ledger group by account_id) l on l.account_id = a.id
    where a.balance <> coalesce(l.s, 0) or a.balance < 0`.execute(db);
  const ledgerRows = await sql<{
    n: string;
  }>`select count(*)::text n from ledger where request_id like 'bench-%'`.execute(db);
  console.log(
    `${CALLS} concurrent recharge/rollback calls in ${dur} ms (${Math.round((CALLS / dur) * 1000)}/s): ${okN} applied, ${refused.length} refused ` +
      `${JSON.stringify(Object.fromEntries(byMsg))}; ${ledgerRows.rows[0].n} ledger rows (2 per applied call); ` +
      `invariant sum(ledger)==balance and balance>=0: ${bad.rows.length === 0 ? 'holds' : `BROKEN for ${bad.rows.map((r) => r.clientid).join(',')}`}`,
  );
  if (bad.rows.length || Number(ledgerRows.rows[0].n) !== okN * 2) failed = true;
  await app.close();
} finally {
  await handle.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (url) {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`drop schema ${schema} cascade`);
    await c.end();
  }
}
process.exitCode = failed ? 1 : 0;
