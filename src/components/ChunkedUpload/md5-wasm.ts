/**
 * MD5 (RFC 1321) in WebAssembly, for the upload's MD5 worker (md5.worker.ts). The module, a few KB,
 * is written out by the code below when first used: no build step, no toolchain, no binary blob.
 *
 * Why not hash-wasm's MD5, which the worker used before: in V8 it runs at ~430 MB/s on this machine
 * (Node and Chromium alike) against ~600 MB/s for native OpenSSL, below the 450 MB/s the upload
 * wants with the reading on top. MD5 is 64 steps, each waiting on the one before, so its speed is
 * the length of that chain of operations. V8 keeps the WebAssembly's order of integer operations
 * (it only folds an add of a constant into an x64 lea), and hash-wasm's module (clang's output of
 * the usual C code) leaves on the chain G as c ^ (d & (b ^ c)), three operations where one AND
 * will do, and the round constant, which V8 folds into a three-part lea (slower than an add) after
 * the boolean function. Here each step puts on the chain only what must wait for the previous
 * step's result b:
 *
 *   a = rotl((a + x[k] + T) + f(b, c, d), s) + b, the part of f that needs b last:
 *   F: d ^ (b & (c ^ d))         G: (c & ~d) + (b & d)   (the two ANDs share no bit: + is |)
 *   H: b ^ (c ^ d)               I: c ^ (b | ~d)
 *
 * which takes it to ~570 MB/s, about 92 % of OpenSSL (tests/unit/upload-md5.test.ts checks it
 * against Node's MD5; bench/upload-md5.ts times both in Chromium). update() copies its data into
 * the module's memory STAGE bytes at a time and hashes it there: one copy, in pieces that stay in
 * the CPU's cache, and bounded memory.
 */

/**
 * the 64 steps' constants, RFC 1321's T[i] = floor(abs(sin(i + 1)) * 2^32), written out: the last
 * bit of Math.sin is each JavaScript engine's own
 */
const T = [
  0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501, 0x698098d8,
  0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340,
  0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6, 0xc33707d6, 0xf4d50d87,
  0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
  0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039,
  0xe6db99e5, 0x1fa27cf8, 0xc4ac5665, 0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92,
  0xffeff47d, 0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb,
  0xeb86d391,
];
const S = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
/** which message word step i adds */
const X = (i: number) => (i < 16 ? i : i < 32 ? (1 + 5 * i) % 16 : i < 48 ? (5 + 3 * i) % 16 : (7 * i) % 16);

// the WebAssembly opcodes used
const LOCAL_GET = 0x20,
  LOCAL_SET = 0x21,
  I32_LOAD = 0x28,
  I32_STORE = 0x36,
  I32_CONST = 0x41;
const I32_ADD = 0x6a,
  I32_SUB = 0x6b,
  I32_AND = 0x71,
  I32_OR = 0x72,
  I32_XOR = 0x73,
  I32_ROTL = 0x77;
const LOOP = 0x03,
  BR_IF = 0x0d,
  END = 0x0b,
  VOID = 0x40;

function leb(n: number, signed: boolean): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n = signed ? n >> 7 : n >>> 7;
    const done = signed ? (n === 0 && !(byte & 0x40)) || (n === -1 && byte & 0x40) : n === 0;
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}
const section = (id: number, body: number[]) => [id, ...leb(body.length, false), ...body];
const vec = (items: number[][]) => [...leb(items.length, false), ...items.flat()];
const name = (s: string) => vec([...s].map((c) => [c.charCodeAt(0)]));

/**
 * blocks(p, n): hashes the n ≥ 1 64-byte blocks at p into the state (a, b, c, d) kept at bytes
 * 0–15 of the memory.
 */
