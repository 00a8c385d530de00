/**
 * The file service of large uploads (spec 02 §7 "File service"; contract: docs/api-files.md).
 *
 * An upload is identified by its owner, its MD5 and its size. The console asks `check` first: a
 * file the owner already has complete (100 %) is answered at once with its `importFilePath`, and
 * nothing is sent again; otherwise the answer lists the chunks already stored (a reload of the
 * page resumes from them). Chunks of 1 MB are posted one by one (`application/octet-stream`), each
 * read (bounded by its expected length) and written to a temporary file in the upload's chunk
 * folder, then renamed into place: a chunk file under its index name is always a complete chunk,
 * and the chunk files ARE the record of what is stored (no row per chunk: a chunk costs the
 * session check and no statement of its own). A worker thread (hasher.ts) reads each stored chunk
 * back and, in order, adds it to the upload's MD5 and writes it into a temporary file, so that
 * `merge` has that file and its MD5 at hand (else it streams the chunks in order into a temporary
 * file while hashing them); it refuses a wrong MD5, checks the content against the name's type (a
 * binary renamed .txt, a non-zip renamed .xlsx), writes the file to disk (fdatasync), renames it
 * into place and only then records its `importFilePath`: nothing half-written is ever used.
 * Chunks are not synced: the MD5 covers the bytes read back from them.
 *
 * Everything is per owner: another account finds no row of someone else's (it cannot read,
 * merge, delete or reuse them, even knowing the MD5), and a chunk is only ever written under the
 * session account's own folder. State lives in the database (`file_uploads`) and in files under
 * `DATA_DIR/uploads/<account id>/` (chunks in `c<md5>-<size>/`, made by `check`), so several API
 * processes sharing the database and DATA_DIR can serve one upload (a merge is claimed by a row
 * update with a lease, never an in-memory lock). `purgeStale` (run by the server every hour)
 * removes unfinished uploads nobody touched for `UPLOAD_STALE_HOURS`.
 *
 * Other modules open an uploaded file with `resolveUpload(ctx, account, importFilePath)`.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { ApiError } from '../../http/errors';
import { randomToken } from '../../lib/crypto';
import { MESSAGES } from '../../../common/schema/messages';
import { ChunkHasher, type UploadDigest } from './hasher';
import {
  assertDiskRoom,
  assertPendingRoom,
  assertQuota,
  STORAGE_MESSAGES,
  taskNeedsFile,
  WORK_PATH,
  workDirOf,
} from './storage';
import { FileUploadState, type FileParseParams } from '../../../common/generated/schemas';

/** 1 MB chunks (spec 02 §9) */
export const CHUNK_SIZE = 1024 * 1024;
/** the largest file of any page (variable SMS: 300M; international: 250M, checked by its module) */
export const FILE_MAX_BYTES = 300 * 1024 * 1024;
export const FILE_KINDS = ['txt', 'csv', 'xlsx'] as const;
export type FileKind = (typeof FILE_KINDS)[number];
/** longest file name the service keeps (pages have their own, shorter limits) */
export const FILE_NAME_MAX = 100;
/** a merge that has not finished after this long is taken over by the next merge call */
const MERGE_LEASE_MS = 10 * 60_000;
/** the bytes looked at to tell the content's type */
const SNIFF_BYTES = 4100;

export const FILE_MESSAGES = {
  notFound: MESSAGES.uploadNotFound,
  md5Mismatch: MESSAGES.uploadMd5Mismatch,
  tooLarge: MESSAGES.uploadTooLarge,
  badName: MESSAGES.uploadBadName,
  badContent: MESSAGES.uploadBadContent,
  incomplete: MESSAGES.uploadIncomplete,
  busy: MESSAGES.uploadBusy,
  badType: '请上传txt,csv,xlxs格式文件',
  badChunk: '分片不正确',
} as const;

