/**
 * The files module's timer (server/modules/module.ts `moduleTimer`): every
 * `ctx.options.uploadPurgeEveryMs` (default an hour, the first a minute after the start; 0: never)
 * unfinished uploads untouched for `UPLOAD_STALE_HOURS` and complete / working files older than
 * `UPLOAD_KEEP_HOURS` are removed (docs/api-files.md "Stale uploads", "Storage limits"). Every
 * process runs it; the purges' DELETE … RETURNING hands each row to one of them.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { moduleTimer } from '../module';
import type { FileService } from './service';

export function fileTimers(app: FastifyInstance, ctx: AppContext, files: FileService) {
  const { uploadStaleHours, uploadKeepHours } = ctx.config;
  if (!(uploadStaleHours > 0 || uploadKeepHours > 0)) return;
  const every = ctx.options.uploadPurgeEveryMs;
  moduleTimer(
    app,
    every,
    async () => {
      if (uploadStaleHours > 0) await files.purgeStale(uploadStaleHours * 3600_000);
      if (uploadKeepHours > 0) await files.purgeExpired(uploadKeepHours * 3600_000);
    },
    'purge of stale and expired uploads',
    Math.min(every, 60_000),
  );
}
