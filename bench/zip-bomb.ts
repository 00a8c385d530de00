/**
 * Zip bombs against the running server, and the spreadsheet reader's speed.
 *
 * 1. Starts the server (as `npm run serve` does, in a temporary DATA_DIR), logs in as agent1 and
 *    posts 200 MB-unpacked bombs (one honest about its size, one lying) to both import routes at
 *    once, polling GET /api/login/timeout every 20 ms meanwhile. Prints the server's peak RSS
 *    (VmHWM) before and after, the answers, and the slowest liveness answer.
 *    Targets: the clear message, peak RSS growth < 300 MB, slowest liveness < 200 ms.
 * 2. Writes a 1,000,000-row .xlsx with exceljs's streaming writer into /tmp and reads it with
 *    server/lib/spreadsheet.ts. Target: >= 100,000 rows/s.
 *
 *   npx tsx bench/zip-bomb.ts            # ROWS=1000000 by default
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { readSheetRows } from '../server/lib/spreadsheet';
import { bombXlsx } from '../tests/fixtures/zip';
import { loginCookies } from './lib/login';

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const root = path.resolve(import.meta.dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bomb-'));
const port = 19000 + Math.floor(Math.random() * 1000);
const base = `http://127.0.0.1:${port}`;
let failed = false;

const memOf = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
};

const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: 'ignore',
});
try {
  const t0 = performance.now();
  for (;;) {
    try {
      if ((await fetch(`${base}/api/login/timeout`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (performance.now() - t0 > 300_000) throw new Error('server did not start in 300 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  const cookie = await loginCookies(base, 'agent1', 'Demo1234');
  const xsrf = decodeURIComponent(/XSRF-TOKEN=([^;]*)/.exec(cookie)?.[1] ?? '');
  const post = async (url: string, file: Buffer) => {
    const form = new FormData();
    form.append('excel', new Blob([new Uint8Array(file)]), 'bomb.xlsx');
    const res = await fetch(`${base}${url}`, { method: 'POST', body: form, headers: { cookie, 'x-xsrf-token': xsrf } });
    return (await res.json()) as { code: number; msg: string };
  };

  for (const [label, bomb] of [
    ['honest 200 MB', bombXlsx(200)],
    ['lying 200 MB (declares 4 KB)', bombXlsx(200, { declaredSize: 4096 })],
    ['lying 200 MB (declares 30 MB)', bombXlsx(200, { declaredSize: 30 * 1024 * 1024 })],
  ] as const) {
    // reset the peak (VmHWM) so each run's peak is its own
    try {
      fs.writeFileSync(`/proc/${child.pid}/clear_refs`, '5');
    } catch {
      /* not Linux, or not allowed: the peak is then the process's all-time peak */
    }
    const before = memOf(child.pid!);
    let slowest = 0;
    let running = true;
    const liveness = (async () => {
      while (running) {
        const s = performance.now();
        await fetch(`${base}/api/login/timeout`);
        slowest = Math.max(slowest, performance.now() - s);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const s = performance.now();
    const answers = await Promise.all([post('/api/sign/addsignBatch', bomb), post('/api/autoTemplate/addBatch', bomb)]);
    const took = performance.now() - s;
    running = false;
    await liveness;
    const after = memOf(child.pid!);
    const growth = after.peakMb - before.rssMb;
    console.log(
      `${label} (${(bomb.length / 1024).toFixed(0)} KB file) to both imports: ${answers.map((a) => a.msg).join(' / ')} in ${took.toFixed(0)} ms; ` +
        `peak RSS ${after.peakMb.toFixed(0)} MB (was ${before.rssMb.toFixed(0)} MB, growth ${growth.toFixed(0)} MB, target < 300); ` +
        `slowest liveness ${slowest.toFixed(0)} ms (target < 200)`,
    );
    if (answers.some((a) => a.msg !== '文件内容过大') || growth > 300 || slowest > 200) failed = true;
  }
} finally {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  fs.rmSync(dataDir, { recursive: true, force: true });
}

// ---------------------------------------------------------------- reader speed
const file = path.join(os.tmpdir(), `bench-rows-${process.pid}.xlsx`);
try {
  const w0 = performance.now();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false, useStyles: false });
  const ws = wb.addWorksheet('号码');
  ws.addRow(['手机号', '姓名', '金额']).commit();
  for (let i = 0; i < ROWS; i++) ws.addRow([`138${String(i).padStart(8, '0')}`, `用户${i % 1000}`, i % 97]).commit();
  ws.commit();
  await wb.commit();
  console.log(
    `wrote ${ROWS.toLocaleString()} rows (${(fs.statSync(file).size / 1024 / 1024).toFixed(1)} MB) in ${((performance.now() - w0) / 1000).toFixed(1)} s`,
  );
  const r0 = performance.now();
  let n = 0;
  for await (const _ of readSheetRows({ path: file })) n++;
  const s = (performance.now() - r0) / 1000;
  const rate = n / s;
  console.log(
    `read ${n.toLocaleString()} rows in ${s.toFixed(1)} s: ${Math.round(rate).toLocaleString()} rows/s (target >= 100,000)`,
  );
  if (rate < 100_000) failed = true;
} finally {
  fs.rmSync(file, { force: true });
}
process.exitCode = failed ? 1 : 0;
