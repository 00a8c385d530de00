/**
 * Sensitive-content check: a 50,000-word list (generated Chinese and Latin words), load time,
 * then the per-check time of 500-character texts (some clean, some with hits).
 * Targets: list load under 1 s, under 0.2 ms per check after load.
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
const matcher = new SensitiveWords(file, { checkIntervalMs: 1000 });
matcher.load();
const loadMs = performance.now() - t0;

const texts = Array.from({ length: 200 }, (_, i) => {
  let t = '';
  while (t.length < 500) t += rnd() < 0.1 ? ' ' : han();
  t = t.slice(0, 500);
  if (i % 2) {
    const w = list[Math.floor(rnd() * list.length)];
    const at = Math.floor(rnd() * (500 - w.length));
    t = t.slice(0, at) + w + t.slice(at + w.length);
  }
  return t;
});
for (let i = 0; i < 2000; i++) matcher.find(texts[i % texts.length]); // warm-up
const rounds = 20_000;
let hits = 0;
const t1 = performance.now();
for (let i = 0; i < rounds; i++) hits += matcher.find(texts[i % texts.length]).length ? 1 : 0;
const perCheck = (performance.now() - t1) / rounds;

console.log(`word list: ${matcher.count} words loaded in ${loadMs.toFixed(0)} ms (target < 1000 ms)`);
console.log(`check of a 500-character text: ${(perCheck * 1000).toFixed(1)} µs per check over ${rounds} checks, ${hits} with hits (target < 200 µs)`);
fs.rmSync(path.dirname(file), { recursive: true, force: true });
process.exitCode = loadMs < 1000 && perCheck < 0.2 ? 0 : 1;
