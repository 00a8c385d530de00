/**
 * Gzip size of the JavaScript a route loads: the entry chunk plus the static imports of the
 * route's page chunk (from dist/.vite/manifest.json; run `vite build --manifest` first).
 * Usage: tsx scripts/bundle-report.ts [src/custom-pages/login/LoginPage.tsx ...]
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

type Chunk = { file: string; src?: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[]; css?: string[] };
const dist = path.resolve('dist');
const manifest: Record<string, Chunk> = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const gz = (f: string) => zlib.gzipSync(fs.readFileSync(path.join(dist, f))).length;

function closure(keys: string[], seen = new Set<string>()): Set<string> {
  for (const k of keys) {
    if (seen.has(k)) continue;
    seen.add(k);
    closure(manifest[k]?.imports ?? [], seen);
  }
  return seen;
}

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry)!;
const pages = process.argv.slice(2).length ? process.argv.slice(2) : ['src/custom-pages/login/LoginPage.tsx', 'src/layout/ConsoleRoot.tsx', 'src/pages/Home.tsx'];
for (const page of pages) {
  const keys = closure([entry, page]);
  let js = 0;
  let css = 0;
  const rows: string[] = [];
  for (const k of keys) {
    const c = manifest[k];
    if (!c) continue;
    const size = gz(c.file);
    js += size;
    rows.push(`  ${(size / 1024).toFixed(1).padStart(7)} KB  ${c.file}`);
    for (const f of c.css ?? []) css += gz(f);
  }
  console.log(`${page}: ${(js / 1024).toFixed(1)} KB gzip JS${css ? `, ${(css / 1024).toFixed(1)} KB gzip CSS` : ''} (entry + static imports)`);
  console.log(rows.join('\n'));
}
