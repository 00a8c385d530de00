/**
 * 短信模板 calls (docs/api-templates.md): lists of smart and general templates, the agent's
 * sub-accounts for templates, add / edit / delete. Every call needs a session; the account
 * list is agent-only.
 */
import type { FastifyPluginAsync } from 'fastify';
import multipart from '@fastify/multipart';
import type { AppContext } from '../../context';
import { ApiError } from '../../http/errors';
import { ok } from '../../http/reply';
import { clientId, listParams, params as paramSchema } from '../../http/params';
import { route, type RouteDecl } from '../../http/route';
import { formSchema } from '../../http/validation';
import { readTemplateSheet, templateSheetSchemas, templateWorkbook } from './batch';
import { sessionOf } from '../auth/session';
import { TEMPLATE_FORM, type TemplateService } from './service';
import { UserType } from '../../../common/generated/schemas';
import { MESSAGES } from '../../../common/schema/messages';

const TAG = '短信模板';

type Params = Record<string, unknown>;
const params = (req: { body?: unknown; query?: unknown }): Params => ({
  ...((req.query as Params) ?? {}),
  ...(req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Params) : {}),
});

export function templateRoutes(ctx: AppContext, templates: TemplateService): FastifyPluginAsync {
  /** a POST whose parameters may come in the body or the query: both follow `s` */
  const post = (d: Omit<RouteDecl, 'body' | 'querystring'>, s: Params) => route({ ...d, body: s, querystring: s });
  const templateId = paramSchema({ templateId: { title: '模板ID' } });
  return async (app) => {
    app.post('/autoTemplate/list', post({ tag: TAG, summary: '智能模板列表', access: 'session' }, listParams(ctx.schemas, 'template-smart')), async (req) =>
      ok(await templates.list(sessionOf(req).account, params(req))),
    );

    app.post('/autoTemplate/commonlist', post({ tag: TAG, summary: '通用模板列表（平台提供，已审核）', access: 'session' }, listParams(ctx.schemas, 'template-general')), async (req) =>
      ok(await templates.commonList(params(req))),
    );

    app.get<{ Querystring: { agentId?: string } }>(
      '/autoTemplate/autoTemplateAccounts',
      route({ tag: TAG, summary: '可选的子账户（模板归属）', access: 'agent', querystring: paramSchema({ agentId: clientId('代理商账户') }) }),
      async (req) => {
        const agentId = req.query.agentId;
        return ok(await templates.accounts(sessionOf(req).account, agentId ? String(agentId) : undefined));
      },
    );

    app.post('/autoTemplate/add', route({ tag: TAG, summary: '新增模板（代理商须选择子账户）', access: 'session', body: formSchema(ctx.schemas, TEMPLATE_FORM) }), async (req) =>
      ok(await templates.add(sessionOf(req).account, params(req)), '新增成功，请等待审核'),
    );

    // the template is looked up first (404 / 403 before the form's messages), then the form is checked as on add
    app.post('/autoTemplate/edit', post({ tag: TAG, summary: '修改模板（仅创建者，修改后重新审核；字段同 forms/template 加 templateId）', access: 'session' }, templateId), async (req) =>
      ok(await templates.edit(sessionOf(req).account, params(req)), '修改成功，请等待审核'),
    );

    // Excel import (file field `excel`, like /sign/addsignBatch); multipart only here unless the app has it already
    if (!app.hasContentTypeParser('multipart/form-data')) await app.register(multipart, { limits: { fileSize: 5 * 1024 * 1024, files: 1 } });
    const sheet = templateSheetSchemas(app.ctx.schemas);

    app.post('/autoTemplate/addBatch', route({ tag: TAG, summary: '批量导入模板（multipart，文件字段 excel）', access: 'session' }), async (req) => {
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
        if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(413, '单个文件大小不能超过5M');
        throw e;
      }
      if (!buf || !buf.length) throw new ApiError(400, MESSAGES.pickExcelFile);
      let rows;
      try {
        rows = await readTemplateSheet(buf, sheet);
      } catch (e) {
        throw new ApiError(400, (e as Error).message);
      }
      const result = await templates.importRows(sessionOf(req).account, rows);
      return ok(result, `共${result.importTotal}条，成功${result.importSuccess}条，失败${result.importFall}条`);
    });

    app.get('/autoTemplate/downloadExcelTemplate', route({ tag: TAG, summary: '下载模板导入模板（Excel）', access: 'session' }), async (req, reply) => {
      const buf = await templateWorkbook(sessionOf(req).account.user_type === UserType.Agent, sheet);
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="template.xlsx"; filename*=UTF-8''${encodeURIComponent('短信模板导入模板.xlsx')}`)
        .send(buf);
    });

    app.post('/autoTemplate/del', post({ tag: TAG, summary: '删除模板（仅创建者）', access: 'session' }, templateId), async (req) => {
      await templates.remove(sessionOf(req).account, params(req).templateId);
      return ok(undefined, MESSAGES.deleted);
    });
  };
}
