/**
 * MD5 of a file in a Web Worker (md5-wasm.ts, WebAssembly), streamed: the file is read through
 * file.stream() with a BYOB reader into one reused buffer of SLICE bytes, each filled buffer hashed
 * before the next read, so at most SLICE bytes of the file (plus the browser's own pipe) are in
 * the worker's memory. Messages: in { file: Blob }, out { progress } … { md5 } or { error }.
 *
 * Why this way (`BENCH_MD5_STRATEGIES=1 npx tsx bench/upload-md5.ts` times each; CPU seconds
 * for the reading alone of 256 MB here, this worker's thread + the other threads, mostly the
 * browser's): slice(…).arrayBuffer() per 4 MB slice, a round trip to the browser process and a
 * fresh buffer each time, ~0.4 + 0.7; FileReaderSync the same; the stream's default reader, a
 * fresh buffer per chunk, ~0.35 + 0.45; the BYOB reader, filling the same 1 MB again and again,
 * ~0.07 + 0.3, which leaves this thread to the MD5 (~0.45) and the browser's reading to the other
 * core. Its reads answer with what the browser's pipe holds (0.3–0.7 MB): asking for full buffers
 * (read(view, { min })), other sizes (0.25–4 MB) or a second buffer read ahead while one is
 * hashed gained nothing measurable (the copy into it runs on this same thread anyway).
 */
import { createMd5 } from './md5-wasm';

export const SLICE = 1024 * 1024;

export async function md5OfBlob(file: Blob, onProgress: (fraction: number) => void = () => {}): Promise<string> {
  const h = await createMd5();
  let read = 0;
  let last = 0;
  for await (const bytes of contents(file)) {
    h.update(bytes);
    read += bytes.length;
    const now = performance.now();
    if (now - last > 100) {
      last = now;
      onProgress(Math.min(1, read / file.size));
    }
  }
  if (read !== file.size) throw new Error(`read ${read} of ${file.size} bytes`);
  onProgress(1);
  return h.digest();
}

/** the file's bytes in order, each piece valid only until the next is asked for */
async function* contents(file: Blob): AsyncGenerator<Uint8Array> {
  const stream = file.stream();
  let byob: ReadableStreamBYOBReader | null = null;
  try {
    byob = stream.getReader({ mode: 'byob' });
  } catch {
    // a browser whose Blob stream is not a byte stream: its own chunks
  }
  if (byob) {
    let buffer = new ArrayBuffer(SLICE);
    for (;;) {
      const { done, value } = await byob.read(new Uint8Array(buffer));
      if (done || !value) return;
      yield value;
      buffer = value.buffer; // the same memory, handed back by the read
    }
  }
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

// as a worker (not when imported by the benchmark page or a test)
const scope = globalThis as unknown as {
  WorkerGlobalScope?: unknown;
  onmessage: unknown;
  postMessage: (m: unknown) => void;
};
if (typeof scope.WorkerGlobalScope !== 'undefined') {
  scope.onmessage = async (e: MessageEvent<{ file: Blob }>) => {
    try {
      const md5 = await md5OfBlob(e.data.file, (progress) => scope.postMessage({ progress }));
      scope.postMessage({ md5 });
    } catch (err) {
      scope.postMessage({ error: String((err as Error)?.message ?? err) });
    }
  };
}
