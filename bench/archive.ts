/**
 * The archive of a send-record month (issue 40 figure: ≥ 200,000 records/s, and the file reads
 * back to the same rows), on PostgreSQL:
 * 1. a fresh database (`bench_archive_<pid>` on the server of TEST_DATABASE_URL / DATABASE_URL,
 *    dropped afterwards unless KEEP=1), migrated and seeded;
 * 2. ROWS (2,000,000) send records in a month nine months back (its own partition), with the
 *    columns a delivered message has (a 60-character Chinese text, a receipt, a carrier id, times);
 * 3. archivePartition (server/modules/retention/archive.ts: COPY's CSV on PostgreSQL): rows/s, the
 *    file's size and bytes per row (exit code 1 below 200,000 rows/s);
 * 4. restoreArchive into a table of its own: rows/s; then the check: md5 over every row's text,
 *    in id order, of the partition and of the restored table (exit code 1 when they differ).
 *
 *   TEST_DATABASE_URL=postgres://sms:sms@127.0.0.1:5432/postgres npx tsx bench/archive.ts   # ROWS=2000000
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { openDatabase } from '../server/db';
import { seed } from '../server/db/seed';
import { archivePartition, restoreArchive } from '../server/modules/retention/archive';
import { dropExpired, MONTH_SPAN, monthIndex, partitionName, partitions } from '../server/modules/retention/partitions';
import { scratchDatabase } from './lib/pg-admin';

const baseUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || '';
if (!baseUrl) {
  console.log('archive: skipped (set TEST_DATABASE_URL or DATABASE_URL to a PostgreSQL server)');
  process.exit(0);
}
const ROWS = Number(process.env.ROWS ?? 2_000_000);

const scratch = await scratchDatabase(baseUrl, 'bench_archive');
const handle = await openDatabase({ databaseUrl: scratch.url, poolSize: 4 });
const db = handle.db;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-archive-'));
let failed: boolean | undefined;
try {
  await seed(db);
  // the legacy partition of migration 0052 (every month before the first) goes first, unarchived
  await dropExpired(db, 6, new Date(Date.now() + 7 * 31 * 86_400_000));
  const month = monthIndex(new Date()) - 9;
  const name = partitionName(month);
  const base = month * MONTH_SPAN;
  await sql`create table ${sql.ref(name)} partition of sms_messages
    for values from (${sql.lit(base)}) to (${sql.lit(base + MONTH_SPAN)})`.execute(db);
  let t0 = performance.now();
  for (let i = 0; i < ROWS; i += 500_000) {
    await sql`insert into sms_messages (id, task_id, account_id, phone, carrier, province_id, city_id, pieces, price,
        state, content, msg_id, report, error_code, channel, created_at, submitted_at, done_at)
      select ${sql.lit(base)}::bigint + g, t.id, t.account_id, '138' || lpad((g % 100000000)::text, 8, '0'), 1 + g % 3,
        44, 440100, 1, 0.04, 3,
        '【云讯通】您的验证码为' || lpad((g % 1000000)::text, 6, '0') || '，5分钟内有效，请勿泄露给他人。如非本人操作，请忽略本短信。',
        'm' || g, 'DELIVRD', 'DELIVRD', 'ch1',
        now() - interval '9 months', now() - interval '9 months', now() - interval '9 months' + interval '3 seconds'
      from generate_series(${i + 1}::int, ${Math.min(ROWS, i + 500_000)}::int) g,
        (select id, account_id from sms_tasks order by id limit 1) t`.execute(db);
  }
  await sql`analyze sms_messages`.execute(db);
  console.log(
    `${ROWS.toLocaleString()} records in ${name} written in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const p = (await partitions(db)).find((x) => x.name === name)!;
  t0 = performance.now();
  const file = await archivePartition(db, p, dir);
  const archiveS = (performance.now() - t0) / 1000;
  console.log(
    `archive: ${file.rows.toLocaleString()} records in ${archiveS.toFixed(1)} s = ${Math.round(file.rows / archiveS).toLocaleString()} records/s` +
      ` (target ≥ 200,000); ${(file.bytes / 1048576).toFixed(1)} MB gzip, ${(file.bytes / file.rows).toFixed(1)} bytes a record`,
  );

  t0 = performance.now();
  const back = await restoreArchive(db, file.file, 'restored_bench', { rows: file.rows, sha256: file.sha256 });
  const restoreS = (performance.now() - t0) / 1000;
  console.log(
    `restore: ${back.rows.toLocaleString()} records in ${restoreS.toFixed(1)} s = ${Math.round(back.rows / restoreS).toLocaleString()} records/s`,
  );

  const digest = async (from: ReturnType<typeof sql>) =>
    (
      await sql<{
        d: string;
        n: number;
      }>`select md5(string_agg(m::text, E'\\n' order by id)) as d, count(*)::int as n from ${from} m`.execute(db)
    ).rows[0];
  const a = await digest(sql`(select * from sms_messages where id >= ${base} and id < ${base + MONTH_SPAN})`);
  const b = await digest(sql.ref('restored_bench'));
  const same = a.d === b.d && a.n === b.n;
  failed = !same || file.rows / archiveS < 200_000;
  console.log(
    `check: partition ${a.n.toLocaleString()} rows md5 ${a.d}, restored ${b.n.toLocaleString()} rows md5 ${b.d}: ${same ? 'the same rows' : 'DIFFERENT'}`,
  );
} finally {
  await handle.close();
  if (process.env.KEEP !== '1') await scratch.drop();
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
