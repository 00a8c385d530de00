/**
 * 文件服务: chunked uploads of number files (check, chunks, merge, cancel, delete, download;
 * service.ts, hasher.ts), their parsing (parse.ts: /send/parsefile and the error numbers), the
 * storage limits (storage.ts: quota, unfinished-upload cap, disk floor, files a task still needs)
 * and the purge timer of stale and expired uploads (timer.ts). Depends on no other module's
 * service. docs/api-files.md.
 *
 * Other modules open an uploaded file through here: `resolveUpload`, `parseNumberFile`, and the
 * storage checks of their own uploads (`assertDiskRoom`, `assertQuota`).
 */
import { defineModule } from '../module';
import { fileRoutes } from './routes';
import { FileService } from './service';
import { fileTimers } from './timer';

export {
  FileService,
  resolveUpload,
  IMPORT_FILE_PATH,
  CHUNK_SIZE,
  FILE_MAX_BYTES,
  FILE_MESSAGES,
  type ResolvedUpload,
  type MergedFile,
  type UploadStatus,
} from './service';
export { parseNumberFile, firstColumnErrors, PARSE_MESSAGES, type ParsedNumbers } from './parse';
export { assertDiskRoom, assertQuota, taskNeedsFile, STORAGE_MESSAGES, WORK_PATH, workDirOf } from './storage';

declare module '../../context' {
  interface Services {
    files: FileService;
  }
}

export default defineModule({ name: 'files' }, async (app, ctx) => {
  const files = (app.services.files = new FileService(ctx));
  await app.register(fileRoutes(ctx, files));
  // the purge of stale and expired uploads (moduleTimer; every ctx.options.uploadPurgeEveryMs)
  fileTimers(app, ctx, files);
  app.addHook('onClose', async () => files.close());
});
