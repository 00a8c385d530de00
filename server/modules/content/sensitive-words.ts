/**
 * The sensitive-word list: operator data in a text file (one word per line, `#` starts a comment),
 * compiled into an Aho-Corasick automaton (@monyone/aho-corasick, its double-array build) so a check
 * costs one pass over the text whatever the list's size. Matching is by UTF-16 code unit, so ranges
 * are offsets into the text as the console holds it, and a word matches wherever its characters
 * appear, combining marks or not. The file is re-read when it changes, without a restart: every
 * check looks at its mtime at most once a second. The same matcher guards sending.
 */
import fs from 'node:fs';
import { AhoCorasick } from '@monyone/aho-corasick/fast';

export type Range = [start: number, end: number];

/** Lower-cases character by character where that keeps the length, so offsets stay those of the original text. */
export function foldCase(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  let out = '';
  for (const ch of text) {
    const l = ch.toLowerCase();
    out += l.length === ch.length ? l : ch;
  }
  return out;
}

export function parseWordList(text: string): string[] {
  const words = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const w = line.replace(/#.*$/, '').trim();
    if (w) words.add(foldCase(w));
  }
  return [...words];
}

/** Merges overlapping or touching ranges (sorted by start). */
export function mergeRanges(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: Range[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

export class SensitiveWords {
  private matcher: AhoCorasick | null = null;
  private words: string[] = [];
  private mtimeMs = -1;
  private size = -1;
  private lastStat = 0;
  loadedAt = 0;

  constructor(
    readonly file: string,
    private readonly opts: { checkIntervalMs?: number; log?: (msg: string) => void } = {},
  ) {}

  get count() {
    return this.words.length;
  }

  /** Reads and compiles the list now. A missing file means an empty list; a broken read keeps the previous list. */
  load(): void {
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(this.file);
    } catch {
      st = undefined;
    }
    const words = st ? parseWordList(fs.readFileSync(this.file, 'utf8')) : [];
    this.matcher = words.length ? new AhoCorasick(words) : null;
    this.words = words;
    this.mtimeMs = st?.mtimeMs ?? -1;
    this.size = st?.size ?? -1;
    this.loadedAt = Date.now();
    this.opts.log?.(`sensitive words: ${words.length} loaded from ${this.file}`);
  }

  /** Reloads when the file changed since the last load (checked at most once per interval). */
  refresh(now = Date.now()): void {
    if (this.loadedAt === 0) return this.load();
    if (now - this.lastStat < (this.opts.checkIntervalMs ?? 1000)) return;
    this.lastStat = now;
    let mtimeMs = -1;
    let size = -1;
    try {
      const st = fs.statSync(this.file);
      mtimeMs = st.mtimeMs;
      size = st.size;
    } catch {
      /* removed: treated as an empty list */
    }
    if (mtimeMs !== this.mtimeMs || size !== this.size) {
      try {
        this.load();
      } catch (e) {
        this.opts.log?.(`sensitive words: reload failed, keeping ${this.words.length} words: ${(e as Error).message}`);
      }
    }
  }

  /** Offending ranges of `text` (UTF-16 offsets, end exclusive), merged, in order. */
  find(text: string): Range[] {
    this.refresh();
    if (!this.matcher || !text) return [];
    const hits = this.matcher.matchInText(foldCase(text));
    return mergeRanges(hits.map((m) => [m.begin, m.end] as Range));
  }

  contains(text: string): boolean {
    this.refresh();
    return !!this.matcher && !!text && this.matcher.hasKeywordInText(foldCase(text));
  }
}

/**
 * The answer shape of POST /content/content/test: keyed by number, `200` when clean, otherwise
 * keys 500, 501, ... each holding one "begin,end" range.
 */
export function contentTestAnswer(ranges: Range[]): Record<string, string> {
  if (!ranges.length) return { 200: 'ok' };
  return Object.fromEntries(ranges.map((r, i) => [String(500 + i), `${r[0]},${r[1]}`]));
}
