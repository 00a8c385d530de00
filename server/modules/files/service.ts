/**
 * The file service of large uploads (spec 02 §7 "File service"; contract: docs/api-files.md).
 *
 * An upload is identified by its owner, its MD5 and its size. The console asks `check` first: a
 * file the owner already has complete (100 %) is answered at once with its `importFilePath`, and
 * nothing is sent again; otherwise the answer lists the chunks already stored (a reload of the
 * page resumes from them). Chunks of 1 MB are posted one by one (`application/octet-stream`), each
 * streamed into a temporary file and renamed into place before its row is written, so a chunk
 * row always means a complete chunk. `merge` streams the chunks in order into a temporary file
 * while hashing them, refuses a wrong MD5, checks the content against the name's type (a binary
 * renamed .txt, a non-zip renamed .xlsx), renames the file into place and only then records its
 * `importFilePath`: nothing half-written is ever used.
 *
 * Everything is per owner: another account finds no row of someone else's (it cannot read,
 * merge, delete or reuse them, even knowing the MD5). State lives in the database and in files
 * under `DATA_DIR/uploads/<account id>/`, so several API processes can serve one upload (a merge
 * is claimed by a row update with a lease, never an in-memory lock).
 *
 * Other modules open an uploaded file with `resolveUpload(ctx, account, importFilePath)`.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { ApiError } from '../../http/errors';
import { randomToken } from '../../lib/crypto';
import { MESSAGES } from '../../../common/schema/messages';

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

/** file_uploads.state */
export const UploadRow = { Uploading: 0, Merging: 1, Done: 2 } as const;

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
  if (!name || name.length > FILE_NAME_MAX || BAD_NAME_CHARS.test(name) || name.startsWith('.') || name.includes('..') || name.trim() !== name) return FILE_MESSAGES.badName;
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
const ownerDir = (ctx: Pick<AppContext, 'dataDir'>, accountId: number) => path.join(uploadsRoot(ctx), String(accountId));
const chunkDir = (ctx: Pick<AppContext, 'dataDir'>, accountId: number, uploadId: number) => path.join(ownerDir(ctx, accountId), `c${uploadId}`);

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
    .where('state', '=', UploadRow.Done)
    .executeTakeFirst();
  if (!row) throw new ApiError(400, FILE_MESSAGES.notFound);
  const kind = m[2] as FileKind;
  if (opts.kinds && !opts.kinds.includes(kind)) throw new ApiError(400, opts.messages?.badType ?? FILE_MESSAGES.badType);
  if (opts.maxSize !== undefined && row.file_size > opts.maxSize) throw new ApiError(400, opts.messages?.tooLarge ?? FILE_MESSAGES.tooLarge);
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
  variableParser?: (me: Account, file: ResolvedUpload, body: Record<string, unknown>) => Promise<unknown>;

  constructor(private readonly ctx: AppContext) {}

  private key(b: { fileMd5?: unknown; fileSize?: unknown }): UploadKey {
    const md5 = typeof b.fileMd5 === 'string' ? b.fileMd5.trim() : '';
    if (!MD5_HEX.test(md5)) throw new ApiError(400, MESSAGES.badParam);
    const size = Number(b.fileSize);
    if (!Number.isSafeInteger(size) || size < 1) throw new ApiError(400, MESSAGES.badParam);
    if (size > FILE_MAX_BYTES) throw new ApiError(400, FILE_MESSAGES.tooLarge);
    return { fileMd5: md5.toLowerCase(), fileSize: size };
  }

  private async row(me: Pick<Account, 'id'>, k: UploadKey) {
    return this.ctx.db.selectFrom('file_uploads').selectAll().where('account_id', '=', me.id).where('file_md5', '=', k.fileMd5).where('file_size', '=', k.fileSize).executeTakeFirst();
  }

  private async status(row: { id: number; file_name: string; file_md5: string; file_size: number; chunk_size: number; chunk_count: number; state: number; stored_name: string | null }): Promise<UploadStatus> {
    const done = row.state === UploadRow.Done && !!row.stored_name;
    const uploadedChunks = done
      ? []
      : (await this.ctx.db.selectFrom('file_upload_chunks').select('idx').where('upload_id', '=', row.id).orderBy('idx').execute()).map((r) => r.idx);
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
  private async stillThere(me: Pick<Account, 'id'>, row: { id: number; state: number; stored_name: string | null; file_size: number }) {
    if (row.state !== UploadRow.Done || !row.stored_name) return true;
    const st = await fs.promises.stat(path.join(ownerDir(this.ctx, me.id), row.stored_name)).catch(() => null);
    if (st && st.size === row.file_size) return true;
    await this.ctx.db.updateTable('file_uploads').set({ state: UploadRow.Uploading, stored_name: null, updated_at: this.ctx.now() }).where('id', '=', row.id).execute();
    return false;
  }

  /** check: registers the upload (or finds it); a complete one is reused as is. */
  async check(me: Pick<Account, 'id'>, b: { fileName?: unknown; fileMd5?: unknown; fileSize?: unknown }): Promise<UploadStatus> {
    const fileName = typeof b.fileName === 'string' ? b.fileName.trim() : '';
    const nameError = fileNameError(fileName);
    if (nameError) throw new ApiError(400, nameError);
    const k = this.key(b);
    const now = this.ctx.now();
    const row = await this.ctx.db
      .insertInto('file_uploads')
      .values({
        account_id: me.id,
        file_md5: k.fileMd5,
        file_size: k.fileSize,
        file_name: fileName,
        chunk_size: CHUNK_SIZE,
        chunk_count: Math.ceil(k.fileSize / CHUNK_SIZE),
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.columns(['account_id', 'file_md5', 'file_size']).doUpdateSet({ updated_at: now, file_name: fileName }))
      .returningAll()
      .executeTakeFirstOrThrow();
    if (!(await this.stillThere(me, row))) return this.status({ ...row, state: UploadRow.Uploading, stored_name: null });
    return this.status(row);
  }

  /** progress: the chunks stored (nothing is created). */
  async progress(me: Pick<Account, 'id'>, b: { fileMd5?: unknown; fileSize?: unknown }): Promise<UploadStatus> {
    const row = await this.row(me, this.key(b));
    if (!row) throw new ApiError(400, FILE_MESSAGES.notFound);
    if (!(await this.stillThere(me, row))) return this.status({ ...row, state: UploadRow.Uploading, stored_name: null });
    return this.status(row);
  }

  /**
   * save chunk: `body` (the request stream) is written to a temporary file with its bytes counted
   * (a chunk longer than it should be is cut off and refused), then renamed into place.
   */
  async saveChunk(me: Pick<Account, 'id'>, b: { fileMd5?: unknown; fileSize?: unknown; chunk?: unknown }, body: Readable): Promise<{ chunk: number; progress: number }> {
    const k = this.key(b);
    const idx = Number(b.chunk);
    const row = await this.row(me, k);
    if (!row) throw new ApiError(400, FILE_MESSAGES.notFound);
    if (!Number.isSafeInteger(idx) || idx < 0 || idx >= row.chunk_count) throw new ApiError(400, FILE_MESSAGES.badChunk);
    if (row.state === UploadRow.Done) return { chunk: idx, progress: 100 };
    const expected = idx === row.chunk_count - 1 ? row.file_size - idx * row.chunk_size : row.chunk_size;
    const dir = chunkDir(this.ctx, me.id, row.id);
    await fs.promises.mkdir(dir, { recursive: true });
    const tmp = path.join(dir, `${idx}.${randomToken(9)}.part`);
    let n = 0;
    try {
      const out = fs.createWriteStream(tmp, { flags: 'wx' });
      try {
        for await (const piece of body) {
          const buf = piece as Buffer;
          n += buf.length;
          if (n > expected) throw new ApiError(400, FILE_MESSAGES.badChunk);
          if (!out.write(buf)) await new Promise<void>((resolve, reject) => out.once('drain', resolve).once('error', reject));
        }
      } finally {
        await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
      }
      if (n !== expected) throw new ApiError(400, FILE_MESSAGES.badChunk);
      await fs.promises.rename(tmp, path.join(dir, String(idx)));
    } catch (e) {
      await fs.promises.rm(tmp, { force: true });
      if (e instanceof ApiError) throw e;
      // the client went away in the middle of the chunk: nothing kept
      throw new ApiError(400, FILE_MESSAGES.badChunk);
    }
    await this.ctx.db.insertInto('file_upload_chunks').values({ upload_id: row.id, idx, size: n }).onConflict((oc) => oc.columns(['upload_id', 'idx']).doNothing()).execute();
    await this.ctx.db.updateTable('file_uploads').set({ updated_at: this.ctx.now() }).where('id', '=', row.id).execute();
    const { count } = await this.ctx.db.selectFrom('file_upload_chunks').select((eb) => eb.fn.countAll<string>().as('count')).where('upload_id', '=', row.id).executeTakeFirstOrThrow();
    return { chunk: idx, progress: Math.floor((Number(count) * 100) / row.chunk_count) };
  }

  /**
   * merge: every chunk streamed in order into one temporary file while hashing; a wrong MD5 or a
   * content that does not fit the name's type is refused (and the chunks dropped, the client
   * starts again); the verified file is renamed into place, then recorded. Idempotent: merging a
   * done upload answers its importFilePath.
   */
  async merge(me: Pick<Account, 'id'>, b: { fileMd5?: unknown; fileSize?: unknown }): Promise<MergedFile> {
    const k = this.key(b);
    const existing = await this.row(me, k);
    if (!existing) throw new ApiError(400, FILE_MESSAGES.notFound);
    if (existing.state === UploadRow.Done && existing.stored_name && (await this.stillThere(me, existing))) {
      return { importFilePath: existing.stored_name, fileName: existing.file_name, fileMd5: existing.file_md5, size: existing.file_size };
    }
    const now = this.ctx.now();
    const claimed = await this.ctx.db
      .updateTable('file_uploads')
      .set({ state: UploadRow.Merging, merge_started_at: now, updated_at: now })
      .where('id', '=', existing.id)
      .where((eb) => eb.or([eb('state', '=', UploadRow.Uploading), eb.and([eb('state', '=', UploadRow.Merging), eb('merge_started_at', '<', new Date(now.getTime() - MERGE_LEASE_MS))])]))
      .returningAll()
      .executeTakeFirst();
    if (!claimed) throw new ApiError(400, FILE_MESSAGES.busy);
    const release = () => this.ctx.db.updateTable('file_uploads').set({ state: UploadRow.Uploading, merge_started_at: null, updated_at: this.ctx.now() }).where('id', '=', claimed.id).execute();
    const dir = chunkDir(this.ctx, me.id, claimed.id);
    const chunks = await this.ctx.db.selectFrom('file_upload_chunks').select(['idx', 'size']).where('upload_id', '=', claimed.id).orderBy('idx').execute();
    if (chunks.length !== claimed.chunk_count) {
      await release();
      throw new ApiError(400, FILE_MESSAGES.incomplete);
    }
    const kind = fileKindOf(claimed.file_name) ?? 'txt';
    const stored = `${randomToken(18)}.${kind}`;
    const final = path.join(ownerDir(this.ctx, me.id), stored);
    const tmp = `${final}.${randomToken(6)}.merging`;
    const hash = crypto.createHash('md5');
    let head = Buffer.alloc(0);
    let total = 0;
    try {
      const out = fs.createWriteStream(tmp, { flags: 'wx' });
      try {
        for (const c of chunks) {
          for await (const piece of fs.createReadStream(path.join(dir, String(c.idx)), { highWaterMark: CHUNK_SIZE })) {
            const buf = piece as Buffer;
            hash.update(buf);
            if (head.length < SNIFF_BYTES) head = Buffer.concat([head, buf.subarray(0, SNIFF_BYTES - head.length)]);
            total += buf.length;
            if (!out.write(buf)) await new Promise<void>((resolve, reject) => out.once('drain', resolve).once('error', reject));
          }
        }
      } finally {
        await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
      }
    } catch (e) {
      await fs.promises.rm(tmp, { force: true });
      // a chunk file is missing or unreadable: those chunks are dropped, the client sends them again
      this.ctx.log.warn({ err: e, upload: claimed.id }, 'merge failed: chunk unreadable');
      await this.dropChunks(me, claimed.id);
      await release();
      throw new ApiError(400, FILE_MESSAGES.incomplete);
    }
    const md5 = hash.digest('hex');
    const refusal = total !== claimed.file_size || md5 !== claimed.file_md5 ? FILE_MESSAGES.md5Mismatch : !(await contentMatches(kind, head)) ? FILE_MESSAGES.badContent : null;
    if (refusal) {
      await fs.promises.rm(tmp, { force: true });
      await this.dropChunks(me, claimed.id);
      await release();
      throw new ApiError(400, refusal);
    }
    await fs.promises.rename(tmp, final);
    await this.ctx.db
      .updateTable('file_uploads')
      .set({ state: UploadRow.Done, stored_name: stored, merge_started_at: null, updated_at: this.ctx.now() })
      .where('id', '=', claimed.id)
      .execute();
    await this.dropChunks(me, claimed.id);
    this.ctx.log.info({ upload: claimed.id, size: total }, 'upload merged');
    return { importFilePath: stored, fileName: claimed.file_name, fileMd5: claimed.file_md5, size: claimed.file_size };
  }

  private async dropChunks(me: Pick<Account, 'id'>, uploadId: number) {
    await this.ctx.db.deleteFrom('file_upload_chunks').where('upload_id', '=', uploadId).execute();
    await fs.promises.rm(chunkDir(this.ctx, me.id, uploadId), { recursive: true, force: true });
  }

  /**
   * delete chunks (cancel): an unfinished upload of the caller is forgotten with its chunks. A
   * complete file is kept (it may be reused or already sent); an upload being merged is refused.
   */
  async deleteChunks(me: Pick<Account, 'id'>, b: { fileMd5?: unknown; fileSize?: unknown }): Promise<{ deleted: boolean }> {
    const row = await this.row(me, this.key(b));
    if (!row) throw new ApiError(400, FILE_MESSAGES.notFound);
    if (row.state === UploadRow.Done) return { deleted: false };
    const gone = await this.ctx.db.deleteFrom('file_uploads').where('id', '=', row.id).where('state', '=', UploadRow.Uploading).returning('id').executeTakeFirst();
    if (!gone) throw new ApiError(400, FILE_MESSAGES.busy);
    await fs.promises.rm(chunkDir(this.ctx, me.id, row.id), { recursive: true, force: true });
    return { deleted: true };
  }

  /** download: the caller's own complete file. */
  async open(me: Pick<Account, 'id'>, importFilePath: unknown): Promise<{ stream: Readable; name: string; size: number }> {
    const f = await resolveUpload(this.ctx, me, importFilePath);
    return { stream: fs.createReadStream(f.path), name: f.fileName, size: f.size };
  }

  /** Unfinished uploads untouched for `olderThanMs` (default 7 days): rows and chunks removed. */
  async purgeStale(olderThanMs = 7 * 24 * 3600_000): Promise<number> {
    const cutoff = new Date(this.ctx.now().getTime() - olderThanMs);
    const rows = await this.ctx.db
      .deleteFrom('file_uploads')
      .where('state', '<>', UploadRow.Done)
      .where('updated_at', '<', cutoff)
      .returning(['id', 'account_id'])
      .execute();
    for (const r of rows) await fs.promises.rm(chunkDir(this.ctx, r.account_id, r.id), { recursive: true, force: true });
    return rows.length;
  }
}

/** for tests and benches: the chunk folder of an upload */
export const _paths = { uploadsRoot, ownerDir, chunkDir };