/** an importFilePath: a random token and the type's extension (nothing else, no folders) */
export const IMPORT_FILE_PATH = /^([A-Za-z0-9_-]{24})\.(txt|csv|xlsx)$/;
const MD5_HEX = /^[0-9a-fA-F]{32}$/;
// separators, reserved and control characters of any file system
// eslint-disable-next-line no-control-regex
const BAD_NAME_CHARS = /[/\\:*?"<>|\u0000-\u001F\u007F]/;

export function fileKindOf(fileName: string): FileKind | null {
  const m = /\.(txt|csv|xlsx)$/i.exec(fileName);
  return m ? (m[1].toLowerCase() as FileKind) : null;
}

/** A plain file name: no folders, no `..`, no reserved or control characters, not hidden. */
export function fileNameError(name: string): string | null {
  if (
    !name ||
    name.length > FILE_NAME_MAX ||
    BAD_NAME_CHARS.test(name) ||
    name.startsWith('.') ||
    name.includes('..') ||
    name.trim() !== name
  )
    return FILE_MESSAGES.badName;
  if (!fileKindOf(name)) return FILE_MESSAGES.badType;
  return null;
}

export interface UploadKey {
  fileMd5: string;
  fileSize: number;
}

export interface UploadStatus {
  /** true: the file is complete and verified; `importFilePath` is set and nothing needs sending */
  uploaded: boolean;
  importFilePath: string | null;
  fileName: string;
  fileMd5: string;
  fileSize: number;
  chunkSize: number;
  chunks: number;
  /** indexes (0-based) of the chunks stored */
  uploadedChunks: number[];
  /** 0-100 */
  progress: number;
}

export interface MergedFile {
  importFilePath: string;
  fileName: string;
  fileMd5: string;
  size: number;
}

/** What `resolveUpload` hands to other modules: a complete, verified file of the caller. */
export interface ResolvedUpload {
  /** absolute path on disk: read it as a stream */
  path: string;
  fileName: string;
  size: number;
  md5: string;
  kind: FileKind;
  importFilePath: string;
}

const uploadsRoot = (ctx: Pick<AppContext, 'dataDir'>) => path.join(ctx.dataDir, 'uploads');
const ownerDir = (ctx: Pick<AppContext, 'dataDir'>, accountId: number) =>
  path.join(uploadsRoot(ctx), String(accountId));
/** the chunk folder of an upload: named by its key (md5 = 32 lower-case hex, size digits), so a chunk needs no row lookup */
const chunkDir = (ctx: Pick<AppContext, 'dataDir'>, accountId: number, k: UploadKey) =>
  path.join(ownerDir(ctx, accountId), `c${k.fileMd5}-${k.fileSize}`);
/** a chunk folder's name → its key */
const CHUNK_DIR = /^c([0-9a-f]{32})-([0-9]{1,12})$/;
/** a chunk file: its index */
const CHUNK_FILE = /^(0|[1-9][0-9]{0,5})$/;

const chunkCount = (fileSize: number) => Math.ceil(fileSize / CHUNK_SIZE);
const chunkLength = (fileSize: number, idx: number) =>
  idx === chunkCount(fileSize) - 1 ? fileSize - idx * CHUNK_SIZE : CHUNK_SIZE;

/** The chunk indexes stored in `dir` (complete chunks only: temporary files are named otherwise), sorted. */
async function chunksOnDisk(dir: string, count: number): Promise<number[]> {
  const names = await fs.promises.readdir(dir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [] as string[];
    throw e;
  });
  const out: number[] = [];
  for (const n of names) if (CHUNK_FILE.test(n) && Number(n) < count) out.push(Number(n));
  return out.sort((a, b) => a - b);
}

/**
 * Buffers for chunk bodies, reused: fresh memory for every chunk costs its page faults and
 * garbage collection. A buffer goes back once its chunk is written; every byte of the part used is
 * filled by the chunk first (a chunk is only accepted whole), so nothing of an earlier one shows.
 */
const bodyBuffers: Buffer[] = [];
const BODY_BUFFERS_KEPT = 16;
const takeBodyBuffer = () => bodyBuffers.pop() ?? Buffer.allocUnsafeSlow(CHUNK_SIZE);
const giveBodyBuffer = (b: Buffer) => void (bodyBuffers.length < BODY_BUFFERS_KEPT && bodyBuffers.push(b));

/** Reads exactly `expected` bytes of the request stream into `buf`; more, less, or a client gone refuse (分片不正确). */
function readChunkBody(body: Readable, expected: number, buf: Buffer): Promise<Buffer> {
  // a chunk is at most CHUNK_SIZE (1 MB): held whole, as a JSON body of that size would be, and written with one call
  let n = 0;
  return new Promise((resolve, reject) => {
    const finish = (ok: boolean) => {
      body.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onClose);
      if (ok) resolve(buf.subarray(0, expected));
      else reject(new ApiError(400, FILE_MESSAGES.badChunk));
    };
    const onData = (piece: Buffer) => {
      if (n + piece.length > expected) {
        // the rest is left unread (Node discards it once the refusal is sent)
        body.pause();
        return finish(false);
      }
      piece.copy(buf, n);
      n += piece.length;
    };
    const onEnd = () => finish(n === expected);
    const onGone = () => finish(false);
    // the client went away in the middle of the chunk
    const onClose = () => body.readableEnded || finish(false);
    body.on('data', onData).on('end', onEnd).on('error', onGone).on('close', onClose);
  });
}

/** unfinished uploads looked at per purge statement */
const PURGE_BATCH = 500;
/** the merge starts writing its file out every this many bytes, so the final fdatasync has little left to do */
const MERGE_SYNC_EVERY = 32 * CHUNK_SIZE;
/** chunks the merge reads ahead */
const MERGE_AHEAD = 3;

/** a chunk file the merge found missing or of the wrong length */
class BadChunkFile extends Error {
  constructor(readonly idx: number) {
    super(`chunk ${idx} missing or of the wrong length`);
  }
}

/** Reads a whole chunk file into `buf` (one byte more than a chunk holds, so a longer file shows): its length. */
async function readChunkFile(file: string, buf: Buffer): Promise<number> {
  const fh = await fs.promises.open(file, 'r');
  try {
    let n = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, n, buf.length - n, n);
      if (bytesRead === 0 || (n += bytesRead) === buf.length) return n;
    }
  } finally {
    await fh.close();
  }
}

