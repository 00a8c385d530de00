/**
 * Worker side of the ways of reading a file tried by bench/upload-md5.ts (BENCH_MD5_STRATEGIES=1),
 * and of the in-memory ceilings it always prints: one way per worker, timed inside the worker.
 * in { mode, file, slice, hash } → out { ms, md5, info } or { error }
 *   hash: 0 none (reading alone), 1 hash-wasm's createMD5, 2 the console's md5-wasm.ts
 *   mode: mem (no reading: a random block of `slice` bytes in memory hashed again and again up to
 *   file.size bytes), slice (Blob.slice(…).arrayBuffer() one after the other), slice-ahead (the same, the next
 *   two slices asked for before the current is hashed), frs (FileReaderSync), stream (file.stream()
 *   default reader: its own chunks), byob (file.stream() BYOB reader, one reused `slice` buffer;
 *   each read answers with what the pipe holds, ~0.3–0.7 MB here), byob-full (the same, each read
 *   filling the whole buffer: read(view, { min })), byob2 (two buffers: the next read asked for
 *   before the current one is hashed)
 */
import { createMD5 } from 'hash-wasm';
import { createMd5 } from '../../src/components/ChunkedUpload/md5-wasm';

/** a worker's (not in the DOM typings this project compiles with) */
declare const FileReaderSync: { new (): { readAsArrayBuffer(blob: Blob): ArrayBuffer } };

type Msg = { mode: string; file: Blob; slice: number; hash: number };
type H = { update(b: Uint8Array): void; digest(): string };

async function hasher(kind: number): Promise<H> {
  if (kind === 2) return createMd5();
  if (kind === 1) {
    const md5 = await createMD5();
    md5.init();
    return { update: (b) => md5.update(b), digest: () => md5.digest('hex') };
  }
  return { update() {}, digest: () => '' };
}

async function sliceSeq(file: Blob, slice: number, h: H) {
  for (let at = 0; at < file.size; at += slice)
    h.update(new Uint8Array(await file.slice(at, at + slice).arrayBuffer()));
}

async function sliceAhead(file: Blob, slice: number, h: H, ahead = 2) {
  const q: Promise<ArrayBuffer>[] = [];
  let next = 0;
  const fill = () => {
    for (; q.length <= ahead && next < file.size; next += slice) q.push(file.slice(next, next + slice).arrayBuffer());
  };
  fill();
  while (q.length) {
    const b = await q.shift()!;
    fill();
    h.update(new Uint8Array(b));
  }
}

function frs(file: Blob, slice: number, h: H) {
  const r = new FileReaderSync();
  for (let at = 0; at < file.size; at += slice)
    h.update(new Uint8Array(r.readAsArrayBuffer(file.slice(at, at + slice))));
}

async function stream(file: Blob, h: H) {
  const r = file.stream().getReader();
  let chunks = 0;
  for (;;) {
    const { done, value } = await r.read();
    if (done) return `${chunks} chunks`;
    chunks++;
    h.update(value);
  }
}

async function byob(file: Blob, slice: number, h: H, full = false) {
  // `min` (fill the whole view before answering) is newer than this project's DOM typings
  const r = file.stream().getReader({ mode: 'byob' }) as unknown as {
    read(v: Uint8Array, o?: { min: number }): Promise<ReadableStreamReadResult<Uint8Array>>;
  };
  let buf = new ArrayBuffer(slice);
  let chunks = 0;
  for (;;) {
    const { done, value } = await r.read(new Uint8Array(buf), full ? { min: slice } : undefined);
    if (done || !value) return `${chunks} chunks`;
    chunks++;
    h.update(value);
    buf = value.buffer as ArrayBuffer;
  }
}

async function byob2(file: Blob, slice: number, h: H) {
  const r = file.stream().getReader({ mode: 'byob' });
  let spare = new ArrayBuffer(slice);
  let next = r.read(new Uint8Array(new ArrayBuffer(slice)));
  for (;;) {
    const { done, value } = await next;
    if (done || !value) return;
    next = r.read(new Uint8Array(spare));
    h.update(value);
    spare = value.buffer as ArrayBuffer;
  }
}

self.onmessage = async (e: MessageEvent<Msg>) => {
  const { mode, file, slice, hash } = e.data;
  try {
    const h = await hasher(hash);
    let t0 = performance.now();
    let info: unknown = null;
    if (mode === 'mem') {
      const block = new Uint8Array(slice);
      for (let i = 0; i < block.length; i += 65536) crypto.getRandomValues(block.subarray(i, i + 65536));
      t0 = performance.now();
      for (let at = 0; at < file.size; at += slice) h.update(block);
    } else if (mode === 'slice') await sliceSeq(file, slice, h);
    else if (mode === 'slice-ahead') await sliceAhead(file, slice, h);
    else if (mode === 'frs') frs(file, slice, h);
    else if (mode === 'stream') info = await stream(file, h);
    else if (mode === 'byob') info = await byob(file, slice, h);
    else if (mode === 'byob-full') info = await byob(file, slice, h, true);
    else if (mode === 'byob2') await byob2(file, slice, h);
    else throw new Error(`mode ${mode}?`);
    const md5 = h.digest();
    postMessage({ ms: performance.now() - t0, md5, info });
  } catch (err) {
    postMessage({ error: String(err) });
  }
};
