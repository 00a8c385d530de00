/**
 * A 300 MB upload over loopback through the file service (issue 11): the running server
 * (`server/main.ts` on a fresh data directory), logged in as client1; the client reads the file in
 * 1 MB chunks and posts them 3 at a time as the console does (check → chunks → merge with the MD5
 * check). Prints the upload rate (chunks), the merge time (streamed merge + MD5 + rename) and the
 * rate of the whole; then the same file again (reused at once: no byte sent). Target ≥ 100 MB/s.
 * BENCH_UPLOAD_MB changes the size.
 *
 *   npx tsx bench/upload-loopback.ts
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loginCookies } from './lib/login';

const MB = 1024 * 1024;
const SIZE_MB = Number(process.env.BENCH_UPLOAD_MB ?? 300);
const TARGET = 100;
const root = path.resolve(import.meta.dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-upload-'));
const file = path.join(dataDir, 'numbers.txt');
const port = 19000 + Math.floor(Math.random() * 1000);
const base = `http://127.0.0.1:${port}`;

// a number file: lines of 11-digit numbers (any bytes would do: the content is checked at merge)
{
  const fd = fs.openSync(file, 'w');
  const block = Buffer.from(Array.from({ length: 87_381 }, (_, i) => `1380${String(i).padStart(7, '0')}`).join('\n') + '\n');
  for (let written = 0; written < SIZE_MB * MB; written += block.length) fs.writeSync(fd, block, 0, Math.min(block.length, SIZE_MB * MB - written));
  fs.closeSync(fd);
}
const size = fs.statSync(file).size;
const md5 = crypto.createHash('md5');
for await (const b of fs.createReadStream(file, { highWaterMark: 4 * MB })) md5.update(b as Buffer);
const fileMd5 = md5.digest('hex');

/** CPU seconds (user + system) a process has used so far */
const cpuOf = (pid: number) => {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};

const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: path.join(dataDir, 'data'), LOG_LEVEL: 'warn', DISPATCH: '0' },
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
  const cookie = await loginCookies(base, 'client1', 'Demo1234');
  const headers = { cookie, 'x-xsrf-token': decodeURIComponent(/XSRF-TOKEN=([^;]*)/.exec(cookie)?.[1] ?? '') };
  const form = async (url: string, body: Record<string, string | number>) => {
    const res = await fetch(`${base}${url}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])) });
    const j = (await res.json()) as { code: number; msg: string; data: any };
    if (j.code !== 0) throw new Error(`${url}: ${j.msg}`);
    return j.data;
  };
  const key = { fileMd5, fileSize: size };
  const check = await form('/api/file/check', { fileName: 'numbers.txt', ...key });
  const fd = await fs.promises.open(file, 'r');
  const cpu0 = cpuOf(child.pid!);
  const cli0 = process.cpuUsage();
  const tUp = performance.now();
  let next = 0;
  const worker = async () => {
    const buf = Buffer.alloc(MB);
    while (next < check.chunks) {
      const i = next++;
      const { bytesRead } = await fd.read(buf, 0, MB, i * MB);
      const res = await fetch(`${base}/api/file/chunk?fileMd5=${fileMd5}&fileSize=${size}&chunk=${i}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/octet-stream' }, body: buf.subarray(0, bytesRead) });
      const j = (await res.json()) as { code: number; msg: string };
      if (j.code !== 0) throw new Error(`chunk ${i}: ${j.msg}`);
    }
  };
  await Promise.all([worker(), worker(), worker()]);
  const upMs = performance.now() - tUp;
  const serverCpu = cpuOf(child.pid!) - cpu0;
  const c = process.cpuUsage(cli0);
  const clientCpu = (c.user + c.system) / 1e6;
  await fd.close();
  const tMerge = performance.now();
  const merged = await form('/api/file/merge', key);
  const mergeMs = performance.now() - tMerge;
  const totalMs = upMs + mergeMs;
  const tReuse = performance.now();
  const again = await form('/api/file/check', { fileName: 'numbers.txt', ...key });
  const reuseMs = performance.now() - tReuse;
  if (!again.uploaded || again.importFilePath !== merged.importFilePath) throw new Error('not reused');
  const rate = (ms: number) => size / MB / (ms / 1000);
  console.log(`upload of ${(size / MB).toFixed(0)} MB over loopback, ${check.chunks} chunks, 3 in flight (load ${os.loadavg()[0].toFixed(1)})`);
  console.log(`  chunks          : ${(upMs / 1000).toFixed(2)} s, ${rate(upMs).toFixed(0)} MB/s`);
  console.log(`  CPU             : server ${serverCpu.toFixed(2)} s, client ${clientCpu.toFixed(2)} s for the chunks: ${(size / MB / (serverCpu + clientCpu)).toFixed(0)} MB per CPU second of both`);
  console.log(`  merge + MD5     : ${(mergeMs / 1000).toFixed(2)} s`);
  console.log(`  whole           : ${rate(totalMs).toFixed(0)} MB/s (target ≥ ${TARGET}: ${rate(totalMs) >= TARGET ? 'met' : 'NOT met'})`);
  console.log(`  same file again : reused in ${reuseMs.toFixed(0)} ms, 0 bytes sent`);
  if (rate(totalMs) < TARGET) process.exitCode = 1;
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
