/**
 * The file service behind certification and open-account images.
 *
 * Files are kept under `${DATA_DIR}/files/<clientid>/<random>.<ext>`; the stored path
 * (`<clientid>/<random>.<ext>`) is what forms send back (certification imgUrl) and what
 * GET /api/files/<path> serves (the `smsp_img_url` base). The type is decided by the content
 * (file-type), never by the name: a text file named .png is refused.
 *
 * Storage sits behind `FileStore`; `LocalFileStore` is the embedded one. An S3-compatible store
 * (MinIO, OSS, COS) only needs `put`/`get`/`exists` over the same keys.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { ApiError, errors } from '../../http/errors';
import { randomToken } from '../../lib/crypto';
import { UserType } from '../../../common/generated/schemas';
import { MESSAGES } from '../../../common/schema/messages';

export const UPLOAD_MAX_BYTES = 2 * 1024 * 1024;
export const IMAGE_TYPES = ['gif', 'jpg', 'png'] as const;
/** the open-account form also takes BMP (spec 5) */
export const IMAGE_TYPES_WITH_BMP = [...IMAGE_TYPES, 'bmp'] as const;
/** where the console loads stored files from (certification info's smsp_img_url) */
export const FILES_BASE_URL = '/api/files/';

export const UPLOAD_MESSAGES = {
  failed: MESSAGES.imageUploadFailed,
  tooLarge: MESSAGES.imageTooLarge,
  badType: MESSAGES.imageBadType,
  badTypeBmp: '图片上传失败：仅支持 gif、jpg、jpeg、png、bmp 格式的图片',
  noFile: '图片上传失败：请选择要上传的图片',
  empty: '图片上传失败：图片内容为空',
  uploaded: '上传成功',
} as const;

const MIME: Record<string, string> = {
  gif: 'image/gif',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  bmp: 'image/bmp',
};

/** `<clientid>/<token>.<ext>`: nothing else is a stored path (no traversal, no other folders). */
export const STORED_PATH = /^([A-Za-z0-9_-]{1,40})\/([A-Za-z0-9_-]{8,64})\.(gif|jpg|jpeg|png|bmp)$/;

export interface FileStore {
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<Readable | null>;
  exists(key: string): Promise<boolean>;
}

export class LocalFileStore implements FileStore {
  constructor(readonly root: string) {}
  private file(key: string) {
    if (!STORED_PATH.test(key)) throw new Error(`bad key ${key}`);
    return path.join(this.root, ...key.split('/'));
  }
  async put(key: string, data: Buffer) {
    const f = this.file(key);
    await fs.promises.mkdir(path.dirname(f), { recursive: true });
    await fs.promises.writeFile(f, data, { flag: 'wx' });
  }
  async get(key: string) {
    const f = this.file(key);
    try {
      await fs.promises.access(f, fs.constants.R_OK);
    } catch {
      return null;
    }
    return fs.createReadStream(f);
  }
  async exists(key: string) {
    try {
      await fs.promises.access(this.file(key));
      return true;
    } catch {
      return false;
    }
  }
}

export interface StoredFile {
  /** what forms send back: `<clientid>/<random>.<ext>` */
  path: string;
  /** where the console shows it */
  url: string;
  size: number;
  type: string;
}

export class UploadService {
  readonly store: FileStore;
  constructor(
    private readonly ctx: AppContext,
    store?: FileStore,
  ) {
    this.store = store ?? new LocalFileStore(path.join(ctx.dataDir, 'files'));
  }

  /** Checks the content and stores it under the account's folder. */
  async storeImage(
    owner: Pick<Account, 'clientid'>,
    data: Buffer,
    opts: { allowBmp?: boolean } = {},
  ): Promise<StoredFile> {
    if (data.length === 0) throw errors.refused(UPLOAD_MESSAGES.empty);
    if (data.length > UPLOAD_MAX_BYTES) throw errors.refused(UPLOAD_MESSAGES.tooLarge);
    const kind = await fileTypeFromBuffer(data);
    const allowed: readonly string[] = opts.allowBmp ? IMAGE_TYPES_WITH_BMP : IMAGE_TYPES;
    if (!kind || !allowed.includes(kind.ext))
      throw errors.refused(opts.allowBmp ? UPLOAD_MESSAGES.badTypeBmp : UPLOAD_MESSAGES.badType);
    const key = `${owner.clientid}/${randomToken(18)}.${kind.ext}`;
    await this.store.put(key, data);
    this.ctx.log.info({ key, size: data.length }, 'file stored');
    return { path: key, url: FILES_BASE_URL + key, size: data.length, type: kind.mime };
  }

  /** The clientid owning a stored path, or null when the path is not one. */
  ownerOf(p: string): string | null {
    const m = STORED_PATH.exec(p);
    return m ? m[1] : null;
  }

  /** May `viewer` read the file at `p`? Its owner and the owner's agent may. */
  async canRead(viewer: Account, p: string): Promise<boolean> {
    const owner = this.ownerOf(p);
    if (!owner) return false;
    if (owner === viewer.clientid) return true;
    if (viewer.user_type !== UserType.Agent) return false;
    const row = await this.ctx.db
      .selectFrom('accounts')
      .select('id')
      .where('clientid', '=', owner)
      .where('agent_id', '=', viewer.id)
      .executeTakeFirst();
    return !!row;
  }

  async open(p: string): Promise<{ stream: Readable; mime: string } | null> {
    if (!STORED_PATH.test(p)) return null;
    const stream = await this.store.get(p);
    if (!stream) return null;
    return { stream, mime: MIME[p.slice(p.lastIndexOf('.') + 1)] ?? 'application/octet-stream' };
  }

  /** Validates an imgUrl list of stored paths this account may use; throws a clear message. */
  async checkOwnedPaths(owner: Account, paths: string[]): Promise<void> {
    for (const p of paths) {
      if (!(await this.canRead(owner, p)) || !(await this.store.exists(p))) {
        throw new ApiError(400, '证件图片不存在，请重新上传');
      }
    }
  }
}
