/**
 * MD5 of a file in a Web Worker (md5-wasm.ts, WebAssembly), streamed: the file is read through
 * file.stream() with a BYOB reader into one reused buffer of SLICE bytes, each filled buffer hashed
 * before the next read, so at most SLICE bytes of the file (plus the browser's own pipe) are in
 * the worker's memory. Messages: in { file: Blob }, out { progress } … { md5 } or { error }.
 *
 * Why this way (bench/upload-md5-strategies.ts measures each): Blob.slice().arrayBuffer() per
 * slice is a round trip to the browser process and a fresh buffer each time (~190 MB/s for the
 * reading alone here); the stream's default reader also hands over a fresh buffer per chunk; the
 * BYOB reader fills the same memory again and again. A second buffer read ahead while one is
 * hashed gains nothing: the copy into it runs on this same thread, and the browser keeps filling
 * its pipe while we hash anyway.
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
      buffer = value.buffer as ArrayBuffer; // the same memory, handed back by the read
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
const scope = globalThis as unknown as { WorkerGlobalScope?: unknown; onmessage: unknown; postMessage: (m: unknown) => void };
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
