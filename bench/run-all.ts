/** Runs every benchmark in turn and prints its figures. `npm run bench` (builds nothing: run `npm run build` first for the bundle figure). */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dir = import.meta.dirname;
const only = process.argv.slice(2);
let failed = 0;
for (const f of fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run-all.ts')
  .sort()) {
  if (only.length && !only.some((o) => f.includes(o))) continue;
  console.log(`\n== ${f}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, f)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
console.log(failed ? `\n${failed} benchmark(s) missed their target` : '\nall benchmarks met their targets');
process.exitCode = failed ? 1 : 0;
