/**
 * Storage limits of uploaded files (issue 23 item 5; docs/api-files.md "Storage limits"):
 *
 * - **Quota per account** (`UPLOAD_QUOTA_MB`, default 1,024): the bytes of its chunked uploads
 *   (complete and unfinished: `file_uploads.file_size`, in the database) and of its working files
 *   (the variable / international pages' uploads and error files, `files/<clientid>/varintl/` on
 *   the shared data directory) together. A new upload that would pass it is refused before a byte
 *   is stored (存储空间不足，请删除不用的文件后再上传), a multipart upload is cut off at the room
 *   left. The chunked check counts and registers inside one transaction holding the account's
 *   row, so concurrent checks of one account (any process) see each other.
 * - **Unfinished uploads per account** (`UPLOAD_PENDING_MAX`, default 10).
 * - **Disk floor** (`UPLOAD_MIN_FREE_MB`, default 512): while the data directory's file system has
 *   less free than that plus the incoming bytes, uploads (check, chunk, multipart) are refused
 *   (服务器存储空间不足，暂时无法上传，请稍后再试).
 * - **Removal**: complete uploads and working files go `UPLOAD_KEEP_HOURS` (default 72) after
 *   their upload or last re-upload check (FileService.purgeExpired, with the stale-upload purge);
 *   a send reads its file at acceptance, so nothing needs it later. The owner deletes one at any
 *   time (POST /file/delete).
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql, type Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Account, Database } from '../../db/types';
import { ApiError } from '../../http/errors';
import { MESSAGES } from '../../../common/schema/messages';
import { FileUploadState } from '../../../common/generated/schemas';

const MB = 1024 * 1024;

export const STORAGE_MESSAGES = {
  quota: MESSAGES.storageQuota,
  pending: MESSAGES.uploadsPending,
  diskFull: MESSAGES.diskFull,
  deleted: MESSAGES.fileDeleted,
  inUse: MESSAGES.fileInUse,
} as const;

/** A working file's path as the console holds it: `varintl/<token>.<ext>` (variable-international/work-files.ts writes them). */
export const WORK_PATH = /^varintl\/([A-Za-z0-9_-]{16,64})\.(xlsx|txt|csv|tsv)$/;

/** The working files' folder of an account (the one place that knows the layout). */
export const workDirOf = (ctx: Pick<AppContext, 'dataDir'>, clientid: string) =>
  path.join(ctx.dataDir, 'files', clientid, 'varintl');

/** Bytes in a folder's files (not recursive; a missing folder is empty). */
async function folderBytes(dir: string): Promise<number> {
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  let total = 0;
  for (const n of names) {
    const st = await fs.promises.stat(path.join(dir, n)).catch(() => null);
    if (st?.isFile()) total += st.size;
  }
  return total;
}

/** What an account stores now: its uploads (database) and its working files (disk). */
export async function usageOf(
  ctx: Pick<AppContext, 'db' | 'dataDir'>,
  q: Pick<AppContext['db'], 'selectFrom'>,
  account: Pick<Account, 'id' | 'clientid'>,
): Promise<number> {
  const r = await q
    .selectFrom('file_uploads')
    .select(sql<string>`coalesce(sum(file_size), 0)::text`.as('n'))
    .where('account_id', '=', account.id)
    .executeTakeFirstOrThrow();
  return Number(r.n) + (await folderBytes(workDirOf(ctx, account.clientid)));
}

const mb = (n: number) => (n / MB).toFixed(n < 10 * MB ? 1 : 0);

/** Refuses an upload of `incoming` bytes that would pass the account's quota. */
export async function assertQuota(
  ctx: Pick<AppContext, 'db' | 'dataDir' | 'config'>,
  q: Pick<AppContext['db'], 'selectFrom'>,
  account: Pick<Account, 'id' | 'clientid'>,
  incoming: number,
): Promise<number> {
  const quota = ctx.config.uploadQuotaMb * MB;
  const used = await usageOf(ctx, q, account);
  if (used + incoming > quota)
    throw new ApiError(400, `${STORAGE_MESSAGES.quota}（已用 ${mb(used)} MB，上限 ${mb(quota)} MB）`);
  return quota - used;
}

/** Refuses a new chunked upload while the account has too many unfinished ones. */
export async function assertPendingRoom(
  ctx: Pick<AppContext, 'config'>,
  trx: Transaction<Database>,
  accountId: number,
): Promise<void> {
  const r = await trx
    .selectFrom('file_uploads')
    .select(sql<string>`count(*)::text`.as('n'))
    .where('account_id', '=', accountId)
    .where('state', '<>', FileUploadState.Done)
    .executeTakeFirstOrThrow();
  if (Number(r.n) >= ctx.config.uploadPendingMax) throw new ApiError(400, STORAGE_MESSAGES.pending);
}

/**
 * Whether a task still needs the file: a task created by `creatorId` names it (`sms_tasks.
 * import_file_path`: the chunked upload's token or the working file's `varintl/<name>`) and still
 * has numbers not expanded into message rows (`sms_task_chunks`). Such a file is neither deleted
 * nor purged; once its task has expanded it, it may go. Read from the database, so every process
 * sees the same answer.
 */
export function taskNeedsFile(q: Pick<AppContext['db'], 'selectFrom'>, creatorId: number, ref: string) {
  return q
    .selectFrom('sms_tasks as t')
    .innerJoin('sms_task_chunks as c', 'c.task_id', 't.id')
    .select('t.id')
    .where('t.creator_id', '=', creatorId)
    .where('t.import_file_path', '=', ref)
    .limit(1)
    .executeTakeFirst()
    .then((r) => r !== undefined);
}

/** Free bytes of the data directory's file system. */
export async function freeBytes(ctx: Pick<AppContext, 'dataDir' | 'options'>): Promise<number> {
  if (ctx.options.diskFree) return ctx.options.diskFree(ctx.dataDir);
  await fs.promises.mkdir(ctx.dataDir, { recursive: true });
  const st = await fs.promises.statfs(ctx.dataDir);
  return Number(st.bavail) * Number(st.bsize);
}

/** Refuses an upload of `incoming` bytes while the disk is below the floor. */
export async function assertDiskRoom(
  ctx: Pick<AppContext, 'dataDir' | 'options' | 'config'>,
  incoming: number,
): Promise<void> {
  const free = await freeBytes(ctx).catch(() => Number.POSITIVE_INFINITY);
  if (free < ctx.config.uploadMinFreeMb * MB + incoming) throw new ApiError(400, STORAGE_MESSAGES.diskFull);
}
