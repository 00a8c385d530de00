/**
 * The MD5 of an upload computed while its chunks come in, so that the merge only copies.
 *
 * Each chunk this process stores is announced (its path; no bytes) to a worker thread, which
 * hashes the chunks of an upload in order as they arrive (a chunk that comes early waits for the
 * ones before it), reading each chunk file back (from the page cache: it was just written) and
 * remembering which file it read: its inode, size and modification time. This runs beside the
 * request handling, on the other core. At the merge the service takes the digest; it is used only
 * if it covers every chunk and the merge then finds each chunk file it opens to be exactly the file
 * that was hashed (the same inode, size and mtime: chunk files are only ever replaced by a rename,
 * never written in place). Otherwise, and whenever this process did not see all the chunks
 * (several API processes, a restart, a chunk sent again, chunks far out of order), the merge
 * hashes what it reads, as it always could. So the state is a hint that another process's change
 * to the data can only make unused, never wrong.
 *
 * Bounded: at most MAX_UPLOADS uploads and MAX_WAITING early chunks per upload (beyond that the
 * upload is given up here), uploads idle for IDLE_MS forgotten; the worker holds one chunk's bytes.
 */
import { Worker } from 'node:worker_threads';

/** what identifies a chunk file: inode, size, mtime (ns) — the worker below writes the same */
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
const fs = require('node:fs');
const MAX_UPLOADS = 256, MAX_WAITING = 64, IDLE_MS = 15 * 60 * 1000;
const uploads = new Map();
let buf = Buffer.allocUnsafe(1024 * 1024);
function giveUp(u) {
  u.waiting.clear();
  u.hash = null;
}
/** hashes chunk m.idx as its file is now; false: gone or unreadable */
function consume(u, m) {
  let fd;
  try {
    fd = fs.openSync(m.path, 'r');
    const st = fs.fstatSync(fd, { bigint: true });
    const size = Number(st.size);
    if (buf.length < size) buf = Buffer.allocUnsafe(size);
    for (let n = 0; n < size; ) {
      const r = fs.readSync(fd, buf, n, size - n, n);
      if (r === 0) return false;
      n += r;
    }
    u.hash.update(buf.subarray(0, size));
    u.files[m.idx] = st.ino + ':' + st.size + ':' + st.mtimeNs;
    u.next++;
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
function onChunk(m) {
  let u = uploads.get(m.key);
  if (!u) {
    if (uploads.size >= MAX_UPLOADS) uploads.delete(uploads.keys().next().value);
    u = { next: 0, hash: crypto.createHash('md5'), files: [], waiting: new Map(), seen: 0 };
    uploads.set(m.key, u);
  }
  u.seen = Date.now();
  if (!u.hash) return;
  // sent again (the file hashed for it may be gone), or too far ahead: given up here
  if (m.idx < u.next || u.waiting.has(m.idx)) return giveUp(u);
  if (m.idx > u.next) {
    if (u.waiting.size >= MAX_WAITING) return giveUp(u);
    u.waiting.set(m.idx, m);
    return;
  }
  if (!consume(u, m)) return giveUp(u);
  for (let w; (w = u.waiting.get(u.next)); ) {
    u.waiting.delete(u.next);
    if (!consume(u, w)) return giveUp(u);
  }
}
parentPort.on('message', (m) => {
  if (m.t === 'chunk') onChunk(m);
  else if (m.t === 'take') {
    const u = uploads.get(m.key);
    uploads.delete(m.key);
    const whole = u && u.hash && u.next === m.count && u.waiting.size === 0;
    parentPort.postMessage({ id: m.id, digest: whole ? { md5: u.hash.digest('hex'), files: u.files } : null });
  } else if (m.t === 'forget') uploads.delete(m.key);
});
setInterval(() => {
  const old = Date.now() - IDLE_MS;
  for (const [key, u] of uploads) if (u.seen < old) uploads.delete(key);
}, 60 * 1000).unref();
`;

export class ChunkHasher {
  private worker: Worker | null = null;
  private broken = false;
  private seq = 0;
  private readonly asked = new Map<number, (d: UploadDigest | null) => void>();

  private get(): Worker | null {
    if (this.broken) return null;
    if (!this.worker) {
      const w = new Worker(WORKER_SOURCE, { eval: true });
      w.unref();
      w.on('message', (m: { id: number; digest: UploadDigest | null }) => {
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

  /** Chunk `idx` of the upload `key` (its chunk folder) was stored at `file` (complete, renamed into place). */
  add(key: string, idx: number, file: string) {
    this.get()?.postMessage({ t: 'chunk', key, idx, path: file });
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
