/**
 * The sensitive-word list: operator data in a text file (one word per line, `#` starts a comment),
 * compiled into an Aho-Corasick automaton so a check costs one pass over the text whatever the
 * list's size. Texts and words are normalised first (normalize.ts: compatibility forms, invisible
 * characters, spaces / punctuation / symbols between Chinese characters, case, traditional →
 * simplified), so `赌\u200b博`, `赌 博`, `賭博` and `ＶＰＮ` are found as `赌博` and `vpn`; every range
 * found is given in UTF-16 offsets of the original text. The file is re-read when it changes,
 * without a restart: every check looks at its mtime at most once a second. The same matcher
 * guards sending.
 */
import fs from 'node:fs';
import { Normalizer, normalizeString, wordUnitMask } from './normalize';
import { messageOf } from '../../lib/error-code';

export { wordUnitMask } from './normalize';

export type Range = [start: number, end: number];

const normalizer = new Normalizer();

/** The list's words, normalised, distinct, in file order (a word that normalises to nothing is left out). */
export function parseWordList(text: string): string[] {
  const words = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const w = line.replace(/#.*$/, '').trim();
    if (!w) continue;
    const n = normalizeString(w);
    if (n) words.add(n);
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
 * Aho-Corasick over UTF-16 units of normalised words: the root's moves in a table of all 65,536
 * units, the other moves in one open-addressing hash table keyed by (state, unit). A state knows
 * the longest word ending there (itself or through its suffix links): ranges are merged anyway,
 * so the longest is all a position needs.
 */
export class WordAutomaton {
  /** units some word holds */
  readonly used = new Uint8Array(65536);
  private readonly rootNext = new Int32Array(65536);
  private readonly hState: Int32Array;
  private readonly hUnit: Uint16Array;
  private readonly hNext: Int32Array;
  private readonly hMask: number;
  private readonly fail: Int32Array;
  /** bit (unit & 31) set for the units of the state's moves: most misses need no hash probe */
  private readonly childBits: Int32Array;
  /** length (units) of the longest word that ends at the state, 0: none */
  private readonly best: Int32Array;

  constructor(words: readonly string[]) {
    let total = 1;
    for (const w of words) total += w.length;
    let size = 1024;
    while (size < total * 2) size *= 2;
    this.hState = new Int32Array(size).fill(-1);
    this.hUnit = new Uint16Array(size);
    this.hNext = new Int32Array(size);
    this.hMask = size - 1;
    const depth = new Int32Array(total);
    const isWord = new Uint8Array(total);
    // children as linked lists, for the breadth-first pass
    const firstChild = new Int32Array(total).fill(-1);
    const sibling = new Int32Array(total).fill(-1);
    const unitOf = new Uint16Array(total);
    const childBits = new Int32Array(total);
    let states = 1;
    for (const w of words) {
      let s = 0;
      for (let i = 0; i < w.length; i++) {
        const u = w.charCodeAt(i);
        this.used[u] = 1;
        let t = this.child(s, u);
        if (t < 0) {
          t = states++;
          depth[t] = depth[s] + 1;
          unitOf[t] = u;
          sibling[t] = firstChild[s];
          firstChild[s] = t;
          childBits[s] |= 1 << (u & 31);
          if (s === 0) this.rootNext[u] = t;
          else this.put(s, u, t);
        }
        s = t;
      }
      if (w.length) isWord[s] = 1;
    }
    this.childBits = childBits;
    this.fail = new Int32Array(states);
    this.best = new Int32Array(states);
    const queue = new Int32Array(states);
    let head = 0;
    let tail = 0;
    for (let c = firstChild[0]; c >= 0; c = sibling[c]) {
      this.best[c] = isWord[c] ? depth[c] : 0;
      queue[tail++] = c;
    }
    while (head < tail) {
      const s = queue[head++];
      for (let c = firstChild[s]; c >= 0; c = sibling[c]) {
        const u = unitOf[c];
        let f = this.fail[s];
        let next: number;
        for (;;) {
          next = this.child(f, u);
          if (next >= 0 || f === 0) break;
          f = this.fail[f];
        }
        const fc = next >= 0 ? next : 0;
        this.fail[c] = fc;
        this.best[c] = Math.max(isWord[c] ? depth[c] : 0, this.best[fc]);
        queue[tail++] = c;
      }
    }
  }

  private slot(s: number, u: number): number {
    return (Math.imul(s, 0x9e3779b1) ^ Math.imul(u + 1, 0x85ebca6b)) & this.hMask;
  }

  private put(s: number, u: number, t: number) {
    let h = this.slot(s, u);
    while (this.hState[h] >= 0) h = (h + 1) & this.hMask;
    this.hState[h] = s;
    this.hUnit[h] = u;
    this.hNext[h] = t;
  }

  /** the move from `s` on `u`, -1 when none (the root: 0 when none) */
  private child(s: number, u: number): number {
    if (s === 0) return this.rootNext[u] || -1;
    for (let h = this.slot(s, u); ; h = (h + 1) & this.hMask) {
      const k = this.hState[h];
      if (k < 0) return -1;
      if (k === s && this.hUnit[h] === u) return this.hNext[h];
    }
  }

  /** the state after `u` from `s` */
  private step(s: number, u: number): number {
    if (this.used[u] === 0) return 0;
    const hState = this.hState;
    const hUnit = this.hUnit;
    const mask = this.hMask;
    const bits = this.childBits;
    const bit = 1 << (u & 31);
    while (s !== 0) {
      if ((bits[s] & bit) === 0) {
        s = this.fail[s];
        continue;
      }
      for (let h = (Math.imul(s, 0x9e3779b1) ^ Math.imul(u + 1, 0x85ebca6b)) & mask; ; h = (h + 1) & mask) {
        const k = hState[h];
        if (k < 0) break;
        if (k === s && hUnit[h] === u) return this.hNext[h];
      }
      s = this.fail[s];
    }
    return this.rootNext[u];
  }

  /** Whether units[0, n) hold a word. */
  has(units: Uint16Array, n: number): boolean {
    const best = this.best;
    let s = 0;
    for (let i = 0; i < n; i++) {
      s = this.step(s, units[i]);
      if (best[s] !== 0) return true;
    }
    return false;
  }

  /** [first, last] unit index of the longest word ending at each position that ends one */
  each(units: Uint16Array, n: number, hit: (first: number, last: number) => void): void {
    const best = this.best;
    let s = 0;
    for (let i = 0; i < n; i++) {
      s = this.step(s, units[i]);
      const b = best[s];
      if (b !== 0) hit(i - b + 1, i);
    }
  }
}

/**
 * The check of many texts filled from one template (a variable send's rows): see
 * SensitiveWords.templateCheck.
 */
export interface TemplateWordCheck {
  /** the template's fixed text (sign and literal parts) holds a word, whatever the variables */
  readonly fixedHit: boolean;
  /**
   * 1 for every UTF-16 code unit that could play a part in a word's match in a text (wordUnitMask):
   * a row whose variables hold none of them cannot hit, whatever their neighbours.
   */
  readonly mask: Uint8Array;
  /** one row's full text holds a word (the list as it was when the check was made) */
  contains(text: string): boolean;
}

const NO_UNITS = new Uint8Array(65536);
const ALL_UNITS = new Uint8Array(65536).fill(1);

function textHas(ac: WordAutomaton, text: string): boolean {
  if (!text) return false;
  const n = normalizer.normalize(text);
  return ac.has(n.units, n.length);
}

export class SensitiveWords {
  private matcher: WordAutomaton | null = null;
  private words: string[] = [];
  /** the file's words, normalised (the list is these and `extra`) */
  private fileWords: string[] = [];
  /** the words operators added in the console (sensitive_words), normalised */
  private extra: string[] = [];
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
    this.fileWords = st ? parseWordList(fs.readFileSync(this.file, 'utf8')) : [];
    this.mtimeMs = st?.mtimeMs ?? -1;
    this.size = st?.size ?? -1;
    this.loadedAt = Date.now();
    this.compile();
    this.opts.log?.(
      `sensitive words: ${this.fileWords.length} loaded from ${this.file}, ${this.extra.length} from the database`,
    );
  }

  /** the file's words and the extra ones, distinct, compiled into the matcher */
  private compile() {
    const words = this.extra.length ? [...new Set([...this.fileWords, ...this.extra])] : this.fileWords;
    this.matcher = words.length ? new WordAutomaton(words) : null;
    this.words = words;
    this.mask = null;
  }

  /**
   * The words added in the console (the sensitive_words table; the content module reads it again
   * when it changes): the list becomes the file's and these.
   */
  setExtra(raw: readonly string[]): void {
    this.extra = parseWordList(raw.join('\n'));
    if (this.loadedAt === 0) this.load();
    else this.compile();
  }

  /** Is this word (normalised as the list is) in the list file? */
  inFile(word: string): boolean {
    if (this.loadedAt === 0) this.load();
    const n = parseWordList(word)[0];
    return !!n && this.fileWords.includes(n);
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
        this.opts.log?.(`sensitive words: reload failed, keeping ${this.words.length} words: ${messageOf(e)}`);
      }
    }
  }

  /**
   * Offending ranges of `text` (UTF-16 offsets of the original text, end exclusive), merged, in
   * order: a range runs from the first original character of the match to its last one (with the
   * combining marks on it), the ignored characters between them included.
   */
  find(text: string): Range[] {
    this.refresh();
    const ac = this.matcher;
    if (!ac || !text) return [];
    const n = normalizer.normalize(text);
    const ranges: Range[] = [];
    ac.each(n.units, n.length, (first, last) => ranges.push([n.start[first], n.end[last]]));
    return ranges.length ? mergeRanges(ranges) : ranges;
  }

  contains(text: string): boolean {
    this.refresh();
    return !!this.matcher && textHas(this.matcher, text);
  }

  /**
   * The check of many texts made of one template's fixed parts (`fixed`: the sign with its
   * brackets and the literal text in front of the first variable, then each literal after a
   * variable) with variables between them, each variable at least one character. The fixed parts
   * are checked once; a row needs its own check (`contains` of its full text) only when one of
   * its variables holds a unit of `mask`. Exact, the same answer as checking every row's full text:
   *
   * - A match is a word in the normalised text. Normalisation is per character except for the
   *   runs of separators (spaces, punctuation, symbols), read as nothing or one space by the
   *   characters around them (normalize.ts).
   * - A match that covers a unit coming from a variable needs that unit to be a unit of some
   *   word; a match across a variable that reads as nothing needs the variable to be made of
   *   separators or removed characters: `mask` holds every unit that can do either
   *   (wordUnitMask). A row whose variables hold none of them can only hit within one fixed part.
   * - A fixed part reads the same inside any row as on its own (at its edges: a separator run
   *   there is a space or nothing, and a match can neither start nor end with a space, so a match
   *   using it covers a variable's unit), unless letters standing alone meet a separator next to
   *   the part's edge (Normalizer.edgeSensitive: `a b` reads `ab` alone, `a bc` followed by `c`):
   *   then there is no shortcut (every row checked in full). So a fixed part that holds a word on
   *   its own (checked alone) holds it in every row.
   */
  templateCheck(fixed: readonly string[]): TemplateWordCheck {
    this.refresh();
    const matcher = this.matcher;
    if (!matcher) return { fixedHit: false, mask: NO_UNITS, contains: () => false };
    const contains = (text: string) => textHas(matcher, text);
    if (fixed.some((f) => normalizer.edgeSensitive(f))) return { fixedHit: false, mask: ALL_UNITS, contains };
    this.mask ??= wordUnitMask(this.words);
    return { fixedHit: fixed.some(contains), mask: this.mask, contains };
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
