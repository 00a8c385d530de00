/**
 * Initial JavaScript of the built /login route, gzip: the entry chunk with its static imports,
 * plus the lazily loaded login page chunk with its static imports (what the browser fetches
 * before the login form is usable). Run after `npm run build`. Target: under 300 KB; exits 1
 * above it, so `npm run test:e2e` (which builds) fails when /login outgrows its budget.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../dist');
const manifest: Record<string, { file: string; imports?: string[]; isEntry?: boolean; src?: string; css?: string[] }> =
  JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));

function closure(keys: string[], seen = new Set<string>()): Set<string> {
  for (const k of keys) {
    if (seen.has(k) || !manifest[k]) continue;
    seen.add(k);
    closure(manifest[k].imports ?? [], seen);
  }
  return seen;
}

const entry = Object.keys(manifest).filter((k) => manifest[k].isEntry);
const loginKey = Object.keys(manifest).find((k) => /custom-pages\/login\/LoginPage/.test(k));
if (!loginKey) throw new Error('login page chunk not found in the manifest: is it lazy-loaded?');
const chunks = closure([...entry, loginKey]);

let raw = 0;
let gz = 0;
const rows: [string, number, number][] = [];
for (const k of chunks) {
  const file = path.join(dist, manifest[k].file);
  const buf = fs.readFileSync(file);
  const g = zlib.gzipSync(buf, { level: 9 }).length;
  raw += buf.length;
  gz += g;
  rows.push([manifest[k].file, buf.length, g]);
}
rows.sort((a, b) => b[2] - a[2]);
// --summary: the total only (npm run test:e2e checks the budget after each build)
if (!process.argv.includes('--summary')) for (const [f, r, g] of rows) console.log(`  ${f.padEnd(48)} ${(r / 1024).toFixed(1).padStart(8)} KB  ${(g / 1024).toFixed(1).padStart(7)} KB gzip`);
const allJs = Object.values(manifest).reduce((s, m) => s + (m.file.endsWith('.js') ? fs.statSync(path.join(dist, m.file)).size : 0), 0);
console.log(`/login initial JavaScript: ${(raw / 1024).toFixed(1)} KB raw, ${(gz / 1024).toFixed(1)} KB gzip (target < 300 KB gzip); whole app ${(allJs / 1024).toFixed(0)} KB raw`);
process.exitCode = gz < 300 * 1024 ? 0 : 1;
