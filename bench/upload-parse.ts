/**
 * Parsing a 1,000,000-row .xlsx number file (issue 11, POST /send/parsefile's reader): the file is
 * written with exceljs's streaming writer (one number a row, as shared strings or numbers), then
 * parsed by `parseNumberFile` (server/modules/files/parse.ts: the bounded streaming xlsx reader
 * and the shared number rules) in a fresh Node process, which prints its time and peak RSS.
 * Targets: < 15 s, < 500 MB peak RSS. BENCH_ROWS changes the row count.
 *
 *   npx tsx bench/upload-parse.ts
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);

if (process.argv[2] === 'child') {
  const { parseNumberFile } = await import('../server/modules/files/parse');
  const file = process.argv[3];
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const { result } = await parseNumberFile({ path: file, fileName: 'n.xlsx', size: fs.statSync(file).size, md5: '', kind: 'xlsx', importFilePath: 'x' }, { keep: process.argv[4] === 'keep' });
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  console.log(JSON.stringify({ ms, cpuMs: (c.user + c.system) / 1000, peakMb: process.resourceUsage().maxRSS / 1024, result }));
} else {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-parse-'));
  const file = path.join(dir, 'numbers.xlsx');
  try {
    const tw = performance.now();
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true });
    const ws = wb.addWorksheet('号码');
    ws.addRow(['手机号码']).commit();
    for (let i = 0; i < ROWS; i++) {
      // half as text (shared strings), half as numbers
      const n = `13${String(800_000_000 + i)}`;
      ws.addRow([i % 2 ? n : Number(n)]).commit();
    }
    ws.commit();
    await wb.commit();
    const size = fs.statSync(file).size;
    console.log(`${ROWS.toLocaleString('en-US')}-row xlsx written in ${((performance.now() - tw) / 1000).toFixed(1)} s (${(size / 1024 / 1024).toFixed(1)} MB)`);
    let failed = false;
    for (const mode of ['count', 'keep'] as const) {
      const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'upload-parse.ts'), 'child', file, mode], { encoding: 'utf8', cwd: path.resolve(import.meta.dirname, '..') });
      const r = JSON.parse(out.trim().split('\n').pop()!) as { ms: number; cpuMs: number; peakMb: number; result: { submitTotal: number; sendNum: number; errNum: number } };
      if (r.result.sendNum !== ROWS || r.result.errNum !== 0) throw new Error(`wrong counts: ${JSON.stringify(r.result)}`);
      const ok = r.ms < 15_000 && r.peakMb < 500;
      failed ||= !ok;
      console.log(`  parse (${mode === 'keep' ? 'keeping the numbers, as a send does' : 'counts only, as /send/parsefile'}): ${(r.ms / 1000).toFixed(2)} s (CPU ${(r.cpuMs / 1000).toFixed(2)} s), peak RSS ${r.peakMb.toFixed(0)} MB — ${ok ? 'targets met' : 'NOT met'} (< 15 s, < 500 MB; load ${os.loadavg()[0].toFixed(1)})`);
    }
    if (failed) process.exitCode = 1;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
