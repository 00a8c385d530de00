import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { AppContext } from '../../context';
import { ApiError } from '../../http/errors';
import { ok } from '../../http/reply';
import { id, listParams, params } from '../../http/params';
import { route } from '../../http/route';
import { formSchema } from '../../http/validation';
import { sessionOf } from '../auth/session';
import { SignState } from '../../../common/generated/schemas';
import { IMPORT_LIMITS, MSG, signAddPayload, XLSX_MIME, xlsxDisposition, type SignAddForm, type SignService } from './service';
import { MESSAGES } from '../../../common/schema/messages';

const TAG = '签名报备';

/** /sign/*: list, add, update (delete), export, template, batch import and its failed rows. */
export function signRoutes(ctx: AppContext, signs: SignService): FastifyPluginAsync {
  const filter = listParams(ctx.schemas, 'sign', undefined, { state: MSG.badState });
  return async (app) => {
    // multipart only inside this plugin: the batch import's file field `excel`
    await app.register(multipart, { limits: { fileSize: IMPORT_LIMITS.maxBytes, files: 1, fields: 10, parts: 12 } });

    app.post('/sign/list', route({ tag: TAG, summary: '签名列表（代理商：名下子账户的签名）', access: 'session', body: filter }), async (req) => ok(await signs.list(sessionOf(req).account, req.body)));

    // a sub-account's clientid comes from the session; then forms/sign-add
    const addPayload = { preValidation: async (req: FastifyRequest) => void (req.body = signAddPayload(sessionOf(req).account, req.body)) };
    app.post<{ Body: SignAddForm }>(
      '/sign/add',
      route({ tag: TAG, summary: '新增签名（代理商须选择子账户）', access: 'session', body: formSchema(ctx.schemas, 'forms/sign-add'), with: addPayload }),
      async (req) => {
        const r = await signs.add(sessionOf(req).account, req.body);
        return ok(r, r.state === SignState.Approved ? '添加成功，签名已审核通过' : '添加成功，请等待审核');
      },
    );

    const updateParams = params({ id: { ...id('签名编号'), errorMessage: '签名编号不正确' }, state: { title: '状态（只能为 4 已删除）' } });
    app.post('/sign/update', route({ tag: TAG, summary: '删除签名（state 4；其余状态由平台审核）', access: 'session', body: updateParams }), async (req) => {
      await signs.update(sessionOf(req).account, req.body);
      return ok(undefined, MESSAGES.deleted);
    });

    app.post('/sign/export', route({ tag: TAG, summary: '导出签名（Excel，条件同列表）', access: 'session', body: filter }), async (req, reply) => {
      const stream = await signs.exportStream(sessionOf(req).account, req.body);
      return reply.header('content-type', XLSX_MIME).header('content-disposition', xlsxDisposition('签名报备.xlsx')).send(stream);
    });

    app.get('/sign/downloadExcelTemplate', route({ tag: TAG, summary: '下载签名导入模板（Excel）', access: 'session' }), async (req, reply) => {
      const buf = await signs.template(sessionOf(req).account);
      return reply.header('content-type', XLSX_MIME).header('content-disposition', xlsxDisposition('签名报备导入模板.xlsx')).send(buf);
    });

    app.post('/sign/addsignBatch', route({ tag: TAG, summary: '批量导入签名（multipart，文件字段 excel）', access: 'session' }), async (req) => {
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

    app.get('/sign/exportImportResult', route({ tag: TAG, summary: '下载上次导入的失败记录（Excel）', access: 'session' }), async (req, reply) => {
      const buf = await signs.importFailures(sessionOf(req).account);
      return reply.header('content-type', XLSX_MIME).header('content-disposition', xlsxDisposition('签名导入失败记录.xlsx')).send(buf);
    });
  };
}
