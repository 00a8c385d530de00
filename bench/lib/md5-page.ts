/**
 * Page side of bench/upload-md5.ts (bundled by esbuild into the page): the console's MD5 worker
 * (src/components/ChunkedUpload/md5.worker.ts, bundled separately and started from a blob URL),
 * spark-md5 in the page, and the ways of reading tried for it (md5-strategies.worker.ts), over
 * the same File (picked in an <input type=file>, as a user does) or an in-memory Blob.
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

const sources: { file?: Blob; blob?: Blob } = {};
export type Source = keyof typeof sources;

/** the in-memory Blob, made once */
export function prepare(mb: number) {
  sources.blob = makeBlob(mb);
  return sources.blob.size;
}

/** the File of the page's <input type=file> (set by the benchmark with setInputFiles) */
export function pick() {
  sources.file = (document.querySelector('input[type=file]') as HTMLInputElement).files![0];
  return sources.file.size;
}

let current: { worker: Worker; url: string } | null = null;

/**
 * posts `message` plus the source to a new worker made of `workerSource`; its answer with an md5
 * (or an error) ends the timing. The worker is left running until end(), so that the benchmark
 * can read its thread's CPU time.
 */
async function inWorker<T>(
  workerSource: string,
  message: object,
  source: Source,
  onOther: (data: any) => void = () => {},
): Promise<{ ms: number; answer: T }> {
  end();
  const url = URL.createObjectURL(new Blob([workerSource], { type: 'text/javascript' }));
  const w = new Worker(url);
  current = { worker: w, url };
  const t0 = performance.now();
  const answer = await new Promise<T>((resolve, reject) => {
    w.onmessage = (e) => {
      if (e.data.error) reject(new Error(e.data.error));
      else if (e.data.md5 !== undefined) resolve(e.data);
      else onOther(e.data);
    };
    w.onerror = (e) => reject(new Error(e.message));
    w.postMessage({ ...message, file: sources[source] });
  });
  return { ms: performance.now() - t0, answer };
}

/** ends the last worker */
export function end() {
  current?.worker.terminate();
  if (current) URL.revokeObjectURL(current.url);
  current = null;
}

/** one MD5 by the console's worker as hasher.ts uses it (new Worker, { file }, { progress } …, { md5 }); ms from the start */
export async function worker(
  workerSource: string,
  source: Source,
): Promise<{ ms: number; md5: string; progress: number[] }> {
  const progress: number[] = [];
  const { ms, answer } = await inWorker<{ md5: string }>(workerSource, {}, source, (d) => progress.push(d.progress));
  return { ms, md5: answer.md5, progress };
}

/** one way of reading and hashing (see md5-strategies.worker.ts); ms inside the worker, and from the start */
export async function strategy(workerSource: string, mode: string, slice: number, hash: number, source: Source) {
  const { ms, answer } = await inWorker<{ ms: number; md5: string; info: unknown }>(
    workerSource,
    { mode, slice, hash },
    source,
  );
  return { total: ms, ...answer };
}

/** one MD5 by spark-md5 (incremental, 4 MB slices, in the page) */
export async function spark(source: Source): Promise<{ ms: number; md5: string }> {
  const b = sources[source]!;
  const t0 = performance.now();
  const h = new SparkMD5.ArrayBuffer();
  const SLICE = 4 * 1024 * 1024;
  for (let at = 0; at < b.size; at += SLICE) h.append(await b.slice(at, Math.min(b.size, at + SLICE)).arrayBuffer());
  const md5 = h.end();
  return { ms: performance.now() - t0, md5 };
}
