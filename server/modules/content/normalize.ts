/**
 * The text normalisation of the sensitive-word check (issue 23 item 6): the list and every text
 * checked go through the same rules, so a word is found however it is disguised, and every unit
 * of the normalised text remembers which characters of the original it came from (the content
 * test marks the original characters).
 *
 * Per character (code point), independent of its neighbours:
 *   1. compatibility decomposition (NFKD): full-width letters and digits → ASCII, ① → 1, ㈠ → (一),
 *      ligatures, Kangxi radicals and CJK compatibility ideographs → the unified ideographs,
 *      Hangul syllables → their letters; two texts are equal in NFKC exactly when they are in
 *      NFKD, so this is the NFKC the issue asks for, done per character;
 *   2. removed: every character that shows nothing (issue 35 item 5) — format characters (Unicode
 *      Cf: zero-width space / joiners, direction marks, soft hyphen, BOM), private use (Co: U+E000-
 *      U+F8FF, planes 15 and 16), unassigned code points (Cn, by the runtime's Unicode version) and
 *      noncharacters (U+FFFF, U+FDD0-U+FDEF, …), lone surrogates (Cs: a high one without its low one,
 *      a low one alone) and every default-ignorable code point (variation selectors, Hangul fillers,
 *      tags) — and combining marks (Mn, Me: accents, so é = e; a mark is part of the character
 *      before it);
 *   3. separators: whitespace, control characters, punctuation (P*) and symbols (S*, emoji
 *      included);
 *   4. letters lower-cased (final sigma ς as σ), traditional Chinese → simplified by OpenCC's
 *      character tables (opencc-js: the Taiwan and Hong Kong variant tables, then traditional →
 *      simplified; a simplified character is never changed by a variant table).
 *
 * Between characters, a run of separators (with removed characters inside) is
 *   - dropped when a CJK character (Han, kana, Hangul, bopomofo) is on either side: Chinese uses
 *     no spaces between words, so `赌 博`, `赌*博`, `赌★博`, `赌，博` and `加 V 信` read as `赌博`, `加v信`;
 *   - dropped between two single letters / digits standing alone (spaced-out letters: `v p n`,
 *     `v.p.n`, `1 2 3` read as `vpn`, `123`);
 *   - otherwise one space: it separates two words of a language written with spaces (`hello,
 *     world` is `hello world`; a list word is never found across it unless it holds the space:
 *     `lowo` is not in `hello world`);
 *   - dropped at the start and the end of the text.
 *
 * The tables for the Basic Multilingual Plane are built once, at first use (≈ 100 ms); other
 * planes are computed when met and cached.
 */
import { from as openccFrom, to as openccTo } from 'opencc-js/preset/t2cn';

/** item classes */
export const SEP = 1;
export const CJK = 2;
export const WORD = 3;

// kinds of a BMP unit in the tables (a kept character's kind is its class)
const K_REMOVED = 0;
const K_SEP = SEP;
const K_CJK = CJK;
const K_WORD = WORD;
const K_MARK = 4;
const K_MULTI = 5;
/** a high surrogate: with a low one after it, a code point of another plane; alone, removed */
const K_HIGH = 6;

const RE_REMOVED = /[\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Noncharacter_Code_Point}\p{Default_Ignorable_Code_Point}]/u;
const RE_MARK = /[\p{Mn}\p{Me}]/u;
const RE_SEP = /[\s\p{Cc}\p{Z}\p{P}\p{S}]/u;
const RE_CJK = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Bopomofo}]/u;

/** an expansion: code point, class, code point, class, …; [] = removed, MARK_ONLY = a removed combining mark */
type Expansion = readonly number[];
const REMOVED_EXP: Expansion = [];
const MARK_EXP: Expansion = [-1];

// ------------------------------------------------------------------------------- traditional → simplified

function entriesOf(dict: string | readonly (readonly [string, string])[]): [string, string][] {
  if (typeof dict !== 'string') return dict.map(([a, b]) => [a, b]);
  const out: [string, string][] = [];
  for (const e of dict.split('|')) {
    const [a, b] = e.split(' ');
    if (a && b) out.push([a, b]);
  }
  return out;
}

const single = (s: string) => s.length > 0 && [...s].length === 1;

/**
 * Code point → simplified code point, from OpenCC's character tables (phrase tables are left out:
 * they choose between the simplified candidates of one character by context, and any one
 * consistent choice does for matching). Idempotent: map(map(c)) = map(c).
 */