/** Writes `n` bytes of `buf` at `position`. */
async function writeAt(fh: fs.promises.FileHandle, buf: Buffer, n: number, position: number) {
  for (let done = 0; done < n;) done += (await fh.write(buf, done, n - done, position + done)).bytesWritten;
}

/** Swallows a promise's rejection for the time it is not awaited (it is awaited later, or dropped on an earlier error). */
function quiet<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

/**
 * The merge when the chunks were not taken in as they came (ChunkHasher): chunks 0..n-1 of `dir`
 * into the new file `tmp`, MD5 over the bytes as written, on disk (fdatasync) before it returns.
 * Pipelined: the next chunks are read and the previous ones written (libuv threads) while this one
 * is hashed (the event loop), five 1 MB buffers in turn; the data is sent to disk in 32 MB steps as
 * it goes. A missing chunk or one of the wrong length throws BadChunkFile.
 */
async function concatChunks(dir: string, fileSize: number, tmp: string): Promise<{ md5: string; head: Buffer }> {
  const count = chunkCount(fileSize);
  const hash = crypto.createHash('md5');
  // MERGE_AHEAD chunks being read, this one hashed, the two before it possibly still being written
  const bufs = Array.from({ length: MERGE_AHEAD + 2 }, () => Buffer.allocUnsafe(CHUNK_SIZE + 1));
  const bufOf = (i: number) => bufs[i % bufs.length];
  const read = (i: number) =>
    quiet(
      readChunkFile(path.join(dir, String(i)), bufOf(i)).catch((e: NodeJS.ErrnoException) => {
        if (e.code === 'ENOENT') throw new BadChunkFile(i);
        throw e;
      }),
    );
  const out = await fs.promises.open(tmp, 'wx');
  let head = Buffer.alloc(0);
  try {
    const reads: Promise<number>[] = [];
    const writes: Promise<void>[] = [];
    for (let i = 0; i < Math.min(MERGE_AHEAD, count); i++) reads[i] = read(i);
    let syncing: Promise<void> | null = null;
    let unsynced = 0;
    for (let i = 0; i < count; i++) {
      const n = await reads[i];
      if (n !== chunkLength(fileSize, i)) throw new BadChunkFile(i);
      const buf = bufOf(i);
      hash.update(buf.subarray(0, n));
      if (i === 0) head = Buffer.from(buf.subarray(0, Math.min(n, SNIFF_BYTES)));
      // the buffer of chunk i - 2 takes chunk i + MERGE_AHEAD once it is written
      if (i >= 2) await writes[i - 2];
      if (i + MERGE_AHEAD < count) reads[i + MERGE_AHEAD] = read(i + MERGE_AHEAD);
      writes[i] = quiet(writeAt(out, buf, n, i * CHUNK_SIZE));
      unsynced += n;
      if (unsynced >= MERGE_SYNC_EVERY && !syncing) {
        unsynced = 0;
        syncing = quiet(writes[i].then(() => out.datasync()).finally(() => (syncing = null)));
      }
    }
    await Promise.all(writes);
    await syncing;
    await out.datasync();
  } finally {
    await out.close();
  }
  return { md5: hash.digest('hex'), head };
}

/**
 * The merge when the worker took every chunk in as it came (ChunkHasher): its file holds exactly
 * the bytes its MD5 was computed over; checked for length, written to disk (fdatasync, most of it
 * done already) and its first bytes read for the content check. null (file removed): not usable.
 */
