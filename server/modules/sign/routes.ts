import type { FastifyPluginAsync } from 'fastify';
import multipart from '@fastify/multipart';
import { ApiError } from '../../http/errors';
import { ok } from '../../http/reply';
import { sessionOf, type SessionService } from '../auth/session';
import { IMPORT_LIMITS, MSG, XLSX_MIME, xlsxDisposition, type SignService } from './service';
import { SignState } from '../../../common/generated/schemas';

/** /sign/*: list, add, update (delete), export, template, batch import and its failed rows. */
export function signRoutes(sessions: SessionService, signs: SignService): FastifyPluginAsync {
  return async (app) => {
    // multipart only inside this plugin: the batch import's file field `excel`
    await app.register(multipart, { limits: { fileSize: IMPORT_LIMITS.maxBytes, files: 1, fields: 10, parts: 12 } });
    const auth = { preHandler: sessions.requireSession() };

    app.post('/sign/list', auth, async (req) => ok(await signs.list(sessionOf(req).account, req.body)));

    app.post('/sign/add', auth, async (req) => {
      const r = await signs.add(sessionOf(req).account, req.body);
      return ok(r, r.state === SignState.Approved ? '添加成功，签名已审核通过' : '添加成功，请等待审核');
    });

    app.post('/sign/update', auth, async (req) => {
      await signs.update(sessionOf(req).account, req.body);
      return ok(undefined, '删除成功');
    });

    app.post('/sign/export', auth, async (req, reply) => {
      const stream = await signs.exportStream(sessionOf(req).account, req.body);
      return reply.header('content-type', XLSX_MIME).header('content-disposition', xlsxDisposition('签名报备.xlsx')).send(stream);
    });

    app.get('/sign/downloadExcelTemplate', auth, async (req, reply) => {
      const buf = await signs.template(sessionOf(req).account);
      return reply.header('content-type', XLSX_MIME).header('content-disposition', xlsxDisposition('签名报备导入模板.xlsx')).send(buf);
    });

    app.post('/sign/addsignBatch', auth, async (req) => {
      const me = sessionOf(req).account;
      if (!req.isMultipart()) throw new ApiError(400, MSG.noFile);
      let buf: Buffer | undefined;
      try {
        for await (const part of req.parts()) {
          if (part.type === 'file') {
            if (part.fieldname === 'excel' && buf === undefined) buf = await part.toBuffer();
            else part.file.resume();
          }
        }
      } catch (e: any) {
        if (e?.code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(400, MSG.fileTooLarge);
        if (e?.code === 'FST_FILES_LIMIT' || e?.code === 'FST_PARTS_LIMIT' || e?.code === 'FST_FIELDS_LIMIT') throw new ApiError(400, '一次只能导入一个文件');
        throw new ApiError(400, MSG.parseFailed);
      }
      const r = await signs.importFile(me, buf);
      return ok(r, `导入完成：成功 ${r.importSuccess} 条，失败 ${r.importFall} 条`);
    });

    app.get('/sign/exportImportResult', auth, async (req, reply) => {
      const buf = await signs.importFailures(sessionOf(req).account);
      return reply.header('content-type', XLSX_MIME).header('content-disposition', xlsxDisposition('签名导入失败记录.xlsx')).send(buf);
    });
  };
}