export function buildTradMap(): Map<number, number> {
  const ts = new Map<string, string>();
  for (const group of openccTo.cn)
    for (const dict of group)
      for (const [a, b] of entriesOf(dict)) if (single(a) && single(b) && !ts.has(a)) ts.set(a, b);
  // simplified characters: never rewritten by a regional variant table (Taiwan's 么 → 幺 would turn 什么 into 什幺)
  const simplified = new Set(ts.values());
  const variants = new Map<string, string>();
  for (const region of ['tw', 'hk'] as const)
    for (const group of openccFrom[region])
      for (const dict of group)
        for (const [a, b] of entriesOf(dict)) if (single(a) && single(b) && !variants.has(a)) variants.set(a, b);
  const step = (c: string) => ts.get(c) ?? (!simplified.has(c) && variants.has(c) ? variants.get(c)! : c);
  const out = new Map<number, number>();
  for (const c of new Set([...ts.keys(), ...variants.keys()])) {
    let x = c;
    // a chain (薴 → 苧 → 苎) to its end
    for (let i = 0; i < 8; i++) {
      const y = step(x);
      if (y === x) break;
      x = y;
    }
    if (x !== c) out.set(c.codePointAt(0)!, x.codePointAt(0)!);
  }
  return out;
}

// ------------------------------------------------------------------------------- one code point

let trad: Map<number, number> | null = null;

/** `s` without removed characters and combining marks */
const strip = (s: string) =>
  RE_REMOVED.test(s) || RE_MARK.test(s) ? [...s].filter((c) => !RE_REMOVED.test(c) && !RE_MARK.test(c)).join('') : s;

/**
 * The normalised form of one code point (see the module's comment): its expansion. NFKD, removed
 * characters and marks dropped, lower case (NFKD again, İ → i), then each code point a separator
 * or a (simplified) character. Decomposed per character, the text is its NFKD form but for the
 * order of combining marks, which are dropped: a Hangul syllable reads as its letters (jamo),
 * the same as the letters typed one by one.
 */
export function expandCodePoint(cp: number): Expansion {
  trad ??= buildTradMap();
  const ch = String.fromCodePoint(cp);
  if (RE_REMOVED.test(ch)) return REMOVED_EXP;
  if (RE_MARK.test(ch)) return MARK_EXP;
  const folded = strip(strip(ch.normalize('NFKD')).toLowerCase().normalize('NFKD'));
  const out: number[] = [];
  for (const d of folded) {
    if (RE_SEP.test(d)) {
      if (out[out.length - 1] !== SEP) out.push(0x20, SEP);
      continue;
    }
    let c = d.codePointAt(0)!;
    if (c === 0x3c2) c = 0x3c3; // ς → σ
    c = trad.get(c) ?? c;
    out.push(c, RE_CJK.test(String.fromCodePoint(c)) ? CJK : WORD);
  }
  return out.length ? out : REMOVED_EXP;
}

/** BMP ranges whose characters are CJK and unchanged but for the traditional → simplified map (checked by a test) */
export const PLAIN_CJK: readonly (readonly [number, number])[] = [
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
];

interface Tables {
  kind: Uint8Array;
  /** the code unit of a K_CJK / K_WORD unit */
  unit: Uint16Array;
  multi: Map<number, Expansion>;
}

let tables: Tables | null = null;

function bmpTables(): Tables {
  if (tables) return tables;
  const kind = new Uint8Array(65536);
  const unit = new Uint16Array(65536);
  const multi = new Map<number, Expansion>();
  trad ??= buildTradMap();
  for (const [a, b] of PLAIN_CJK)
    for (let u = a; u <= b; u++) {
      const c = trad.get(u) ?? u;
      if (c < 0x10000) {
        kind[u] = K_CJK;
        unit[u] = c;
      } else {
        kind[u] = K_MULTI;
        multi.set(u, [c, CJK]);
      }
    }
  for (let u = 0; u < 65536; u++) {
    if (u >= 0xdc00 && u <= 0xdfff) {
      // a lone low surrogate (a pair is read as one code point): removed
      kind[u] = K_REMOVED;
      continue;
    }
    if (u >= 0xd800 && u <= 0xdbff) {
      kind[u] = K_HIGH;
      unit[u] = u;
      continue;
    }
    if (kind[u] === K_CJK || kind[u] === K_MULTI) continue;
    const e = expandCodePoint(u);
    if (e === REMOVED_EXP || e.length === 0) kind[u] = K_REMOVED;
    else if (e === MARK_EXP) kind[u] = K_MARK;
    else if (e.length === 2 && e[1] === SEP) kind[u] = K_SEP;
    else if (e.length === 2 && e[0] < 0x10000) {
      kind[u] = e[1] === CJK ? K_CJK : K_WORD;
      unit[u] = e[0];
    } else {
      kind[u] = K_MULTI;
      multi.set(u, e);
    }
  }
  tables = { kind, unit, multi };
  return tables;
}

