/**
 * The customer HTTP API accepting sends (issue 24; docs/api-openapi.md "Send"): REQUESTS (100)
 * signed `POST /openapi/v1/sms/send` of NUMBERS (1,000) numbers each, CONCURRENCY (10) at once, over
 * loopback HTTP against the app listening on a free port; PostgreSQL (TEST_DATABASE_URL /
 * DATABASE_URL, a fresh database dropped afterwards) and the embedded PGlite (ONLY=postgres|pglite).
 * Every request is signed as a customer would (HMAC-SHA256 of the canonical request with the API
 * secret derived from the interface password), each its own nonce and Idempotency-Key.
 * Prints the total time, requests/s, p50 / p99 latency, the answers and the server process's CPU
 * per request; checks that every number has its message row.
 * Target: the 100 requests in under 5 s.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import { scratchDatabase, type ScratchDatabase } from './lib/pg-admin';
import { buildApp } from '../server/app';
import { openDatabase, type DbHandle } from '../server/db';
import { seed } from '../server/db/seed';
import { LedgerService } from '../server/modules/ledger';
import { deriveApiSecret, HEADERS, signRequest } from '../server/modules/openapi/signing';
import { OperationMode } from '../common/generated/schemas';

const REQUESTS = Number(process.env.REQUESTS ?? 100);
const NUMBERS = Number(process.env.NUMBERS ?? 1000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 10);
const TARGET_MS = 5000;
const pgUrl = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || '';
const only = process.env.ONLY;
const SECRET = deriveApiSecret('client1', 'Demo2468');
const PATH = '/openapi/v1/sms/send';

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function run(backend: 'postgres' | 'pglite'): Promise<boolean> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-openapi-'));
  let handle: DbHandle;
  let scratch: ScratchDatabase | undefined;
  if (backend === 'postgres') {
    scratch = await scratchDatabase(pgUrl, 'bench_openapi');
    handle = await openDatabase({ databaseUrl: scratch.url, poolSize: 10 });
  } else handle = await openDatabase({ dataDir });
  try {
    await seed(handle.db);
    const app = await buildApp({ db: handle.db, dataDir, purgeEveryMs: 0 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const account = await handle.db
      .updateTable('accounts')
      .set({ access_speed: 1_000_000, operation_mode: OperationMode.DirectCharge, needaudit: 0 })
      .where('clientid', '=', 'client1')
      .returning('id')
      .executeTakeFirstOrThrow();
    await new LedgerService(app.ctx).credit(account.id, String(REQUESTS * NUMBERS));
    const bodies = Array.from({ length: REQUESTS }, (_, r) =>
      JSON.stringify({
        content: '【好易购】您的订单已发货，请注意查收。',
        mobiles: Array.from({ length: NUMBERS }, (_, i) => `139${String(r * NUMBERS + i).padStart(8, '0')}`),
      }),
    );
    const send = async (body: string) => {
      const ts = String(Math.floor(Date.now() / 1000));
      const nonce = randomUUID();
      const signature = signRequest(SECRET, { method: 'POST', path: PATH, query: '', timestamp: ts, nonce, body });
      const t = performance.now();
      const res = await fetch(base + PATH, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          [HEADERS.clientid]: 'client1',
          [HEADERS.timestamp]: ts,
          [HEADERS.nonce]: nonce,
          [HEADERS.signature]: signature,
          'idempotency-key': nonce,
        },
      });
      const json = (await res.json()) as { code?: number; error?: string };
      return { ms: performance.now() - t, status: res.status, error: json.error };
    };
    await send(JSON.stringify({ content: '【好易购】预热', mobiles: ['13800138000'] })); // warm-up (JIT, pool)
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const lat: number[] = [];
    const answers = new Map<string, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < REQUESTS) {
          const r = await send(bodies[next++]);
          lat.push(r.ms);
          const k = `${r.status}${r.error ? ` ${r.error}` : ''}`;
          answers.set(k, (answers.get(k) ?? 0) + 1);
        }
      }),
    );
    const total = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    lat.sort((a, b) => a - b);
    const rows = Number(
      (
        await handle.db
          .selectFrom('sms_messages')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const chunks = Number(
      (
        await handle.db
          .selectFrom('sms_task_chunks')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const ok = total < TARGET_MS && answers.get('200') === REQUESTS;
    console.log(
      `${backend.padEnd(8)} ${REQUESTS} requests × ${NUMBERS} numbers, ${CONCURRENCY} at once: ${(total / 1000).toFixed(2)} s, ${(REQUESTS / (total / 1000)).toFixed(1)} requests/s ` +
        `(${Math.round((REQUESTS * NUMBERS) / (total / 1000))} numbers/s), p50 ${pct(lat, 50).toFixed(0)} ms, p99 ${pct(lat, 99).toFixed(0)} ms; answers ${JSON.stringify(Object.fromEntries(answers))}; ` +
        `CPU of this process (server + client) ${((cpu.user + cpu.system) / 1000 / REQUESTS).toFixed(1)} ms per request; ${rows} message rows, ${chunks} chunks; load ${os.loadavg()[0].toFixed(1)} → ${ok ? 'met' : 'MISSED'} (< ${TARGET_MS / 1000} s)`,
    );
    await app.close();
    return ok;
  } finally {
    await handle.close();
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

let ok = true;
if (pgUrl && only !== 'pglite') ok = (await run('postgres')) && ok;
else if (!pgUrl) console.log('postgres: skipped (set DATABASE_URL or TEST_DATABASE_URL)');
if (only !== 'postgres') ok = (await run('pglite')) && ok;
process.exitCode = ok ? 0 : 1;
