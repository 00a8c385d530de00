/**
 * Accepting one send of 60,000 numbers (POST /send/sending's service): the number check, the
 * template and account rules, one transaction with the task, 60,000 message rows (COPY on
 * PostgreSQL, INSERT ... SELECT unnest on PGlite) and the charge through the ledger. Embedded
 * PGlite in a temporary DATA_DIR, or PostgreSQL when DATABASE_URL is given (in a throw-away
 * schema). Target: under 1 s per send.
 *
 *   npx tsx bench/send-accept.ts                 # N=60000 RUNS=3
 *   DATABASE_URL=postgres://sms:sms@127.0.0.1:5432/postgres npx tsx bench/send-accept.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { buildApp } from '../server/app';
import { openDatabase } from '../server/db';
import { seed } from '../server/db/seed';
import { LedgerService } from '../server/modules/ledger/service';

const N = Number(process.env.N ?? 60_000);
const RUNS = Number(process.env.RUNS ?? 3);
const TARGET_MS = 1000;
const databaseUrl = process.env.DATABASE_URL || undefined;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-send-'));
const schema = databaseUrl ? `bench_send_${process.pid}` : undefined;
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
let offset = 0;
const app = await buildApp({
  db,
  dataDir,
  purgeEveryMs: 0,
  now: () => new Date(Date.now() + offset),
});
try {
  await seed(db);
  const agent0 = await db.selectFrom('accounts').selectAll().where('clientid', '=', 'agent0').executeTakeFirstOrThrow();
  await new LedgerService({ db, now: () => new Date() }).credit(agent0.id, '100000.00', { remark: 'bench' });
  const content = '您的账户余额已不足，为避免影响正常使用，请及时充值。';
  const tpl = await db.selectFrom('templates').select('id').where('content', '=', content).executeTakeFirstOrThrow();
  const times: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    // N distinct numbers over the three carriers and many regions
    const prefixes = ['138', '139', '186', '130', '189', '133', '150', '177', '158', '181'];
    const mobile = Array.from({ length: N }, (_, i) => `${prefixes[i % prefixes.length]}${String(((r * N + i) * 7919) % 100_000_000).padStart(8, '0')}`).join(
      ',',
    );
    offset += 3100;
    const t0 = performance.now();
    const res = await app.services.send.send(agent0, {
      clientId: 'agent0',
      sign: '云讯通',
      smstype: 0,
      templateId: tpl.id,
      content,
      mobile,
    });
    const ms = performance.now() - t0;
    times.push(ms);
    console.log(`run ${r + 1}: ${res.submitTotal} messages accepted and charged (${res.amount} 元) in ${ms.toFixed(0)} ms`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const msgs = await db
    .selectFrom('sms_messages')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  const bad = await new LedgerService({
    db,
    now: () => new Date(),
  }).violations();
  console.log(
    `${handle.kind}: accept ${N} numbers: median ${median.toFixed(0)} ms, best ${sorted[0].toFixed(0)} ms (target < ${TARGET_MS} ms); ${msgs.n} message rows; ledger violations: ${bad.length}; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
  );
  process.exitCode = median >= TARGET_MS || bad.length > 0 ? 1 : 0;
} finally {
  await app.close();
  await handle.close();
  if (schema) await withPg(`drop schema ${schema} cascade`);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