const astral = new Map<number, Expansion>();
const ASTRAL_CACHE = 1 << 16;
function astralExpansion(cp: number): Expansion {
  let e = astral.get(cp);
  if (!e) {
    e = expandCodePoint(cp);
    if (astral.size < ASTRAL_CACHE) astral.set(cp, e);
  }
  return e;
}

// ------------------------------------------------------------------------------- a text

/**
 * The normalised text as UTF-16 units in `units[0, length)`, each with the range of the original
 * text it comes from: `start[i]` inclusive, `end[i]` exclusive (a removed combining mark belongs
 * to the character before it; a run of separators read as one space points at the whole run).
 * The buffers are reused by the next call (copy what you keep).
 */
export interface Normalized {
  length: number;
  units: Uint16Array;
  start: Int32Array;
  end: Int32Array;
}

/** Reusable buffers of the normaliser: items (code points with their class and origin), then units. */
export class Normalizer {
  private cap = 0;
  private icp = new Int32Array(0);
  private icls = new Uint8Array(0);
  private istart = new Int32Array(0);
  private iend = new Int32Array(0);
  private items = 0;
  private out: Normalized = { length: 0, units: new Uint16Array(0), start: new Int32Array(0), end: new Int32Array(0) };

  /** room for `n` items, the first `keep` kept */
  private ensure(n: number, keep = 0) {
    if (n <= this.cap) return;
    const cap = Math.max(256, n, this.cap * 2);
    const [cp, cls, st, en] = [this.icp, this.icls, this.istart, this.iend];
    this.icp = new Int32Array(cap);
    this.icls = new Uint8Array(cap);
    this.istart = new Int32Array(cap);
    this.iend = new Int32Array(cap);
    if (keep) {
      this.icp.set(cp.subarray(0, keep));
      this.icls.set(cls.subarray(0, keep));
      this.istart.set(st.subarray(0, keep));
      this.iend.set(en.subarray(0, keep));
    }
    this.cap = cap;
  }

  private pushItem(cp: number, cls: number, s: number, e: number) {
    const k = this.items;
    if (cls === SEP && k > 0 && this.icls[k - 1] === SEP) {
      this.iend[k - 1] = e;
      return;
    }
    this.ensure(k + 1, k);
    this.icp[k] = cp;
    this.icls[k] = cls;
    this.istart[k] = s;
    this.iend[k] = e;
    this.items = k + 1;
  }

  private mark(end: number) {
    const n = this.items;
    if (n > 0 && this.icls[n - 1] !== SEP) this.iend[n - 1] = end;
  }

  private expansion(e: Expansion, s: number, end: number) {
    if (e === MARK_EXP) return this.mark(end);
    for (let j = 0; j < e.length; j += 2) this.pushItem(e[j], e[j + 1], s, end);
  }

  /**
   * Pass 1: the text's characters as items (removed ones dropped, separator runs merged). The
   * buffers always have room for one item per unit still to read (the fast path's at most).
   */
  private read(text: string) {
    const { kind, unit, multi } = bmpTables();
    const len = text.length;
    this.ensure(len + 1);
    let cp = this.icp;
    let cls = this.icls;
    let st = this.istart;
    let en = this.iend;
    let n = 0;
    for (let i = 0; i < len; i++) {
      const u = text.charCodeAt(i);
      const k = kind[u];
      if (k === K_CJK || k === K_WORD) {
        cp[n] = unit[u];
        cls[n] = k;
        st[n] = i;
        en[n++] = i + 1;
      } else if (k === K_SEP) {
        if (n > 0 && cls[n - 1] === SEP) en[n - 1] = i + 1;
        else {
          cp[n] = 0x20;
          cls[n] = SEP;
          st[n] = i;
          en[n++] = i + 1;
        }
      } else if (k === K_MARK) {
        if (n > 0 && cls[n - 1] !== SEP) en[n - 1] = i + 1;
      } else if (k !== K_REMOVED) {
        // several characters, or a high surrogate (with its low one: a code point of another plane)
        this.items = n;
        if (k === K_MULTI) this.expansion(multi.get(u)!, i, i + 1);
        else {
          const lo = i + 1 < len ? text.charCodeAt(i + 1) : 0;
          // (private use, unassigned and noncharacters of other planes expand to nothing: removed)
          if (lo >= 0xdc00 && lo <= 0xdfff) {
            this.expansion(astralExpansion(((u - 0xd800) << 10) + (lo - 0xdc00) + 0x10000), i, i + 2);
            i++;
          }
          // a lone high surrogate: removed
        }
        n = this.items;
        this.ensure(n + (len - i) + 1, n);
        cp = this.icp;
        cls = this.icls;
        st = this.istart;
        en = this.iend;
      }
    }
    this.items = n;
  }

