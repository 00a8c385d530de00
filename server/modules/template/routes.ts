/**
 * 短信模板 calls (docs/api-templates.md): lists of smart and general templates, the agent's
 * sub-accounts for templates, add / edit / delete, the Excel import and its workbook. Every call
 * needs a session; the account list is agent-only.
 */
import type { FastifyPluginAsync } from 'fastify';
import multipart from '@fastify/multipart';
import type { AppContext } from '../../context';
import { api, arrayOf, entityPageOf, fileReply, okEmpty, okOf, request } from '../../http/contract';
import { sendFile, XLSX_MIME } from '../../http/download';
import { ApiError } from '../../http/errors';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { readTemplateSheet, templateSheetSchemas, templateWorkbook } from './batch';
import { sessionOf } from '../../http/session';
import type { TemplateService } from './service';
import { UserType } from '../../../common/generated/schemas';
import { MESSAGES } from '../../../common/schema/messages';
import { codeOf, messageOf } from '../../lib/error-code';

const TAG = '短信模板';

/** The list and edit / delete calls take their parameters in the body or the query (the body wins). */
const both = <T extends object>(req: { body: T; query: T }): T => ({ ...(req.query ?? {}), ...(req.body ?? {}) });

export function templateRoutes(ctx: AppContext, templates: TemplateService): FastifyPluginAsync {
  const smart = request(ctx, 'filters/template-smart', { paging: 'currentPage' });
  const general = request(ctx, 'filters/template-general', { paging: 'currentPage' });
  const ref = request(ctx, 'params/template-ref');
  return async (plugin) => {
    // Excel import (file field `excel`, like /sign/addsignBatch); multipart only here unless the app has it already
    if (!plugin.hasContentTypeParser('multipart/form-data'))
      await plugin.register(multipart, { limits: { fileSize: 5 * 1024 * 1024, files: 1 } });
    const app = api(plugin);
    const sheet = templateSheetSchemas(ctx.schemas);

    app.post(
      '/autoTemplate/list',
      route({
        tag: TAG,
        summary: '智能模板列表',
        access: 'session',
        body: smart,
        querystring: smart,
        response: entityPageOf(ctx, 'entities/template'),
      }),
      async (req) => ok(await templates.list(sessionOf(req).account, both(req))),
    );

    app.post(
      '/autoTemplate/commonlist',
      route({
        tag: TAG,
        summary: '通用模板列表（平台提供，已审核）',
        access: 'session',
        body: general,
        querystring: general,
        response: entityPageOf(ctx, 'entities/template'),
      }),
      async (req) => ok(await templates.commonList(both(req))),
    );

    app.get(
      '/autoTemplate/autoTemplateAccounts',
      route({
        tag: TAG,
        summary: '可选的子账户（模板归属）',
        access: 'agent',
        querystring: request(ctx, 'params/template-accounts'),
        response: arrayOf(ctx, 'responses/client-option'),
      }),
      async (req) => ok(await templates.accounts(sessionOf(req).account, req.query.agentId || undefined)),
    );

    app.post(
      '/autoTemplate/add',
      route({
        tag: TAG,
        summary: '新增模板（代理商须选择子账户）',
        access: 'session',
        body: request(ctx, 'forms/template'),
        response: okOf(ctx, 'entities/template'),
      }),
      async (req) => ok(await templates.add(sessionOf(req).account, req.body), '新增成功，请等待审核'),
    );

    // the template is looked up first (404 / 403 before the form's messages), then the form is checked as on add
    app.post(
      '/autoTemplate/edit',
      route({
        tag: TAG,
        summary: '修改模板（仅创建者，修改后重新审核；字段同 forms/template 加 templateId）',
        access: 'session',
        body: ref,
        querystring: ref,
        response: okOf(ctx, 'entities/template'),
      }),
      async (req) => ok(await templates.edit(sessionOf(req).account, both(req)), '修改成功，请等待审核'),
    );

    app.post(
      '/autoTemplate/addBatch',
      route({
        tag: TAG,
        summary: '批量导入模板（multipart，文件字段 excel）',
        access: 'session',
        body: request(ctx, 'params/excel-upload'),
        response: okOf(ctx, 'responses/template-import'),
      }),
      async (req) => {
        if (!req.isMultipart()) throw new ApiError(400, MESSAGES.pickExcelFile);
        let buf: Buffer | undefined;
        try {
          for await (const part of req.parts()) {
            if (part.type === 'file') {
              if (part.fieldname === 'excel' && !buf) buf = await part.toBuffer();
              else part.file.resume();
            }
          }
        } catch (e) {
          if (codeOf(e) === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(413, '单个文件大小不能超过5M');
          throw e;
        }
        if (!buf || !buf.length) throw new ApiError(400, MESSAGES.pickExcelFile);
        let rows;
        try {
          rows = await readTemplateSheet(buf, sheet);
        } catch (e) {
          throw new ApiError(400, messageOf(e));
        }
        const result = await templates.importRows(sessionOf(req).account, rows);
        return ok(result, `共${result.importTotal}条，成功${result.importSuccess}条，失败${result.importFall}条`);
      },
    );

    app.get(
      '/autoTemplate/downloadExcelTemplate',
      route({ tag: TAG, summary: '下载模板导入模板（Excel）', access: 'session', response: fileReply(XLSX_MIME) }),
      async (req, reply) =>
        sendFile(
          reply,
          await templateWorkbook(sessionOf(req).account.user_type === UserType.Agent, sheet),
          '短信模板导入模板.xlsx',
        ),
    );

    app.post(
      '/autoTemplate/del',
      route({
        tag: TAG,
        summary: '删除模板（仅创建者）',
        access: 'session',
        body: ref,
        querystring: ref,
        response: okEmpty,
      }),
      async (req) => {
        await templates.remove(sessionOf(req).account, both(req).templateId);
        return ok(undefined, MESSAGES.deleted);
      },
    );
  };
}
