/**
 * Accepting a 1,000,000-number task on PostgreSQL (issue 11 target: < 10 s): a variable send of a
 * 1,000,000-row send file (each row its own text and pieces): the rows re-checked, the sensitive
 * words, one transaction with the task, 1,000,000 message rows by COPY (per-message text) and the
 * charge through the ledger. PostgreSQL from DATABASE_URL or TEST_DATABASE_URL (a throw-away
 * schema); `ONLY=pglite` runs the embedded database instead.
 *
 *   DATABASE_URL=postgres://sms:sms@127.0.0.1:5432/postgres npx tsx bench/send-accept-1m.ts   # N=1000000
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
import { SendService } from '../server/modules/send/service';
import { ClientsService } from '../server/modules/clients/service';
import { VarIntlService } from '../server/modules/varintl/service';
import { newWorkFile } from '../server/modules/varintl/files';

const N = Number(process.env.N ?? 1_000_000);
const TARGET_MS = 10_000;
const databaseUrl = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || undefined;
const pglite = process.env.ONLY === 'pglite';
if (!pglite && !databaseUrl) {
  console.log('set DATABASE_URL or TEST_DATABASE_URL (or ONLY=pglite)');
  process.exit(2);
}

async function withPg(q: string) {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    await c.query(q);
  } finally {
    await c.end();
  }
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-1m-'));
const schema = pglite ? undefined : `bench_1m_${process.pid}`;
if (schema) await withPg(`create schema ${schema}`);
const handle = await openDatabase(schema ? { databaseUrl, schema } : { dataDir });
const db = handle.db;
const app = await buildApp({ db, dataDir, purgeEveryMs: 0 });
let ok: boolean | undefined;
try {
  await seed(db);
  const agent0 = await db.selectFrom('accounts').selectAll().where('clientid', '=', 'agent0').executeTakeFirstOrThrow();
  await new LedgerService({ db, now: () => new Date() }).credit(agent0.id, '900000.00', { remark: 'bench' });
  const ctx = app.ctx;
  const svc = new VarIntlService(ctx, new SendService(ctx, new ClientsService(ctx)));
  const tpl = await db.selectFrom('templates').select(['id', 'smstype']).where('content', 'like', '尊敬的{name}%').executeTakeFirstOrThrow();
  // the send file: N distinct numbers over many segments, two variables... three (the template's)
  const f = await newWorkFile(ctx, agent0, 'tsv');
  const prefixes = ['138', '139', '186', '130', '189', '133', '150', '177', '158', '181'];
  const out = fs.createWriteStream(f.abs);
  for (let i = 0; i < N; i += 10_000) {
    let s = '';
    for (let k = i; k < Math.min(N, i + 10_000); k++) s += `${prefixes[k % 10]}${String((k * 7919) % 100_000_000).padStart(8, '0')}\t会员${k % 977}\t体检\t${(k % 12) + 8}点\n`;
    out.write(s);
  }
  await new Promise((r) => out.end(r));
  const t0 = performance.now();
  const res = await svc.sendVariable(agent0, { clientId: 'agent0', templateId: tpl.id, smstype: tpl.smstype ?? 0, sign: '云讯通', fileType: 1, importFilePath: f.rel } as never);
  const ms = performance.now() - t0;
  const bad = await new LedgerService({ db, now: () => new Date() }).violations();
  console.log(
    `${pglite ? 'pglite' : 'postgres'}: accepted a ${res.submitTotal}-number variable task (${res.chargeNum} pieces, ${res.amount} 元) in ${ms.toFixed(0)} ms (target < ${TARGET_MS} ms); ledger violations: ${bad.length}; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
  );
  ok = ms < TARGET_MS && bad.length === 0;
} finally {
  await app.close();
  await handle.close();
  if (schema) await withPg(`drop schema ${schema} cascade`);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exitCode = ok ? 0 : 1;