function blocksBody(): number[] {
  const P = 0,
    N = 1; // params
  const A = 2,
    B = 3,
    C = 4,
    D = 5,
    SA = 6,
    SB = 7,
    SC = 8,
    SD = 9; // locals
  const get = (l: number) => [LOCAL_GET, l];
  const set = (l: number) => [LOCAL_SET, l];
  const k = (n: number) => [I32_CONST, ...leb(n | 0, true)];
  /** the word at p + offset (or at offset) */
  const load = (offset: number, base?: number) => [
    ...(base === undefined ? k(0) : get(base)),
    I32_LOAD,
    2,
    ...leb(offset, false),
  ];
  const state: [number, number][] = [
    [A, 0],
    [B, 4],
    [C, 8],
    [D, 12],
  ];
  const saved: [number, number][] = [
    [A, SA],
    [B, SB],
    [C, SC],
    [D, SD],
  ];

  const code: number[] = [];
  for (const [l, o] of state) code.push(...load(o), ...set(l));
  code.push(LOOP, VOID);
  for (const [l, s] of saved) code.push(...get(l), ...set(s));
  let [a, b, c, d] = [A, B, C, D];
  for (let i = 0; i < 64; i++) {
    // a + x + T: nothing in it waits on the step before. T is read from the memory: as a constant,
    // V8 folds it with the next add into a three-part lea (slower than an add) on the waiting path.
    const sum = [...get(a), ...load(4 * X(i), P), I32_ADD, ...load(TABLE + 4 * i), I32_ADD];
    const plusF = [
      [...get(d), ...get(c), ...get(d), I32_XOR, ...get(b), I32_AND, I32_XOR, I32_ADD],
      [...get(c), ...get(d), ...k(-1), I32_XOR, I32_AND, I32_ADD, ...get(b), ...get(d), I32_AND, I32_ADD],
      [...get(b), ...get(c), ...get(d), I32_XOR, I32_XOR, I32_ADD],
      [...get(c), ...get(b), ...get(d), ...k(-1), I32_XOR, I32_OR, I32_XOR, I32_ADD],
    ][i >> 4];
    code.push(...sum, ...plusF, ...k(S[(i >> 4) * 4 + (i & 3)]), I32_ROTL, ...get(b), I32_ADD, ...set(a));
    [a, b, c, d] = [d, a, b, c];
  }
  for (const [l, s] of saved) code.push(...get(l), ...get(s), I32_ADD, ...set(l));
  code.push(...get(P), ...k(64), I32_ADD, ...set(P));
  code.push(...get(N), ...k(1), I32_SUB, ...set(N));
  code.push(...get(N), BR_IF, 0, END);
  for (const [l, o] of state) code.push(...k(0), ...get(l), I32_STORE, 2, o);
  code.push(END);
  const locals = vec([[8, 0x7f]]); // 8 × i32
  return [...leb(locals.length + code.length, false), ...locals, ...code];
}

/** bytes hashed per call into the module: small enough to stay in the CPU's cache */
export const STAGE = 64 * 1024;
const TABLE = 64; // T
const DATA = 320; // where the staged bytes start (the state is at 0)
const PAGES = Math.ceil((DATA + STAGE + 128) / 65536);

function moduleBytes(): Uint8Array {
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec([[0x60, 2, 0x7f, 0x7f, 0]])), // type 0: (i32, i32) → ()
    ...section(3, vec([[0]])), // function 0 is of type 0
    ...section(5, vec([[0x00, ...leb(PAGES, false)]])), // memory 0: PAGES pages, no maximum
    ...section(
      7,
      vec([
        [...name('memory'), 0x02, 0],
        [...name('blocks'), 0x00, 0],
      ]),
    ),
    ...section(10, vec([blocksBody()])),
  ]);
}

let compiled: Promise<WebAssembly.Module> | null = null;

export interface Md5 {
  update(data: Uint8Array): void;
  /** the hex MD5 of everything given to update(); the hasher can't be used after */
  digest(): string;
}

export async function createMd5(): Promise<Md5> {
  compiled ??= WebAssembly.compile(moduleBytes() as BufferSource);
  const instance = await WebAssembly.instantiate(await compiled);
  const { memory, blocks } = instance.exports as { memory: WebAssembly.Memory; blocks: (p: number, n: number) => void };
  const mem = new Uint8Array(memory.buffer);
  const view = new DataView(memory.buffer);
  [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476].forEach((v, i) => view.setUint32(4 * i, v, true));
  T.forEach((v, i) => view.setUint32(TABLE + 4 * i, v, true));
  let staged = 0; // bytes at DATA not hashed yet (< 64 between calls)
  let length = 0;
  return {
    update(data) {
      length += data.length;
      for (let at = 0; at < data.length;) {
        const take = Math.min(data.length - at, STAGE - staged);
        mem.set(data.subarray(at, at + take), DATA + staged);
        staged += take;
        at += take;
        const whole = staged >> 6;
        if (whole) {
          blocks(DATA, whole);
          mem.copyWithin(DATA, DATA + whole * 64, DATA + staged);
          staged -= whole * 64;
        }
      }
    },
    digest() {
      // padding: 0x80, zeros up to 56 mod 64, the length in bits (64-bit little-endian)
      mem[DATA + staged++] = 0x80;
      const end = staged <= 56 ? 64 : 128;
      mem.fill(0, DATA + staged, DATA + end);
      view.setUint32(DATA + end - 8, (length * 8) % 2 ** 32, true);
      view.setUint32(DATA + end - 4, Math.floor(length / 2 ** 29), true);
      blocks(DATA, end / 64);
      return Array.from(mem.subarray(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
    },
  };
}
