/**
 * The streaming XML tokenizer of every .xlsx part read (workbook.xml and its rels, the shared
 * strings, the worksheet), fed chunk by chunk, and the one place of the XML rules the reader
 * enforces. It is bounded by `indexOf` rather than by per-node work (a general parser, saxes,
 * measured ~17 MB/s on a sheet): it knows in advance which elements (by local name) and which of
 * their attributes its sink cares about, and hands out no per-tag objects:
 *   - `open(el)` / `close(el)` get the element's index in the vocabulary (-1 for any other);
 *   - a watched attribute of the tag being opened is left as a range of `buf` (`attrStart[k]`,
 *     `attrEnd[k]`; `attrAmp[k]` when it holds an entity: `attrValue(k)` decodes it); attributes
 *     are watched by their name as written, or as `*:local` by the local part of a prefixed name,
 *     whatever the prefix (`*:id` for `r:id`), the first such attribute counting;
 *   - text is cut out of the buffer and decoded only while the sink's `wantsText` is set.
 * It is strict where safety needs it, and refuses with an XmlError:
 *   - 'malformed': a document type declaration (`<!DOCTYPE`, so DTDs, XXE, entity expansion) and
 *     any other `<!` construct but comments and CDATA; an entity other than the five predefined
 *     ones or a bad character reference (in any text or attribute value, read or not); tags that
 *     do not nest or close (a stack of names); text, CDATA or a second element outside the root;
 *     malformed tags and attributes (`<` in a value, no quotes, no `=`);
 *   - 'tooLarge': an unfinished node (a text, a tag with its attributes, a comment) longer than
 *     `maxNodeChars`, the only thing carried from one chunk to the next, so the scanner never
 *     buffers more than that; an element nested deeper than `maxDepth`, so the stack of open
 *     elements stays small too (unbounded, a part of `<x>` repeated cost several bytes of heap a byte).
 */

export class XmlError extends Error {
  constructor(
    readonly kind: 'malformed' | 'tooLarge',
    message: string,
  ) {
    super(message);
    this.name = 'XmlError';
  }
}