  /** Pass 2: the items as units, separator runs decided. */
  private write(): Normalized {
    const n = this.items;
    const cls = this.icls;
    const cps = this.icp;
    const ist = this.istart;
    const ien = this.iend;
    if (this.out.units.length < 2 * n) {
      const size = Math.max(512, 2 * n);
      this.out = { length: 0, units: new Uint16Array(size), start: new Int32Array(size), end: new Int32Array(size) };
    }
    const out = this.out;
    const units = out.units;
    const start = out.start;
    const end = out.end;
    let w = 0;
    for (let k = 0; k < n; k++) {
      const c = cls[k];
      if (c === SEP) {
        if (k === 0 || k === n - 1) continue;
        if (cls[k - 1] === CJK || cls[k + 1] === CJK) continue;
        // two letters / digits standing alone (spaced-out letters) join
        if ((k < 2 || cls[k - 2] !== WORD) && (k + 2 >= n || cls[k + 2] !== WORD)) continue;
      }
      const cp = cps[k];
      if (cp < 0x10000) {
        units[w] = cp;
        start[w] = ist[k];
        end[w++] = ien[k];
      } else {
        units[w] = 0xd800 + ((cp - 0x10000) >> 10);
        start[w] = ist[k];
        end[w++] = ien[k];
        units[w] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
        start[w] = ist[k];
        end[w++] = ien[k];
      }
    }
    out.length = w;
    return out;
  }

  /** The normalised text (buffers reused by the next call). */
  normalize(text: string): Normalized {
    this.read(text);
    return this.write();
  }

  /**
   * Whether the normalised form of `text` inside a longer text can differ from its form alone
   * (other than at its edges): a separator run inside it between two letters / digits standing
   * alone where one of them is at the text's edge — a letter or digit put next to it would make
   * that token longer and the run a space (`x a b` alone reads `xab`, followed by `c` it reads
   * `xa bc`). Nothing else depends on the characters around a text.
   */
  edgeSensitive(text: string): boolean {
    this.read(text);
    const n = this.items;
    const cls = this.icls;
    for (let k = 1; k < n - 1; k++) {
      if (cls[k] !== SEP || cls[k - 1] !== WORD || cls[k + 1] !== WORD) continue;
      const leftAlone = k < 2 || cls[k - 2] !== WORD;
      const rightAlone = k + 2 >= n || cls[k + 2] !== WORD;
      if (leftAlone && rightAlone && (k === 1 || k === n - 2)) return true;
    }
    return false;
  }
}

const shared = new Normalizer();

function stringOf(n: Normalized): string {
  let s = '';
  for (let i = 0; i < n.length; i += 4096)
    s += String.fromCharCode(...n.units.subarray(i, Math.min(n.length, i + 4096)));
  return s;
}

/** The normalised text as a string (the word list's words). */
export function normalizeString(text: string): string {
  return stringOf(shared.normalize(text));
}

/** The normalised text as a string, with each unit's original range (tests). */
export function normalizeText(text: string): { text: string; start: number[]; end: number[] } {
  const n = shared.normalize(text);
  return {
    text: stringOf(n),
    start: Array.from(n.start.subarray(0, n.length)),
    end: Array.from(n.end.subarray(0, n.length)),
  };
}

/**
 * Code units a normalised word list's match can involve: every unit some character of which
 * normalises to a unit of a word, every separator, removed character or mark (they join or split
 * what is around them), every surrogate (a character outside the BMP is judged as a whole) and
 * every unit that expands to several characters with one of those among them.
 */
export function wordUnitMask(words: readonly string[]): Uint8Array {
  const used = new Uint8Array(65536);
  for (const w of words) for (let i = 0; i < w.length; i++) used[w.charCodeAt(i)] = 1;
  const { kind, unit, multi } = bmpTables();
  const mask = new Uint8Array(65536);
  for (let u = 0; u < 65536; u++) {
    const k = kind[u];
    if (u >= 0xd800 && u <= 0xdfff) mask[u] = 1;
    else if (k === K_CJK || k === K_WORD) mask[u] = used[unit[u]];
    else if (k === K_MULTI) {
      const e = multi.get(u)!;
      let m = 0;
      for (let j = 0; j < e.length && !m; j += 2) {
        const cp = e[j];
        if (e[j + 1] === SEP || cp >= 0x10000) m = 1;
        else m = used[cp];
      }
      mask[u] = m;
    } else mask[u] = 1;
  }
  return mask;
}
