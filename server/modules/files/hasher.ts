/**
 * The MD5 of an upload computed while its chunks come in, so that the merge only copies.
 *
 * Each chunk this process stores is handed (its bytes, moved without a copy) to a worker thread,
 * which hashes the chunks of an upload in order as they arrive (a chunk that comes early waits
 * for the ones before it) and remembers which file each hashed chunk became: its inode, size and
 * modification time. This runs beside the request handling, on the other core. At the merge the
 * service takes the digest; it is used only if it covers every chunk and the merge then finds each
 * chunk file it opens to be exactly the file that was hashed (the same inode, size and mtime:
 * chunk files are only ever replaced by a rename, never written in place). Otherwise, and whenever
 * this process did not see all the chunks (several API processes, a restart, a chunk sent again,
 * chunks far out of order), the merge hashes what it reads, as it always could. So the state is a
 * hint that another process's change to the data can only make unused, never wrong.
 *
 * Bounded: at most 64 MB handed over and not hashed yet (beyond that a chunk's upload is given up
 * here), at most MAX_UPLOADS uploads and MAX_WAITING_BYTES of early chunks held in the worker (the
 * same), uploads idle for IDLE_MS forgotten.
 */
import { Worker } from 'node:worker_threads';

/** what identifies a chunk file: inode, size, mtime (ns), as strings */
export type ChunkFileId = string;

export const chunkFileId = (st: { ino: bigint; size: bigint; mtimeNs: bigint }): ChunkFileId => `${st.ino}:${st.size}:${st.mtimeNs}`;

export interface UploadDigest {
  md5: string;
  /** the file each chunk was hashed from (index = chunk) */
  files: ChunkFileId[];
}

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const crypto = require('node:crypto');
const MAX_UPLOADS = 256, MAX_WAITING_BYTES = 64 * 1024 * 1024, IDLE_MS = 15 * 60 * 1000;
const uploads = new Map();
let waitingBytes = 0;
function forget(key) {
  const u = uploads.get(key);
  if (!u) return;
  for (const w of u.waiting.values()) waitingBytes -= w.length;
  uploads.delete(key);
}
function giveUp(u) {
  for (const w of u.waiting.values()) waitingBytes -= w.length;
  u.waiting.clear();
  u.hash = null;
}
function consume(u, m) {
  u.hash.update(new Uint8Array(m.buf, m.offset, m.length));
  u.files[m.idx] = m.file;
  u.next++;
}
function onChunk(m) {
  let u = uploads.get(m.key);
  if (!u) {
    if (uploads.size >= MAX_UPLOADS) forget(uploads.keys().next().value);
    u = { next: 0, hash: crypto.createHash('md5'), files: [], waiting: new Map(), seen: 0 };
    uploads.set(m.key, u);
  }
  u.seen = Date.now();
  if (!u.hash) return;
  if (m.t === 'gap') return giveUp(u);
  if (m.idx < u.next || u.waiting.has(m.idx)) {
    // sent again: the file hashed for it is gone, this upload cannot be trusted here any more
    giveUp(u);
    return;
  }
  if (m.idx > u.next) {
    if (waitingBytes + m.length > MAX_WAITING_BYTES) return giveUp(u);
    waitingBytes += m.length;
    u.waiting.set(m.idx, m);
    return;
  }
  consume(u, m);
  for (let w; (w = u.waiting.get(u.next)); ) {
    u.waiting.delete(u.next);
    waitingBytes -= w.length;
    consume(u, w);
  }
}
parentPort.on('message', (m) => {
  if (m.t === 'chunk' || m.t === 'gap') {
    onChunk(m);
    // what the main thread may count off its backlog
    if (m.t === 'chunk') parentPort.postMessage({ done: m.length });
  } else if (m.t === 'take') {
    const u = uploads.get(m.key);
    forget(m.key);
    const whole = u && u.hash && u.next === m.count && u.waiting.size === 0;
    parentPort.postMessage({ id: m.id, digest: whole ? { md5: u.hash.digest('hex'), files: u.files } : null });
  } else if (m.t === 'forget') {
    forget(m.key);
  }
});
setInterval(() => {
  const old = Date.now() - IDLE_MS;
  for (const [key, u] of uploads) if (u.seen < old) forget(key);
}, 60 * 1000).unref();
`;

/** bytes handed to the worker and not hashed yet: beyond this a chunk is not handed over (its upload is hashed at the merge) */
const MAX_BACKLOG_BYTES = 64 * 1024 * 1024;

export class ChunkHasher {
  private worker: Worker | null = null;
  private broken = false;
  private seq = 0;
  private backlog = 0;
  private readonly asked = new Map<number, (d: UploadDigest | null) => void>();

  private get(): Worker | null {
    if (this.broken) return null;
    if (!this.worker) {
      const w = new Worker(WORKER_SOURCE, { eval: true });
      w.unref();
      w.on('message', (m: { done: number } | { id: number; digest: UploadDigest | null }) => {
        if ('done' in m) {
          this.backlog -= m.done;
          return;
        }
        this.asked.get(m.id)?.(m.digest);
        this.asked.delete(m.id);
      });
      // the hint is lost, nothing else: every merge hashes what it reads from now on
      const fail = () => {
        this.broken = true;
        this.worker = null;
        for (const answer of this.asked.values()) answer(null);
        this.asked.clear();
      };
      w.on('error', fail);
      w.on('exit', fail);
      this.worker = w;
    }
    return this.worker;
  }

  /**
   * Chunk `idx` of the upload `key` (its chunk folder) was stored as the file `file`, with the
   * bytes `bytes`. The bytes are moved to the worker when they are the whole of their memory
   * (then `bytes` is unusable afterwards), else copied.
   */
  add(key: string, idx: number, bytes: Buffer, file: ChunkFileId) {
    const w = this.get();
    if (!w) return;
    if (this.backlog + bytes.length > MAX_BACKLOG_BYTES) {
      // the worker is behind (a busy machine): this upload is given up here, not queued without bound
      w.postMessage({ t: 'gap', key, idx });
      return;
    }
    this.backlog += bytes.length;
    const own = bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length && bytes.buffer instanceof ArrayBuffer;
    const buf = own ? (bytes.buffer as ArrayBuffer) : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
    w.postMessage({ t: 'chunk', key, idx, buf, offset: 0, length: bytes.length, file }, [buf as ArrayBuffer]);
  }

  /** The digest of all `count` chunks of `key`, if this process hashed them all (then forgotten here); else null. */
  take(key: string, count: number, timeoutMs = 10_000): Promise<UploadDigest | null> {
    const w = this.get();
    if (!w) return Promise.resolve(null);
    const id = ++this.seq;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.asked.delete(id);
        resolve(null);
      }, timeoutMs);
      timer.unref();
      this.asked.set(id, (d) => {
        clearTimeout(timer);
        resolve(d);
      });
      w.postMessage({ t: 'take', id, key, count });
    });
  }

  /** The upload's chunks are gone (cancel, refusal, purge): its state too. */
  forget(key: string) {
    this.worker?.postMessage({ t: 'forget', key });
  }

  async close() {
    const w = this.worker;
    this.broken = true;
    this.worker = null;
    for (const answer of this.asked.values()) answer(null);
    this.asked.clear();
    await w?.terminate();
  }
}
