/**
 * Screening 1,000,000 numbers (POST /send/screenPhones' work): carrier + province + blocked city,
 * in memory (screenList: the typed numbers) and file to file (screenFile: a variable send file of
 * 1,000,000 rows with two variables). Target: under 1 s. Median of RUNS.
 *
 *   npx tsx bench/screening.ts          # N=1000000 RUNS=5
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { screenFile, screenList, screenRule } from '../server/modules/variable-international/screening';
import { provinces, cities } from '../common/sms/segments';

const N = Number(process.env.N ?? 1_000_000);
const RUNS = Number(process.env.RUNS ?? 5);
const TARGET_MS = 1000;

const prefixes = [
  '138',
  '139',
  '186',
  '130',
  '189',
  '133',
  '150',
  '177',
  '158',
  '181',
  '135',
  '152',
  '187',
  '132',
  '153',
  '199',
];
const phones = Array.from(
  { length: N },
  (_, i) => `${prefixes[i % prefixes.length]}${String((i * 7919) % 100_000_000).padStart(8, '0')}`,
);
const ps = provinces()
  .slice(0, 12)
  .map((p) => p.provinceId);
const blocked = cities(ps[0])
  .slice(0, 3)
  .map((c) => c.cityId);
const rule = screenRule({ operators: '1,2', provinces: ps.join(','), removeCitys: blocked.join(',') });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const mem: number[] = [];
let kept = 0;
for (let r = 0; r < RUNS; r++) {
  const t0 = performance.now();
  kept = screenList(phones, rule).submitTotal;
  mem.push(performance.now() - t0);
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-screen-'));
const src = path.join(dir, 'rows.tsv');
fs.writeFileSync(src, phones.map((p, i) => `${p}\t会员${i % 1000}\t${i % 500}元`).join('\n'));
const file: number[] = [];
let keptFile = 0;
for (let r = 0; r < RUNS; r++) {
  const t0 = performance.now();
  keptFile = (await screenFile(src, path.join(dir, `out${r}.tsv`), rule)).submitTotal;
  file.push(performance.now() - t0);
}
fs.rmSync(dir, { recursive: true, force: true });
console.log(
  `screening ${N} numbers (2 carriers, ${ps.length} provinces, ${blocked.length} blocked cities): in memory median ${median(mem).toFixed(0)} ms (best ${Math.min(...mem).toFixed(0)}), kept ${kept}`,
);
console.log(
  `screening a ${N}-row send file to a new file: median ${median(file).toFixed(0)} ms (best ${Math.min(...file).toFixed(0)}), kept ${keptFile}; target < ${TARGET_MS} ms; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
);
process.exitCode = median(mem) < TARGET_MS && median(file) < TARGET_MS ? 0 : 1;
