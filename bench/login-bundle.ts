/**
 * Initial JavaScript of the built /login route, gzip: the entry chunk with its static imports,
 * plus the lazily loaded login page chunk with its static imports (what the browser fetches
 * before the login form is usable). Run after `npm run build`. Budget: under 200 KB (issue 28;
 * 297 KB before the login form left RJSF, axios and antd's App behind); exits 1 above it, so `npm run test:e2e` (which builds) fails when /login outgrows its budget.
 *
 * It also checks that the build carries nothing for development: no MSW worker
 * (mockServiceWorker.js lives in .storybook/public, Storybook's static dir, not in public/), no
 * story file, no story mock (src/stories/*, msw) in any file of dist/; exits 1 when it finds one.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** gzip KB of JavaScript /login may fetch before it renders */
const BUDGET_KB = 200;
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
if (!process.argv.includes('--summary'))
  for (const [f, r, g] of rows)
    console.log(
      `  ${f.padEnd(48)} ${(r / 1024).toFixed(1).padStart(8)} KB  ${(g / 1024).toFixed(1).padStart(7)} KB gzip`,
    );
const allJs = Object.values(manifest).reduce(
  (s, m) => s + (m.file.endsWith('.js') ? fs.statSync(path.join(dist, m.file)).size : 0),
  0,
);
console.log(
  `/login initial JavaScript: ${(raw / 1024).toFixed(1)} KB raw, ${(gz / 1024).toFixed(1)} KB gzip (budget < ${BUDGET_KB} KB gzip); whole app ${(allJs / 1024).toFixed(0)} KB raw`,
);

/** Development-only files and modules the production build must not carry. */
const DEV_FILE = /mockServiceWorker\.js$|\.stories\.|\.mdx$/;
const DEV_CODE: [RegExp, string][] = [
  [/Mock Service Worker|mockServiceWorker|msw-storybook-addon|setupWorker\(/, 'MSW'],
  [/\/src\/stories\/|\.stories\.tsx?\b/, 'a story or story mock'],
];
function filesOf(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesOf(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}
const devFindings: string[] = [];
for (const f of filesOf(dist)) {
  const rel = path.relative(dist, f);
  if (DEV_FILE.test(rel)) devFindings.push(`${rel}: development file`);
  else if (/\.(js|html|css|json)$/.test(rel) && !rel.startsWith('.vite/')) {
    const text = fs.readFileSync(f, 'utf8');
    for (const [re, what] of DEV_CODE)
      if (re.test(text)) devFindings.push(`${rel}: carries ${what} (${text.match(re)![0]})`);
  }
}
for (const m of Object.keys(manifest))
  if (/\.stories\.|(^|\/)src\/stories\//.test(m)) devFindings.push(`${m}: a story module is a chunk of the build`);
if (devFindings.length) console.log(`development code in dist/:\n  ${devFindings.join('\n  ')}`);
else console.log('dist/ carries nothing for development (no MSW worker, no stories, no story mocks)');

process.exitCode = gz < BUDGET_KB * 1024 && devFindings.length === 0 ? 0 : 1;
