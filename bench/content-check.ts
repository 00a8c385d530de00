/**
 * Sensitive-content check: a 50,000-word list (generated Chinese and Latin words), load time
 * (normalisation tables included: the first load of the process), then the per-check time of
 * 500-character texts (some clean, some with hits; Chinese, traditional characters, Latin,
 * full-width letters, spaces, punctuation, zero-width characters and emoji), each normalised
 * before matching (normalize.ts): `find` (the ranges, as the content test) and `contains` (as
 * sending). The time per check is the process's CPU time (robust to other work on a shared
 * machine) and, beside it, the wall time. Targets: list load under 1 s, a check under 50 µs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SensitiveWords } from '../server/modules/content/sensitive-words';

// mulberry32: a small seeded generator, so every run measures the same list and texts
const rnd = (() => {
  let a = 42;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
})();
const han = () => String.fromCharCode(0x4e00 + Math.floor(rnd() * 0x5000));
const latin = () => String.fromCharCode(97 + Math.floor(rnd() * 26));
const word = () => {
  const n = 2 + Math.floor(rnd() * 4);
  const f = rnd() < 0.8 ? han : latin;
  return Array.from({ length: n }, f).join('');
};

const words = new Set<string>();
while (words.size < 50_000) words.add(word());
const list = [...words];
const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-words-')), 'words.txt');
fs.writeFileSync(file, list.join('\n'));

const t0 = performance.now();
const loadCpu0 = process.cpuUsage();
const matcher = new SensitiveWords(file, { checkIntervalMs: 1000 });
matcher.load();
const loadMs = performance.now() - t0;
const loadCpu = process.cpuUsage(loadCpu0);
const loadCpuMs = (loadCpu.user + loadCpu.system) / 1000;

// the rest of a text: mostly Chinese, some traditional, spaces and punctuation, digits (some
// full-width), zero-width spaces and emoji (no Latin letters: every two-letter word is in the
// list, so any two letters would hit)
const filler = () => {
  const r = rnd();
  if (r < 0.72) return han();
  if (r < 0.8) return ' ';
  if (r < 0.86) return '，。！、'[Math.floor(rnd() * 4)];
  if (r < 0.9) return String(Math.floor(rnd() * 10));
  if (r < 0.93) return String.fromCharCode(0xff10 + Math.floor(rnd() * 10));
  if (r < 0.96) return '\u200b';
  if (r < 0.98) return '😀';
  return '賭';
};
// a word disguised: a zero-width space or a space between its characters, or full-width / upper case
const disguise = (w: string) => {
  const r = rnd();
  if (r < 0.25) return [...w].join('\u200b');
  if (r < 0.5) return [...w].join(' ');
  if (r < 0.75) return w.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x61 + 0xff21));
  return w;
};
const texts = Array.from({ length: 200 }, (_, i) => {
  let t = '';
  while (t.length < 500) t += filler();
  t = t.slice(0, 500);
  if (i % 2) {
    const w = disguise(list[Math.floor(rnd() * list.length)]);
    const at = Math.floor(rnd() * (500 - w.length));
    t = t.slice(0, at) + w + t.slice(at + w.length);
  }
  return t;
});

/** µs per call of `fn` over the texts: CPU time and wall time */
function measure(fn: (t: string) => boolean, rounds: number): { cpu: number; wall: number; hits: number } {
  for (let i = 0; i < 2000; i++) fn(texts[i % texts.length]); // warm-up
  let hits = 0;
  const c0 = process.cpuUsage();
  const t1 = performance.now();
  for (let i = 0; i < rounds; i++) hits += fn(texts[i % texts.length]) ? 1 : 0;
  const wall = ((performance.now() - t1) * 1000) / rounds;
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / rounds, wall, hits };
}
const rounds = 20_000;
const find = measure((t) => matcher.find(t).length > 0, rounds);
const contains = measure((t) => matcher.contains(t), rounds);

const TARGET_US = 50;
console.log(
  `word list: ${matcher.count} words loaded in ${loadCpuMs.toFixed(0)} ms CPU (${loadMs.toFixed(0)} ms wall), normalisation tables included (target < 1000 ms)`,
);
for (const [name, m] of [
  ['find (ranges, the content test)', find],
  ['contains (sending)', contains],
] as const)
  console.log(
    `check of a 500-character text, normalised, ${name}: ${m.cpu.toFixed(1)} µs CPU (${m.wall.toFixed(1)} µs wall) per check over ${rounds} checks, ${m.hits} with hits (target < ${TARGET_US} µs)`,
  );
fs.rmSync(path.dirname(file), { recursive: true, force: true });
process.exitCode =
  loadCpuMs < 1000 && find.cpu < TARGET_US && contains.cpu < TARGET_US && find.hits === contains.hits ? 0 : 1;