const ENTITY = /&(?:#x([0-9A-Fa-f]{1,6})|#([0-9]{1,7})|(lt|gt|amp|quot|apos));|&/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Text or an attribute value with its references replaced; an unknown entity, a bare `&` or a bad character reference is an XmlError. */
function decodeEntities(s: string): string {
  if (s.indexOf('&') < 0) return s;
  return s.replace(ENTITY, (m, hex: string | undefined, dec: string | undefined, named: string | undefined) => {
    if (named) return NAMED[named];
    if (hex === undefined && dec === undefined) throw new XmlError('malformed', 'unknown entity or bare &');
    const cp = hex !== undefined ? parseInt(hex, 16) : parseInt(dec!, 10);
    if (cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
      throw new XmlError('malformed', `bad character reference ${m}`);
    return String.fromCodePoint(cp);
  });
}

export interface ScanSink {
  /** true while the text of the current element is wanted (else it is only checked) */
  wantsText: boolean;
  /** a start tag (self-closing ones are followed by `close`); `el`: vocabulary index or -1 */
  open(el: number): void;
  close(el: number): void;
  /** decoded character data (text and CDATA) while `wantsText`; may come in several pieces */
  text(t: string): void;
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** character classes inside a tag (ASCII; anything above is a name character) */
const NAME = 0;
const SPACE = 1;
/** `>` and `/`: end a tag name */
const END = 2;
/** `=` */
const EQ = 3;
/** `<`, `"`, `'`: never in a name */
const BAD = 4;
const CLASS = new Uint8Array(128);
for (const c of [0x20, 0x0a, 0x0d, 0x09]) CLASS[c] = SPACE;
CLASS[0x3e] = END;
CLASS[0x2f] = END;
CLASS[0x3d] = EQ;
for (const c of [0x3c, 0x22, 0x27]) CLASS[c] = BAD;
const classOf = (c: number) => (c < 128 ? CLASS[c] : NAME);

export class XmlScanner {
  /** the buffer being scanned: the attribute ranges index it during `open` */
  buf = '';
  /** per watched attribute of the element being opened: its value's range, -1 when absent */
  readonly attrStart: Int32Array;
  readonly attrEnd: Int32Array;
  readonly attrAmp: Uint8Array;

  private carry = '';
  private readonly names: string[] = [];
  private readonly kinds: number[] = [];
  private rootSeen = false;
  private ended = false;
  /** next '&' at or after the scan position in `buf` (n when none), recomputed only when passed */
  private amp = -1;
  /** vocabulary indexes by name length */
  private readonly byLength: number[][] = [];
  /** watched attribute names per vocabulary index (for `*:local`, the local part) */
  private readonly watched: string[][];
  /** per vocabulary index and watched attribute: 1 when watched as `*:local` */
  private readonly anyPrefix: Uint8Array[];

  constructor(
    private readonly sink: ScanSink,
    private readonly vocabulary: readonly string[],
    watch: Readonly<Record<string, readonly string[]>>,
    private readonly maxNodeChars: number,
    private readonly maxDepth: number,
  ) {
    const longest = Math.max(...vocabulary.map((w) => w.length));
    for (let l = 0; l <= longest; l++) this.byLength.push([]);
    vocabulary.forEach((w, i) => this.byLength[w.length].push(i));
    const spec = vocabulary.map((w) => watch[w] ?? []);
    this.watched = spec.map((a) => a.map((w) => (w.startsWith('*:') ? w.slice(2) : w)));
    this.anyPrefix = spec.map((a) => Uint8Array.from(a, (w) => (w.startsWith('*:') ? 1 : 0)));
    const most = Math.max(1, ...this.watched.map((a) => a.length));
    this.attrStart = new Int32Array(most).fill(-1);
    this.attrEnd = new Int32Array(most).fill(-1);
    this.attrAmp = new Uint8Array(most);
  }

  /** The decoded value of watched attribute `k` of the element being opened, or undefined. */
  attrValue(k: number): string | undefined {
    if (this.attrStart[k] < 0) return undefined;
    const raw = this.buf.slice(this.attrStart[k], this.attrEnd[k]);
    return this.attrAmp[k] ? decodeEntities(raw) : raw;
  }

  /** Feeds the next piece of the document (a decoded string). */
  write(chunk: string): void {
    const buf = this.carry.length ? this.carry + chunk : chunk;
    this.buf = buf;
    this.amp = -1;
    const stop = this.scan(buf);
    this.carry = stop < buf.length ? buf.slice(stop) : '';
    this.buf = '';
    if (this.carry.length > this.maxNodeChars) throw new XmlError('tooLarge', 'an XML node is too large');
  }

  /** The document is complete: anything unfinished is an error. */
  end(): void {
    if (this.carry.length && !(this.names.length === 0 && blank(this.carry, 0, this.carry.length)))
      throw new XmlError('malformed', 'unexpected end of document');
    if (this.names.length || !this.rootSeen) throw new XmlError('malformed', 'unclosed or missing root element');
    this.carry = '';
  }

  private nextAmp(buf: string, from: number): number {
    if (this.amp < from) {
      const a = buf.indexOf('&', from);
      this.amp = a < 0 ? buf.length : a;
    }
    return this.amp;
  }

  /** text buf[from, to) */
  private text(buf: string, from: number, to: number) {
    if (this.names.length === 0) {
      if (!blank(buf, from, to)) throw new XmlError('malformed', 'text outside the root element');
      return;
    }
    if (this.nextAmp(buf, from) < to) {
      const t = decodeEntities(buf.slice(from, to)); // checks the entities even when not wanted
      if (this.sink.wantsText) this.sink.text(t);
    } else if (this.sink.wantsText) this.sink.text(buf.slice(from, to));
  }

  /** Processes complete nodes of `buf`; returns where the unfinished rest begins. */
  private scan(buf: string): number {
    let i = 0;
    const n = buf.length;
    let lt = -1;
    for (;;) {
      if (lt < i) {
        // the next '<': usually right here or after a short text (a cell value)
        lt = i;
        const stop = Math.min(n, i + 32);
        while (lt < stop && buf.charCodeAt(lt) !== 0x3c) lt++;
        if (lt === stop) lt = buf.indexOf('<', lt);
      }
      if (lt < 0) return i; // text up to the end: kept whole for the next chunk (bounded)
      if (lt > i) this.text(buf, i, lt);
      i = lt;
      if (lt + 1 >= n) return i;
      const c1 = buf.charCodeAt(lt + 1);
      if (c1 === 0x21 /* ! */) {
        if (n - lt < 4) return i;
        if (buf.startsWith('<!--', lt)) {
          const e = buf.indexOf('-->', lt + 4);
          if (e < 0) return i;
          i = e + 3;
          continue;
        }
        if (n - lt < 9) return i;
        if (buf.startsWith('<![CDATA[', lt)) {
          if (this.names.length === 0) throw new XmlError('malformed', 'CDATA outside the root element');
          const e = buf.indexOf(']]>', lt + 9);
          if (e < 0) return i;
          if (this.sink.wantsText) this.sink.text(buf.slice(lt + 9, e));
          i = e + 3;
          continue;
        }
        throw new XmlError('malformed', 'document type declarations are not accepted');
      }
      if (c1 === 0x3f /* ? */) {
        const e = buf.indexOf('?>', lt + 2);
        if (e < 0) return i;
        i = e + 2;
        continue;
      }
      if (c1 === 0x2f /* / */) {
        const top = this.names.pop();
        let e = top === undefined ? -1 : lt + 2 + top.length;
        if (e >= 0 && e < n && buf.charCodeAt(e) === 0x3e && same(buf, lt + 2, top!)) {
          // </name> as opened: the usual case
        } else {
          e = buf.indexOf('>', lt + 2);
          if (e < 0) {
            if (top !== undefined) this.names.push(top);
            return i;
          }
          let end = e;
          while (end > lt + 2 && isSpace(buf.charCodeAt(end - 1))) end--;
          if (top === undefined || end - (lt + 2) !== top.length || !buf.startsWith(top, lt + 2)) {
            throw new XmlError('malformed', `</${buf.slice(lt + 2, end)}> does not close <${top ?? ''}>`);
          }
        }
        this.sink.close(this.kinds.pop()!);
        if (this.names.length === 0) this.ended = true;
        i = e + 1;
        continue;
      }
      const after = this.startTag(buf, lt);
      if (after < 0) return i;
      i = after;
    }
  }

  /** A start tag at `lt`; returns the index after it, or -1 when it is not complete yet. */
  private startTag(buf: string, lt: number): number {
    const n = buf.length;
    let j = lt + 1;
    let colon = -1;
    for (; j < n; j++) {
      const c = buf.charCodeAt(j);
      const k = classOf(c);
      if (k === NAME) {
        if (c === 0x3a /* : */ && colon < 0) colon = j;
      } else if (k === SPACE || k === END) break;
      else throw new XmlError('malformed', 'bad tag name');
    }
    if (j >= n) return -1;
    const nameStart = lt + 1;
    const nameEnd = j;
    if (nameEnd === nameStart) throw new XmlError('malformed', 'empty tag name');
    const el = this.element(buf, colon < 0 ? nameStart : colon + 1, nameEnd);
    const watched = el < 0 ? undefined : this.watched[el];
    if (watched) for (let k = 0; k < watched.length; k++) this.attrStart[k] = -1;
    for (;;) {
      let c = 0;
      while (j < n && (c = buf.charCodeAt(j)) < 128 && CLASS[c] === SPACE) j++;
      if (j >= n) return -1;
      if (c === 0x3e /* > */ || c === 0x2f /* / */) {
        const selfClosing = c === 0x2f;
        if (selfClosing) {
          if (j + 1 >= n) return -1;
          if (buf.charCodeAt(j + 1) !== 0x3e) throw new XmlError('malformed', 'bad self-closing tag');
        }
        if (this.names.length >= this.maxDepth) throw new XmlError('tooLarge', 'XML elements nested too deeply');
        if (this.names.length === 0) {
          if (this.rootSeen || this.ended) throw new XmlError('malformed', 'more than one root element');
          this.rootSeen = true;
        }
        this.sink.open(el);
        if (selfClosing) {
          this.sink.close(el);
          if (this.names.length === 0) this.ended = true;
          return j + 2;
        }
        this.names.push(el >= 0 && colon < 0 ? this.vocabulary[el] : buf.slice(nameStart, nameEnd));
        this.kinds.push(el);
        return j + 1;
      }
      // attribute: name = "value"
      const a0 = j;
      for (; j < n; j++) {
        const k = classOf(buf.charCodeAt(j));
        if (k === NAME) continue;
        if (k === EQ || k === SPACE) break;
        throw new XmlError('malformed', 'bad attribute');
      }
      if (j >= n) return -1;
      const a1 = j;
      while (j < n && isSpace(buf.charCodeAt(j))) j++;
      if (j >= n) return -1;
      if (buf.charCodeAt(j) !== 0x3d) throw new XmlError('malformed', 'attribute without value');
      j++;
      while (j < n && isSpace(buf.charCodeAt(j))) j++;
      if (j >= n) return -1;
      const q = buf.charCodeAt(j);
      if (q !== 0x22 && q !== 0x27) throw new XmlError('malformed', 'unquoted attribute value');
      // the value: up to the closing quote, without '<'; '&' means entities to check
      let close = j + 1;
      let amp = false;
      for (; close < n; close++) {
        const d = buf.charCodeAt(close);
        if (d === q) break;
        if (d === 0x3c) throw new XmlError('malformed', '< in attribute value');
        if (d === 0x26) amp = true;
      }
      if (close >= n) return -1;
      if (amp) decodeEntities(buf.slice(j + 1, close)); // refuses a bad entity, even in a value not read
      if (watched) {
        const anyPrefix = this.anyPrefix[el];
        for (let k = 0; k < watched.length; k++) {
          const w = watched[k];
          let from = a0;
          if (anyPrefix[k]) {
            // `*:w`: a prefixed name whose part after its first colon is w; the first one counts
            if (this.attrStart[k] >= 0) continue;
            while (from < a1 && buf.charCodeAt(from) !== 0x3a /* : */) from++; // within the name only
            if (from === a1) continue;
            from++;
          }
          if (a1 - from === w.length && same(buf, from, w)) {
            this.attrStart[k] = j + 1;
            this.attrEnd[k] = close;
            this.attrAmp[k] = amp ? 1 : 0;
          }
        }
      }
      j = close + 1;
    }
  }

  /** vocabulary index of the local name buf[from, to), or -1 */
  private element(buf: string, from: number, to: number): number {
    if (to - from >= this.byLength.length) return -1;
    const candidates = this.byLength[to - from];
    for (let k = 0; k < candidates.length; k++)
      if (same(buf, from, this.vocabulary[candidates[k]])) return candidates[k];
    return -1;
  }
}

/** buf holds `w` at `at` (names are short: comparing in place beats a call to startsWith) */
function same(buf: string, at: number, w: string): boolean {
  if (w.length > 4) return buf.startsWith(w, at);
  for (let k = 0; k < w.length; k++) if (buf.charCodeAt(at + k) !== w.charCodeAt(k)) return false;
  return true;
}

function blank(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpace(s.charCodeAt(i))) return false;
  return true;
}
