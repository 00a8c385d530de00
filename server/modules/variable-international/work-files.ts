/**
 * Working files of the variable and international pages, kept per owner under
 * `${DATA_DIR}/files/<clientid>/varintl/<token>.<ext>`. A working path (`varintl/<token>.<ext>`) is
 * what the console holds (importFilePath, sendFilePath, the error file); it is resolved against the
 * session account's own folder only, so nobody reaches another account's files, and nothing but
 * this exact shape is accepted (no traversal, no other folders).
 *
 * Uploaded source files arrive here through `POST /send/uploadVariateFile` and
 * `POST /send/uploadInternationalFile` (multipart, streamed to disk with a byte limit); the
 * resumable chunked upload (server/modules/files) can hand its merged file over the same way.
 * Files are written to a temporary name and renamed when complete: nothing half-written is used.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { ApiError } from '../../http/errors';
import { randomToken } from '../../lib/crypto';
import { WORK_PATH, workDirOf } from '../files';

export { WORK_PATH };
export type WorkExt = 'xlsx' | 'txt' | 'csv' | 'tsv';

const ownerDir = (ctx: Pick<AppContext, 'dataDir'>, me: Pick<Account, 'clientid'>) => {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(me.clientid)) throw new ApiError(400, '账户异常');
  return workDirOf(ctx, me.clientid);
};

/** A new working file of the account: its working path and where to write it. */
export async function newWorkFile(
  ctx: Pick<AppContext, 'dataDir'>,
  me: Pick<Account, 'clientid'>,
  ext: WorkExt,
): Promise<{ rel: string; abs: string }> {
  const dir = ownerDir(ctx, me);
  await fs.promises.mkdir(dir, { recursive: true });
  const token = randomToken(18).replace(/[^A-Za-z0-9_-]/g, '');
  return { rel: `varintl/${token}.${ext}`, abs: path.join(dir, `${token}.${ext}`) };
}

/** The file of a working path of the account, or the message `missing` (a refusal, never a 5xx). */
export async function workFile(
  ctx: Pick<AppContext, 'dataDir'>,
  me: Pick<Account, 'clientid'>,
  rel: unknown,
  missing: string,
): Promise<{ abs: string; ext: WorkExt }> {
  const m = WORK_PATH.exec(String(rel ?? '').trim());
  if (!m) throw new ApiError(400, missing);
  const abs = path.join(ownerDir(ctx, me), `${m[1]}.${m[2]}`);
  try {
    const st = await fs.promises.stat(abs);
    if (!st.isFile()) throw new Error('not a file');
  } catch {
    throw new ApiError(400, missing);
  }
  return { abs, ext: m[2] as WorkExt };
}

export class FileTooLarge extends Error {}

/** Streams an upload to a new working file, at most `maxBytes`; renamed into place only when complete. */
export async function saveUpload(
  ctx: Pick<AppContext, 'dataDir'>,
  me: Pick<Account, 'clientid'>,
  ext: WorkExt,
  stream: Readable & { truncated?: boolean },
  maxBytes: number,
): Promise<{ rel: string; abs: string; size: number }> {
  const f = await newWorkFile(ctx, me, ext);
  const tmp = `${f.abs}.part`;
  let size = 0;
  try {
    await pipeline(
      stream,
      async function* (src) {
        for await (const chunk of src) {
          size += (chunk as Buffer).length;
          if (size > maxBytes) throw new FileTooLarge();
          yield chunk;
        }
      },
      fs.createWriteStream(tmp, { flags: 'wx' }),
    );
    if (stream.truncated) throw new FileTooLarge();
    await fs.promises.rename(tmp, f.abs);
  } catch (e) {
    await fs.promises.rm(tmp, { force: true });
    throw e;
  }
  return { ...f, size };
}
