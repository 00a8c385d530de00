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

/**
 * The check of many texts filled from one template (a variable send's rows): see
 * SensitiveWords.templateCheck.
 */
export interface TemplateWordCheck {
  /** the template's fixed text (sign and literal parts) holds a word, whatever the variables */
  readonly fixedHit: boolean;
  /**
   * 1 for every UTF-16 code unit that could be part of a word's match in a text (after folding):
   * a row whose variables hold none of them cannot hit, whatever their neighbours.
   */
  readonly mask: Uint8Array;
  /** one row's full text holds a word (the list as it was when the check was made) */
  contains(text: string): boolean;
}

const NO_UNITS = new Uint8Array(65536);
const ALL_UNITS = new Uint8Array(65536).fill(1);
const SIGMA = 0x3a3;

/**
 * Code units a word of the (folded) list can match: a unit whose fold is a unit of some word. A
 * unit folds to its lower case when that is one unit, else stays as it is (foldCase), so both
 * count; capital sigma lowers to σ or, word-finally, ς; surrogates are taken together.
 */
export function wordUnitMask(words: readonly string[]): Uint8Array {
  const used = new Uint8Array(65536);
  let surrogates = false;
  for (const w of words) {
    for (let i = 0; i < w.length; i++) {
      const u = w.charCodeAt(i);
      used[u] = 1;
      if (u >= 0xd800 && u <= 0xdfff) surrogates = true;
    }
  }
  const mask = new Uint8Array(65536);
  for (let u = 0; u < 65536; u++) {
    if (u >= 0xd800 && u <= 0xdfff) mask[u] = surrogates ? 1 : 0;
    else if (used[u]) mask[u] = 1;
    else {
      const l = String.fromCharCode(u).toLowerCase();
      if (l.length === 1 && used[l.charCodeAt(0)]) mask[u] = 1;
    }
  }
  if (used[0x3c2] || used[0x3c3]) mask[SIGMA] = 1;
  return mask;
}

export class SensitiveWords {
  private matcher: AhoCorasick | null = null;
  private words: string[] = [];
  private mask: Uint8Array | null = null;
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
    this.mask = null;
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

  /**
   * The check of many texts made of one template's fixed parts (`fixed`: the sign with its
   * brackets and the literal text in front of the first variable, then each literal after a
   * variable) with variables between them, each variable at least one character. The fixed parts
   * are checked once; a row needs its own check (`contains` of its full text) only when one of
   * its variables holds a unit of `mask`. Exact, the same answer as checking every row's full text:
   *
   * - A match is a word in the folded text. foldCase folds unit by unit (each code point to its
   *   lower case, or itself when that changes the length) except capital sigma, whose lower case
   *   depends on the letters around it. So, without a capital sigma in the fixed parts, the fixed
   *   parts fold the same inside any row as on their own.
   * - A match that covers a unit of a variable needs that unit to fold to a unit of some word:
   *   `mask` holds every unit that can. A row whose variables hold none of them can only hit
   *   within one fixed part, which the fixed check has seen (the parts are joined by a line
   *   break, which no word holds). A word spanning a variable and the template text around it
   *   covers a unit of the variable, so that row is checked in full.
   * - Fixed parts holding a capital sigma: no shortcut (every row checked in full).
   */
  templateCheck(fixed: readonly string[]): TemplateWordCheck {
    this.refresh();
    const matcher = this.matcher;
    if (!matcher) return { fixedHit: false, mask: NO_UNITS, contains: () => false };
    const contains = (text: string) => !!text && matcher.hasKeywordInText(foldCase(text));
    if (fixed.some((f) => f.includes('Σ'))) return { fixedHit: false, mask: ALL_UNITS, contains };
    this.mask ??= wordUnitMask(this.words);
    return { fixedHit: contains(fixed.join('\n')), mask: this.mask, contains };
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
