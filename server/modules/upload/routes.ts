/**
 * POST /file/upload (multipart, field `photoFile`, session required): stores one image, answers
 * `{ path, url }`. `?scene=open-account` also accepts BMP. GET /files/<clientid>/<name> serves a
 * stored file to its owner and the owner's agent.
 */
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { errors } from '../../http/errors';
import { ok } from '../../http/reply';
import { api, okOf, request } from '../../http/contract';
import { route } from '../../http/route';
import type { AppContext } from '../../context';
import { sessionOf } from '../../http/session';
import { UPLOAD_MAX_BYTES, UPLOAD_MESSAGES, type UploadService } from './service';
import { codeOf } from '../../lib/error-code';

export const UPLOAD_FIELD = 'photoFile';

export function uploadRoutes(ctx: AppContext, uploads: UploadService): FastifyPluginAsync {
  return async (plugin) => {
    await plugin.register(multipart, { limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
    const app = api(plugin);

    app.post(
      '/file/upload',
      route({
        tag: '文件',
        summary: '上传图片（multipart，文件字段 photoFile）；scene=open-account 时也接受 BMP',
        access: 'session',
        querystring: request(ctx, 'params/upload-image'),
        response: okOf(ctx, 'responses/stored-image'),
      }),
      async (req) => {
        if (!req.isMultipart()) throw errors.refused(UPLOAD_MESSAGES.noFile);
        let file;
        try {
          file = await req.file();
        } catch (err) {
          req.log.info({ err }, 'upload refused');
          throw errors.refused(UPLOAD_MESSAGES.failed);
        }
        if (!file || file.fieldname !== UPLOAD_FIELD) throw errors.refused(UPLOAD_MESSAGES.noFile);
        let data: Buffer;
        try {
          data = await file.toBuffer();
        } catch (err) {
          if (codeOf(err) === 'FST_REQ_FILE_TOO_LARGE') throw errors.refused(UPLOAD_MESSAGES.tooLarge);
          req.log.info({ err }, 'upload refused');
          throw errors.refused(UPLOAD_MESSAGES.failed);
        }
        if (file.file.truncated) throw errors.refused(UPLOAD_MESSAGES.tooLarge);
        const stored = await uploads.storeImage(sessionOf(req).account, data, {
          allowBmp: req.query.scene === 'open-account',
        });
        return ok(stored, UPLOAD_MESSAGES.uploaded);
      },
    );

    app.get<{ Params: { '*': string } }>(
      '/files/*',
      route({ tag: '文件', summary: '读取已上传的文件（本人及其代理商）', access: 'session' }),
      async (req, reply) => {
        const p = decodeURIComponent(req.params['*'] ?? '');
        if (!(await uploads.canRead(sessionOf(req).account, p))) throw errors.forbidden();
        const f = await uploads.open(p);
        if (!f) throw errors.notFound('文件');
        return reply
          .header('content-type', f.mime)
          .header('cache-control', 'private, max-age=3600')
          .header('x-content-type-options', 'nosniff')
          .send(f.stream);
      },
    );
  };
}
