/**
 * Page side of bench/upload-md5.ts (bundled by esbuild into the page): the console's MD5 worker
 * (src/components/ChunkedUpload/md5.worker.ts, bundled separately and started from a blob URL) and
 * spark-md5 in the page, over the same Blob, sliced the same way.
 */
import SparkMD5 from 'spark-md5';

/** a Blob of `mb` MB made of one random 16 MB block repeated (never one big buffer) */
export function makeBlob(mb: number): Blob {
  const block = new Uint8Array(16 * 1024 * 1024);
  for (let i = 0; i < block.length; i += 65536) crypto.getRandomValues(block.subarray(i, i + 65536));
  const parts: Uint8Array[] = [];
  for (let left = mb; left > 0; left -= 16) parts.push(left >= 16 ? block : block.subarray(0, left * 1024 * 1024));
  return new Blob(parts as BlobPart[]);
}

let blob: Blob | null = null;
export function prepare(mb: number) {
  blob = makeBlob(mb);
  return blob.size;
}

/** ms of one MD5 by the worker whose source is `workerSource` */
export async function worker(workerSource: string): Promise<{ ms: number; md5: string }> {
  const url = URL.createObjectURL(new Blob([workerSource], { type: 'text/javascript' }));
  const w = new Worker(url);
  const t0 = performance.now();
  const md5 = await new Promise<string>((resolve, reject) => {
    w.onmessage = (e) => {
      if (e.data.md5) resolve(e.data.md5);
      else if (e.data.error) reject(new Error(e.data.error));
    };
    w.postMessage({ file: blob });
  });
  const ms = performance.now() - t0;
  w.terminate();
  URL.revokeObjectURL(url);
  return { ms, md5 };
}

/** ms of one MD5 by spark-md5 (incremental, 4 MB slices, in the page) */
export async function spark(): Promise<{ ms: number; md5: string }> {
  const b = blob!;
  const t0 = performance.now();
  const h = new SparkMD5.ArrayBuffer();
  const SLICE = 4 * 1024 * 1024;
  for (let at = 0; at < b.size; at += SLICE) h.append(await b.slice(at, Math.min(b.size, at + SLICE)).arrayBuffer());
  const md5 = h.end();
  return { ms: performance.now() - t0, md5 };
}
