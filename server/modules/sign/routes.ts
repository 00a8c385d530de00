import type { FastifyPluginAsync } from 'fastify';
import multipart from '@fastify/multipart';
import type { AppContext } from '../../context';
import { api, fileReply, listOf, okEmpty, okOf, request } from '../../http/contract';
import { sendFile, XLSX_MIME } from '../../http/download';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { readOneFile } from '../../http/upload';
import { sessionOf } from '../../http/session';
import { SignState } from '../../../common/generated/schemas';
import { IMPORT_LIMITS, MSG, signAddPayload, type SignService } from './service';
import { MESSAGES } from '../../../common/schema/messages';

const TAG = '签名报备';

/** /sign/*: list, add, update (delete), export, template, batch import and its failed rows. */
export function signRoutes(ctx: AppContext, signs: SignService): FastifyPluginAsync {
  const filter = request(ctx, 'filters/sign', { paging: 'currentPage' });
  const importCounts = okOf(ctx, 'responses/sign-import');
  return async (plugin) => {
    // multipart only inside this plugin: the batch import's file field `excel`
    await plugin.register(multipart, { limits: { fileSize: IMPORT_LIMITS.maxBytes, files: 1, fields: 10, parts: 12 } });
    const app = api(plugin);

    app.post(
      '/sign/list',
      route({
        tag: TAG,
        summary: '签名列表（代理商：名下子账户的签名）',
        access: 'session',
        body: filter,
        response: listOf(ctx, 'entities/sign'),
      }),
      async (req) => ok(await signs.list(sessionOf(req).account, req.body)),
    );

    // a sub-account's clientid comes from the session; then forms/sign-add
    app.post(
      '/sign/add',
      route({
        tag: TAG,
        summary: '新增签名（代理商须选择子账户）',
        access: 'session',
        body: request(ctx, 'forms/sign-add'),
        response: okOf(ctx, 'responses/sign-added'),
        payload: signAddPayload,
      }),
      async (req) => {
        const r = await signs.add(sessionOf(req).account, req.body);
        return ok(r, r.state === SignState.Approved ? '添加成功，签名已审核通过' : '添加成功，请等待审核');
      },
    );

    app.post(
      '/sign/update',
      route({
        tag: TAG,
        summary: '删除签名（state 4；其余状态由平台审核）',
        access: 'session',
        body: request(ctx, 'params/sign-update'),
        response: okEmpty,
      }),
      async (req) => {
        await signs.remove(sessionOf(req).account, req.body.id);
        return ok(undefined, MESSAGES.deleted);
      },
    );

    app.post(
      '/sign/export',
      route({
        tag: TAG,
        summary: '导出签名（Excel，条件同列表）',
        access: 'session',
        body: request(ctx, 'filters/sign'),
        response: fileReply(XLSX_MIME),
      }),
      async (req, reply) =>
        sendFile(reply, await signs.exportStream(sessionOf(req).account, req.body), '签名报备.xlsx'),
    );

    app.get(
      '/sign/downloadExcelTemplate',
      route({ tag: TAG, summary: '下载签名导入模板（Excel）', access: 'session', response: fileReply(XLSX_MIME) }),
      async (req, reply) => sendFile(reply, await signs.template(sessionOf(req).account), '签名报备导入模板.xlsx'),
    );

    app.post(
      '/sign/addsignBatch',
      route({
        tag: TAG,
        summary: '批量导入签名（multipart，文件字段 excel）',
        access: 'session',
        body: request(ctx, 'params/excel-upload'),
        response: importCounts,
      }),
      async (req) => {
        const buf = await readOneFile(req, 'excel', {
          tooLarge: MSG.fileTooLarge,
          noFile: MSG.noFile,
          parseFailed: MSG.parseFailed,
        });
        const r = await signs.importFile(sessionOf(req).account, buf);
        return ok(r, `导入完成：成功 ${r.importSuccess} 条，失败 ${r.importFall} 条`);
      },
    );

    app.get(
      '/sign/exportImportResult',
      route({
        tag: TAG,
        summary: '下载上次导入的失败记录（Excel）',
        access: 'session',
        response: fileReply(XLSX_MIME),
      }),
      async (req, reply) =>
        sendFile(reply, await signs.importFailures(sessionOf(req).account), '签名导入失败记录.xlsx'),
    );
  };
}