async function adoptAssembled(
  d: UploadDigest,
  fileSize: number,
): Promise<{ md5: string; head: Buffer; file: string } | null> {
  let fh: fs.promises.FileHandle | undefined;
  try {
    fh = await fs.promises.open(d.assembled, 'r+');
    if ((await fh.stat()).size !== fileSize || d.size !== fileSize)
      throw new Error('assembled file of the wrong length');
    const head = Buffer.alloc(Math.min(fileSize, SNIFF_BYTES));
    await fh.read(head, 0, head.length, 0);
    await fh.datasync();
    return { md5: d.md5, head, file: d.assembled };
  } catch {
    await fs.promises.rm(d.assembled, { force: true });
    return null;
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

/** Makes a rename in `dir` durable (where the platform can open a folder). */
async function syncDir(dir: string) {
  let fh: fs.promises.FileHandle | undefined;
  try {
    fh = await fs.promises.open(dir, 'r');
    await fh.sync();
  } catch {
    // not supported here (the rename itself happened)
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

/** Removes a folder and what is in it (retrying when a file appears in it meanwhile). */
const rmTree = (dir: string) => fs.promises.rm(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });

/**
 * Opens an uploaded file for another module (parse, send): it must be the caller's own, merged and
 * verified. Refuses (文件不存在，请重新上传) an unknown token, another account's file, a file still
 * being uploaded or merged, or one whose bytes are gone; `kinds` / `maxSize` narrow what a page
 * takes (文件格式 / 大小 messages of that page may be passed in `messages`).
 */
export async function resolveUpload(
  ctx: Pick<AppContext, 'db' | 'dataDir'>,
  account: Pick<Account, 'id'>,
  importFilePath: unknown,
  opts: { kinds?: readonly FileKind[]; maxSize?: number; messages?: { badType?: string; tooLarge?: string } } = {},
): Promise<ResolvedUpload> {
  const token = typeof importFilePath === 'string' ? importFilePath.trim() : '';
  const m = IMPORT_FILE_PATH.exec(token);
  if (!m) throw new ApiError(400, FILE_MESSAGES.notFound);
  const row = await ctx.db
    .selectFrom('file_uploads')
    .select(['file_name', 'file_size', 'file_md5', 'stored_name'])
    .where('stored_name', '=', token)
    .where('account_id', '=', account.id)
    .where('state', '=', FileUploadState.Done)
    .executeTakeFirst();
  if (!row) throw new ApiError(400, FILE_MESSAGES.notFound);
  const kind = m[2] as FileKind;
  if (opts.kinds && !opts.kinds.includes(kind))
    throw new ApiError(400, opts.messages?.badType ?? FILE_MESSAGES.badType);
  if (opts.maxSize !== undefined && row.file_size > opts.maxSize)
    throw new ApiError(400, opts.messages?.tooLarge ?? FILE_MESSAGES.tooLarge);
  const file = path.join(ownerDir(ctx, account.id), token);
  const st = await fs.promises.stat(file).catch(() => null);
  if (!st || st.size !== row.file_size) throw new ApiError(400, FILE_MESSAGES.notFound);
  return { path: file, fileName: row.file_name, size: row.file_size, md5: row.file_md5, kind, importFilePath: token };
}

/** Is `head` (the first bytes of a file) plausible for its name's type? */
export async function contentMatches(kind: FileKind, head: Buffer): Promise<boolean> {
  if (head.length === 0) return false;
  if (kind === 'xlsx') {
    if (head.length < 4 || head[0] !== 0x50 || head[1] !== 0x4b || head[2] !== 0x03 || head[3] !== 0x04) return false;
    const t = await fileTypeFromBuffer(head);
    return !t || t.ext === 'xlsx' || t.ext === 'zip';
  }
  // a text file: no NUL byte, and nothing a binary type's signature says
  if (head.includes(0)) return false;
  return !(await fileTypeFromBuffer(head));
}

export class FileService {
  /**
   * POST /send/parsefile with templateType 1 (a variable file): set by the variable SMS module,
   * which owns those rules; unset, such a parse answers 文件解析失败.
   */
  variableParser?: (me: Account, file: ResolvedUpload, body: FileParseParams) => Promise<unknown>;

  /** the MD5 of uploads as their chunks come in (a worker thread): a hint the merge checks before it uses it */
  private readonly hasher = new ChunkHasher();

  constructor(private readonly ctx: AppContext) {}

  /** stops the hashing worker (the server's onClose) */
  close(): Promise<void> {
    return this.hasher.close();
  }

  private key(b: { fileMd5?: unknown; fileSize?: unknown }): UploadKey {
    const md5 = typeof b.fileMd5 === 'string' ? b.fileMd5.trim() : '';
    if (!MD5_HEX.test(md5)) throw new ApiError(400, MESSAGES.badParam);
    const size = Number(b.fileSize);
    if (!Number.isSafeInteger(size) || size < 1) throw new ApiError(400, MESSAGES.badParam);
    if (size > FILE_MAX_BYTES) throw new ApiError(400, FILE_MESSAGES.tooLarge);
    return { fileMd5: md5.toLowerCase(), fileSize: size };
  }

  private async row(me: Pick<Account, 'id'>, k: UploadKey) {
    return this.ctx.db
      .selectFrom('file_uploads')
      .selectAll()
      .where('account_id', '=', me.id)
      .where('file_md5', '=', k.fileMd5)
      .where('file_size', '=', k.fileSize)
      .executeTakeFirst();
  }

  private async status(
    me: Pick<Account, 'id'>,
    row: {
      file_name: string;
      file_md5: string;
      file_size: number;
      chunk_size: number;
      chunk_count: number;
      state: number;
      stored_name: string | null;
    },
  ): Promise<UploadStatus> {
    const done = row.state === FileUploadState.Done && !!row.stored_name;
    const uploadedChunks = done
      ? []
      : await chunksOnDisk(
          chunkDir(this.ctx, me.id, { fileMd5: row.file_md5, fileSize: row.file_size }),
          row.chunk_count,
        );
    return {
      uploaded: done,
      importFilePath: done ? row.stored_name : null,
      fileName: row.file_name,
      fileMd5: row.file_md5,
      fileSize: row.file_size,
      chunkSize: row.chunk_size,
      chunks: row.chunk_count,
      uploadedChunks,
      progress: done ? 100 : Math.floor((uploadedChunks.length * 100) / row.chunk_count),
    };
  }

  /** A done row whose file is gone (removed by hand) starts again. */
  private async stillThere(
    me: Pick<Account, 'id'>,
    row: { id: number; state: number; stored_name: string | null; file_size: number },
  ) {
    if (row.state !== FileUploadState.Done || !row.stored_name) return true;
    const st = await fs.promises.stat(path.join(ownerDir(this.ctx, me.id), row.stored_name)).catch(() => null);
    if (st && st.size === row.file_size) return true;
    await this.ctx.db
      .updateTable('file_uploads')
      .set({ state: FileUploadState.Uploading, stored_name: null, updated_at: this.ctx.now() })
      .where('id', '=', row.id)
      .execute();
    return false;
  }

  /** check: registers the upload (or finds it) and makes its chunk folder; a complete one is reused as is. */
  async check(
    me: Pick<Account, 'id' | 'clientid'>,
    b: { fileName?: unknown; fileMd5?: unknown; fileSize?: unknown },
  ): Promise<UploadStatus> {
    const fileName = typeof b.fileName === 'string' ? b.fileName.trim() : '';
    const nameError = fileNameError(fileName);
    if (nameError) throw new ApiError(400, nameError);
    const k = this.key(b);
    const now = this.ctx.now();
    const known = await this.row(me, k);
    // a new upload: the storage limits (storage.ts), counted and registered under the account's row lock
    if (!known) await assertDiskRoom(this.ctx, k.fileSize);
    const row = await this.ctx.db.transaction().execute(async (trx) => {
      if (!known) {
        await trx.selectFrom('accounts').select('id').where('id', '=', me.id).forUpdate().executeTakeFirst();
        const again = await trx
          .selectFrom('file_uploads')
          .select('id')
          .where('account_id', '=', me.id)
          .where('file_md5', '=', k.fileMd5)
          .where('file_size', '=', k.fileSize)
          .executeTakeFirst();
        if (!again) {
          await assertPendingRoom(this.ctx, trx, me.id);
          await assertQuota(this.ctx, trx, me, k.fileSize);
        }
      }
      return trx
        .insertInto('file_uploads')
        .values({
          account_id: me.id,
          file_md5: k.fileMd5,
          file_size: k.fileSize,
          file_name: fileName,
          chunk_size: CHUNK_SIZE,
          chunk_count: chunkCount(k.fileSize),
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc.columns(['account_id', 'file_md5', 'file_size']).doUpdateSet({ updated_at: now, file_name: fileName }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    const current = (await this.stillThere(me, row))
      ? row
      : { ...row, state: FileUploadState.Uploading, stored_name: null };
    if (current.state !== FileUploadState.Done)
      await fs.promises.mkdir(chunkDir(this.ctx, me.id, k), { recursive: true });
    return this.status(me, current);
  }

  /** progress: the chunks stored (nothing is created). */
  async progress(me: Pick<Account, 'id'>, b: { fileMd5?: unknown; fileSize?: unknown }): Promise<UploadStatus> {
    const row = await this.row(me, this.key(b));
    if (!row) throw new ApiError(400, FILE_MESSAGES.notFound);
    await this.ctx.db
      .updateTable('file_uploads')
      .set({ updated_at: this.ctx.now() })
      .where('id', '=', row.id)
      .execute();
    if (!(await this.stillThere(me, row)))
      return this.status(me, { ...row, state: FileUploadState.Uploading, stored_name: null });
    return this.status(me, row);
  }

  /**
   * save chunk: `body` (the request stream) is read with its bytes counted (a chunk of another
   * length, or cut short, is refused and nothing is kept), written to a temporary file in the
   * upload's chunk folder and renamed into place. The folder is the session account's own and
   * exists only for an upload its `check` registered, so the common case needs no statement; when
   * it is missing, the upload's row decides (unknown or another account's: 文件不存在; done: nothing
   * to do; dropped chunks of a live upload: the folder is made again).
   */
  async saveChunk(
    me: Pick<Account, 'id'>,
    b: { fileMd5?: unknown; fileSize?: unknown; chunk?: unknown },
    body: Readable,
    declaredLength?: number,
  ): Promise<{ chunk: number }> {
    const k = this.key(b);
    const idx = Number(b.chunk);
    if (!Number.isSafeInteger(idx) || idx < 0 || idx >= chunkCount(k.fileSize))
      throw new ApiError(400, FILE_MESSAGES.badChunk);
    // a Content-Length other than the chunk's length is refused before a byte is read
    if (declaredLength !== undefined && declaredLength !== chunkLength(k.fileSize, idx))
      throw new ApiError(400, FILE_MESSAGES.badChunk);
    await assertDiskRoom(this.ctx, chunkLength(k.fileSize, idx));
    const dir = chunkDir(this.ctx, me.id, k);
    const tmp = path.join(dir, `${idx}.${randomToken(9)}.part`);
    const create = () => fs.promises.open(tmp, 'wx');
    let out = await create().catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return null;
      throw e;
    });
    if (!out) {
      const row = await this.row(me, k);
      if (!row) throw new ApiError(400, FILE_MESSAGES.notFound);
      if (row.state === FileUploadState.Done) return { chunk: idx };
      await fs.promises.mkdir(dir, { recursive: true });
      out = await create();
    }
    const buf = takeBodyBuffer();
    try {
      await out.writeFile(await readChunkBody(body, chunkLength(k.fileSize, idx), buf));
      await out.close();
      out = null;
      const file = path.join(dir, String(idx));
      await fs.promises.rename(tmp, file);
      // taken into the file and its MD5 in order beside the requests (a worker thread reads it back), so the merge need not
      this.hasher.add(dir, idx, idx * CHUNK_SIZE, file);
    } catch (e) {
      await out?.close().catch(() => undefined);
      await fs.promises.rm(tmp, { force: true });
      if (e instanceof ApiError) throw e;
      this.ctx.log.warn({ err: e, chunk: idx }, 'chunk not saved');
      throw new ApiError(400, FILE_MESSAGES.badChunk);
    } finally {
      giveBodyBuffer(buf);
    }
    return { chunk: idx };
  }

  /**
   * merge: the file the worker built and hashed as the chunks came in, or else every chunk
   * streamed in order into one temporary file while hashing; a wrong MD5 or a content that does not
   * fit the name's type is refused (and the chunks dropped, the client
   * starts again); the verified file is written to disk, renamed into place, then recorded.
   * Idempotent: merging a done upload answers its importFilePath.
   */
  async merge(me: Pick<Account, 'id'>, b: { fileMd5?: unknown; fileSize?: unknown }): Promise<MergedFile> {
    const k = this.key(b);
    const existing = await this.row(me, k);
    if (!existing) throw new ApiError(400, FILE_MESSAGES.notFound);
    if (existing.state === FileUploadState.Done && existing.stored_name && (await this.stillThere(me, existing))) {
      return {
        importFilePath: existing.stored_name,
        fileName: existing.file_name,
        fileMd5: existing.file_md5,
        size: existing.file_size,
      };
    }
    const now = this.ctx.now();
    const claimed = await this.ctx.db
      .updateTable('file_uploads')
      .set({ state: FileUploadState.Merging, merge_started_at: now, updated_at: now })
      .where('id', '=', existing.id)
      .where((eb) =>
        eb.or([
          eb('state', '=', FileUploadState.Uploading),
          eb.and([
            eb('state', '=', FileUploadState.Merging),
            eb('merge_started_at', '<', new Date(now.getTime() - MERGE_LEASE_MS)),
          ]),
        ]),
      )
      .returningAll()
      .executeTakeFirst();
    if (!claimed) throw new ApiError(400, FILE_MESSAGES.busy);
    const release = () =>
      this.ctx.db
        .updateTable('file_uploads')
        .set({ state: FileUploadState.Uploading, merge_started_at: null, updated_at: this.ctx.now() })
        .where('id', '=', claimed.id)
        .execute();
    const dir = chunkDir(this.ctx, me.id, k);
    if ((await chunksOnDisk(dir, claimed.chunk_count)).length !== claimed.chunk_count) {
      await release();
      throw new ApiError(400, FILE_MESSAGES.incomplete);
    }
    const kind = fileKindOf(claimed.file_name) ?? 'txt';
    const stored = `${randomToken(18)}.${kind}`;
    const owner = ownerDir(this.ctx, me.id);
    const final = path.join(owner, stored);
    const tmp = `${final}.${randomToken(6)}.merging`;
    let merged: { md5: string; head: Buffer; file: string };
    try {
      // built and hashed by the worker as the chunks came in, when this process took them all; else read, hashed and written now
      const taken = await this.hasher.take(dir, claimed.chunk_count);
      merged = (taken && (await adoptAssembled(taken, claimed.file_size))) ?? {
        ...(await concatChunks(dir, claimed.file_size, tmp)),
        file: tmp,
      };
    } catch (e) {
      await fs.promises.rm(tmp, { force: true });
      await release();
      if (e instanceof BadChunkFile) {
        // a chunk file is missing or of the wrong length: it is dropped, the client sends it again
        this.ctx.log.warn({ upload: claimed.id, chunk: e.idx }, 'merge: chunk unreadable, dropped');
        await fs.promises.rm(path.join(dir, String(e.idx)), { force: true });
        throw new ApiError(400, FILE_MESSAGES.incomplete);
      }
      throw e;
    }
    const refusal =
      merged.md5 !== claimed.file_md5
        ? FILE_MESSAGES.md5Mismatch
        : !(await contentMatches(kind, merged.head))
          ? FILE_MESSAGES.badContent
          : null;
    if (refusal) {
      await fs.promises.rm(merged.file, { force: true });
      await rmTree(dir);
      this.hasher.forget(dir);
      await release();
      throw new ApiError(400, refusal);
    }
    await fs.promises.rename(merged.file, final);
    await syncDir(owner);
    await this.ctx.db
      .updateTable('file_uploads')
      .set({ state: FileUploadState.Done, stored_name: stored, merge_started_at: null, updated_at: this.ctx.now() })
      .where('id', '=', claimed.id)
      .execute();
    await rmTree(dir);
    this.ctx.log.info(
      { upload: claimed.id, size: claimed.file_size, built: merged.file === tmp ? 'at merge' : 'while uploading' },
      'upload merged',
    );
    return { importFilePath: stored, fileName: claimed.file_name, fileMd5: claimed.file_md5, size: claimed.file_size };
  }

  /**
   * delete chunks (cancel): an unfinished upload of the caller is forgotten with its chunks. A
   * complete file is kept (it may be reused or already sent); an upload being merged is refused.
   */
  async deleteChunks(
    me: Pick<Account, 'id'>,
    b: { fileMd5?: unknown; fileSize?: unknown },
  ): Promise<{ deleted: boolean }> {
    const k = this.key(b);
    const row = await this.row(me, k);
    if (!row) throw new ApiError(400, FILE_MESSAGES.notFound);
    if (row.state === FileUploadState.Done) return { deleted: false };
    const gone = await this.ctx.db
      .deleteFrom('file_uploads')
      .where('id', '=', row.id)
      .where('state', '=', FileUploadState.Uploading)
      .returning('id')
      .executeTakeFirst();
    if (!gone) throw new ApiError(400, FILE_MESSAGES.busy);
    const dir = chunkDir(this.ctx, me.id, k);
    await rmTree(dir);
    this.hasher.forget(dir);
    return { deleted: true };
  }

  /**
   * POST /file/delete: the caller's own file goes — a complete upload (its importFilePath: row and
   * bytes; an unfinished one goes with POST /file/deleteChunks) or a working file of the variable / international
   * pages (`varintl/<token>.<ext>`). A file a task still needs (storage.ts `taskNeedsFile`: numbers
   * not yet expanded) is kept: 400 文件正在被发送任务使用…. Another account's file, or none:
   * 文件不存在，请重新上传.
   */
  async deleteFile(me: Pick<Account, 'id' | 'clientid'>, ref: unknown): Promise<{ deleted: true }> {
    const token = typeof ref === 'string' ? ref.trim() : '';
    const work = WORK_PATH.exec(token);
    if (work) {
      const abs = path.join(workDirOf(this.ctx, me.clientid), `${work[1]}.${work[2]}`);
      const st = await fs.promises.stat(abs).catch(() => null);
      if (!st?.isFile()) throw new ApiError(400, FILE_MESSAGES.notFound);
      if (await taskNeedsFile(this.ctx.db, me.id, token)) throw new ApiError(400, STORAGE_MESSAGES.inUse);
      await fs.promises.rm(abs, { force: true });
      return { deleted: true };
    }
    if (!IMPORT_FILE_PATH.test(token)) throw new ApiError(400, FILE_MESSAGES.notFound);
    if (await taskNeedsFile(this.ctx.db, me.id, token)) {
      const mine = await this.ctx.db
        .selectFrom('file_uploads')
        .select('id')
        .where('account_id', '=', me.id)
        .where('stored_name', '=', token)
        .executeTakeFirst();
      throw new ApiError(400, mine ? STORAGE_MESSAGES.inUse : FILE_MESSAGES.notFound);
    }
    const gone = await this.ctx.db
      .deleteFrom('file_uploads')
      .where('account_id', '=', me.id)
      .where('stored_name', '=', token)
      .where('state', '=', FileUploadState.Done)
      .returning(['stored_name'])
      .executeTakeFirst();
    if (!gone) throw new ApiError(400, FILE_MESSAGES.notFound);
    await fs.promises.rm(path.join(ownerDir(this.ctx, me.id), token), { force: true });
    return { deleted: true };
  }

  /**
   * Complete uploads and working files older than `olderThanMs` (their upload or last re-upload
   * check; a working file's modification time) are removed. Several processes may run it: the
   * DELETE … RETURNING hands each row to one of them, which removes its bytes.
   */
  async purgeExpired(olderThanMs: number): Promise<{ files: number; workFiles: number }> {
    const cutoff = new Date(this.ctx.now().getTime() - olderThanMs);
    // a file a task still needs stays (storage.ts taskNeedsFile), checked in the DELETE itself
    const notNeeded = sql<boolean>`not exists (select 1 from sms_tasks t join sms_task_chunks c on c.task_id = t.id where t.creator_id = file_uploads.account_id and t.import_file_path = file_uploads.stored_name)`;
    let files = 0;
    for (;;) {
      const gone = await this.ctx.db
        .deleteFrom('file_uploads')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('file_uploads')
            .select('id')
            .where('state', '=', FileUploadState.Done)
            .where('updated_at', '<', cutoff)
            .where(notNeeded)
            .orderBy('id')
            .limit(PURGE_BATCH),
        )
        .where('state', '=', FileUploadState.Done)
        .where('updated_at', '<', cutoff)
        .where(notNeeded)
        .returning(['account_id', 'stored_name'])
        .execute();
      for (const r of gone)
        if (r.stored_name)
          await fs.promises.rm(path.join(ownerDir(this.ctx, r.account_id), r.stored_name), { force: true });
      files += gone.length;
      if (gone.length < PURGE_BATCH) break;
    }
    let workFiles = 0;
    const root = path.join(this.ctx.dataDir, 'files');
    for (const owner of await fs.promises.readdir(root).catch(() => [] as string[])) {
      if (!/^[A-Za-z0-9_-]{1,40}$/.test(owner)) continue;
      const creator = await this.ctx.db
        .selectFrom('accounts')
        .select('id')
        .where('clientid', '=', owner)
        .executeTakeFirst();
      const dir = path.join(root, owner, 'varintl');
      for (const name of await fs.promises.readdir(dir).catch(() => [] as string[])) {
        const p = path.join(dir, name);
        const st = await fs.promises.stat(p).catch(() => null);
        if (st?.isFile() && st.mtimeMs < cutoff.getTime()) {
          if (creator && (await taskNeedsFile(this.ctx.db, creator.id, `varintl/${name}`))) continue;
          await fs.promises.rm(p, { force: true });
          workFiles++;
        }
      }
    }
    if (files || workFiles) this.ctx.log.info({ files, workFiles }, 'expired uploads removed');
    return { files, workFiles };
  }

  /** download: the caller's own complete file. */
  async open(
    me: Pick<Account, 'id'>,
    importFilePath: unknown,
  ): Promise<{ stream: Readable; name: string; size: number }> {
    const f = await resolveUpload(this.ctx, me, importFilePath);
    return { stream: fs.createReadStream(f.path), name: f.fileName, size: f.size };
  }

  /**
   * Unfinished uploads (uploading, or a merge that died) not touched for `olderThanMs`: their rows
   * and chunks are removed. Touched = check / progress / merge (the row's updated_at) or a chunk
   * stored (the chunk folder's mtime: chunks write no row). Safe with several processes: the
   * DELETE … RETURNING is the claim (a row goes to exactly one of them, and not at all when a
   * check touched it meanwhile), and only the process that deleted a row removes its folder.
   * Then chunk folders and merge leftovers that no unfinished upload owns (a process died between
   * the row and the folder; folders of older versions) are removed once they are as old.
   */
  async purgeStale(olderThanMs: number): Promise<{ uploads: number; folders: number }> {
    const nowMs = this.ctx.now().getTime();
    const cutoff = new Date(nowMs - olderThanMs);
    const isOld = async (p: string) => {
      const st = await fs.promises.stat(p).catch(() => null);
      return !!st && st.mtimeMs < cutoff.getTime();
    };
    let uploads = 0;
    for (;;) {
      const candidates = await this.ctx.db
        .selectFrom('file_uploads')
        .select(['id', 'account_id', 'file_md5', 'file_size'])
        .where('state', '<>', FileUploadState.Done)
        .where('updated_at', '<', cutoff)
        .orderBy('id')
        .limit(PURGE_BATCH)
        .execute();
      if (!candidates.length) break;
      const stale: number[] = [];
      for (const c of candidates) {
        const dir = chunkDir(this.ctx, c.account_id, { fileMd5: c.file_md5, fileSize: c.file_size });
        const st = await fs.promises.stat(dir).catch(() => null);
        // a chunk came in lately: kept, and looked at again when that is as old
        if (st && st.mtimeMs >= cutoff.getTime()) {
          await this.ctx.db
            .updateTable('file_uploads')
            .set({ updated_at: new Date(Math.min(st.mtimeMs, nowMs)) })
            .where('id', '=', c.id)
            .where('updated_at', '<', cutoff)
            .execute();
        } else stale.push(c.id);
      }
      const gone = stale.length
        ? await this.ctx.db
            .deleteFrom('file_uploads')
            .where('id', 'in', stale)
            .where('state', '<>', FileUploadState.Done)
            .where('updated_at', '<', cutoff)
            .returning(['id', 'account_id', 'file_md5', 'file_size'])
            .execute()
        : [];
      for (const r of gone) {
        const dir = chunkDir(this.ctx, r.account_id, { fileMd5: r.file_md5, fileSize: r.file_size });
        await rmTree(dir);
        this.hasher.forget(dir);
      }
      uploads += gone.length;
      if (candidates.length < PURGE_BATCH) break;
    }
    let folders = 0;
    const root = uploadsRoot(this.ctx);
    const owners = await fs.promises.readdir(root).catch(() => [] as string[]);
    for (const owner of owners) {
      if (!/^[1-9][0-9]{0,9}$/.test(owner)) continue;
      const accountId = Number(owner);
      const entries = await fs.promises.readdir(path.join(root, owner)).catch(() => [] as string[]);
      const leftovers: string[] = [];
      for (const name of entries) {
        // chunk folders (c<md5>-<size>; c<upload id> of older versions) and merges that never finished
        const kind = CHUNK_DIR.test(name)
          ? 'chunks'
          : /^c[0-9]{1,10}$/.test(name) || name.endsWith('.merging')
            ? 'dead'
            : null;
        if (kind && (await isOld(path.join(root, owner, name)))) leftovers.push(name);
      }
      if (!leftovers.length) continue;
      const live = new Set(
        (
          await this.ctx.db
            .selectFrom('file_uploads')
            .select(['file_md5', 'file_size'])
            .where('account_id', '=', accountId)
            .where('state', '<>', FileUploadState.Done)
            .execute()
        ).map((r) => `c${r.file_md5}-${r.file_size}`),
      );
      for (const name of leftovers) {
        if (live.has(name)) continue;
        await rmTree(path.join(root, owner, name));
        folders++;
      }
    }
    if (uploads || folders) this.ctx.log.info({ uploads, folders }, 'stale uploads purged');
    return { uploads, folders };
  }
}

/** for tests and benches: where uploads and chunks live */
export const _paths = { uploadsRoot, ownerDir, chunkDir };
export { STORAGE_MESSAGES } from './storage';
