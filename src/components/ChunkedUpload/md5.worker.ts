/**
 * MD5 of a file in a Web Worker (hash-wasm, WebAssembly): read in slices of SLICE bytes, one at a
 * time, so the whole file is never in memory. Messages: in { file: Blob }, out { progress } … { md5 }
 * or { error }.
 */
import { createMD5 } from 'hash-wasm';

export const SLICE = 4 * 1024 * 1024;

export async function md5OfBlob(file: Blob, onProgress: (fraction: number) => void = () => {}): Promise<string> {
  const h = await createMD5();
  h.init();
  let last = 0;
  for (let at = 0; at < file.size; at += SLICE) {
    const buf = new Uint8Array(await file.slice(at, Math.min(file.size, at + SLICE)).arrayBuffer());
    h.update(buf);
    const now = performance.now();
    if (now - last > 100) {
      last = now;
      onProgress(Math.min(1, (at + buf.length) / file.size));
    }
  }
  onProgress(1);
  return h.digest('hex');
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
