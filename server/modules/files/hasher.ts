/**
 * An upload's file built and hashed while its chunks come in, so that the merge has (almost)
 * nothing left to do.
 *
 * Each chunk this process stores is announced (its path and offset; no bytes) to a worker thread,
 * which takes the chunks of an upload in order as they arrive (a chunk that comes early waits for
 * the ones before it): it reads the chunk file back (from the page cache: it was just written),
 * adds those very bytes to the MD5 and writes them at their offset into a temporary file of its
 * own in the upload's chunk folder (`a.<random>.part`), sending that file to disk in 32 MB steps.
 * This runs beside the request handling, on the other core. At the merge the service takes the
 * result: the MD5 and the temporary file, which holds exactly the bytes the MD5 was computed over;
 * the merge checks its length, writes it to disk and renames it into place (after the MD5 and
 * content checks). Whenever this process did not see every chunk in a usable way — several API
 * processes, a restart, a chunk sent again, chunks far out of order, a read or write error — there
 * is no result and the merge reads, hashes and writes the chunks itself, as it always could. So
 * the state is a hint that another process's change to the data can only make unused, never
 * wrong; the temporary file goes with the chunk folder (merge, cancel, purge) when it is not used.
 *
 * Bounded: at most MAX_UPLOADS uploads (one open file each) and MAX_WAITING early chunks per
 * upload (beyond that the upload is given up here), uploads idle for IDLE_MS forgotten; the
 * worker holds one chunk's bytes.
 */
import { Worker } from 'node:worker_threads';

export interface UploadDigest {
  md5: string;
  /** the temporary file holding every chunk in order (the bytes the MD5 was computed over) */
  assembled: string;
  /** its length */
  size: number;
}

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const MAX_UPLOADS = 64, MAX_WAITING = 64, IDLE_MS = 15 * 60 * 1000, SYNC_EVERY = 32 * 1024 * 1024;
const uploads = new Map();
let buf = Buffer.allocUnsafe(1024 * 1024);

/** closes the upload's file (once its data sync is done) and removes it unless it was handed over */
function drop(u) {
  u.hash = null;
  u.waiting.clear();
  const out = u.out;
  u.out = null;
  if (!out) return;
  (out.syncing || Promise.resolve()).then(() => {
    try { fs.closeSync(out.fd); } catch {}
    try { fs.rmSync(out.path, { force: true }); } catch {}
  });
}
function forget(key) {
  const u = uploads.get(key);
  if (!u) return;
  uploads.delete(key);
  drop(u);
}
/** takes chunk m into the MD5 and the file; false: gone, unreadable or not writable */
function consume(u, m) {
  let fd;
  try {
    fd = fs.openSync(m.path, 'r');
    const size = Number(fs.fstatSync(fd).size);
    if (buf.length < size) buf = Buffer.allocUnsafe(size);
    for (let n = 0; n < size; ) {
      const r = fs.readSync(fd, buf, n, size - n, n);
      if (r === 0) return false;
      n += r;
    }
    if (!u.out) {
      const file = path.join(m.key, 'a.' + crypto.randomBytes(9).toString('base64url') + '.part');
      u.out = { path: file, fd: fs.openSync(file, 'wx'), unsynced: 0, syncing: null };
    }
    for (let n = 0; n < size; ) n += fs.writeSync(u.out.fd, buf, n, size - n, m.offset + n);
    u.hash.update(buf.subarray(0, size));
    u.size = Math.max(u.size, m.offset + size);
    u.next++;
    const out = u.out;
    out.unsynced += size;
    if (out.unsynced >= SYNC_EVERY && !out.syncing) {
      // to disk as it goes (on a libuv thread): the merge's final sync has little left
      out.unsynced = 0;
      out.syncing = new Promise((done) => fs.fdatasync(out.fd, () => done())).then(() => { out.syncing = null; });
    }
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
    if (uploads.size >= MAX_UPLOADS) forget(uploads.keys().next().value);
    u = { next: 0, size: 0, hash: crypto.createHash('md5'), waiting: new Map(), out: null, seen: 0 };
    uploads.set(m.key, u);
  }
  u.seen = Date.now();
  if (!u.hash) return;
  // sent again (its bytes may differ from those taken), or too far ahead: given up here
  if (m.idx < u.next || u.waiting.has(m.idx)) return drop(u);
  if (m.idx > u.next) {
    if (u.waiting.size >= MAX_WAITING) return drop(u);
    u.waiting.set(m.idx, m);
    return;
  }
  if (!consume(u, m)) return drop(u);
  for (let w; (w = u.waiting.get(u.next)); ) {
    u.waiting.delete(u.next);
    if (!consume(u, w)) return drop(u);
  }
}
parentPort.on('message', (m) => {
  if (m.t === 'chunk') onChunk(m);
  else if (m.t === 'take') {
    const u = uploads.get(m.key);
    uploads.delete(m.key);
    if (!(u && u.hash && u.out && u.next === m.count && u.waiting.size === 0)) {
      if (u) drop(u);
      parentPort.postMessage({ id: m.id, digest: null });
      return;
    }
    const out = u.out;
    const md5 = u.hash.digest('hex');
    (out.syncing || Promise.resolve()).then(() => {
      fs.closeSync(out.fd);
      parentPort.postMessage({ id: m.id, digest: { md5, assembled: out.path, size: u.size } });
    });
  } else if (m.t === 'forget') forget(m.key);
});
setInterval(() => {
  const old = Date.now() - IDLE_MS;
  for (const [key, u] of uploads) if (u.seen < old) forget(key);
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
      // the hint is lost, nothing else: every merge reads and hashes the chunks from now on
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
   * Chunk `idx` of the upload whose chunk folder is `key` was stored (complete, renamed into place)
   * at `file`; its bytes belong at `offset` of the file.
   */
  add(key: string, idx: number, offset: number, file: string) {
    this.get()?.postMessage({ t: 'chunk', key, idx, offset, path: file });
  }

  /**
   * The MD5 and the built file of all `count` chunks of `key`, if this process took them all
   * (handed over: the caller renames or removes the file); else null.
   */
  take(key: string, count: number, timeoutMs = 30_000): Promise<UploadDigest | null> {
    const w = this.get();
    if (!w) return Promise.resolve(null);
    const id = ++this.seq;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        // too late to use (the file stays in the chunk folder, removed with it)
        this.asked.set(id, () => undefined);
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

  /** The upload's chunks are gone (cancel, refusal, purge): its state and file too. */
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
