/**
 * 短信模板 calls (docs/api-templates.md): lists of smart and general templates, the agent's
 * sub-accounts for templates, add / edit / delete. Every call needs a session; the account
 * list is agent-only.
 */
import type { FastifyPluginAsync } from 'fastify';
import multipart from '@fastify/multipart';
import { ApiError } from '../../http/errors';
import { ok } from '../../http/reply';
import { enumOptionsOf, readTemplateSheet, templateWorkbook } from './batch';
import { sessionOf, type SessionService } from '../auth/session';
import type { TemplateService } from './service';

type Params = Record<string, unknown>;
const params = (req: { body?: unknown; query?: unknown }): Params => ({
  ...((req.query as Params) ?? {}),
  ...(req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Params) : {}),
});

export function templateRoutes(sessions: SessionService, templates: TemplateService): FastifyPluginAsync {
  return async (app) => {
    const auth = { preHandler: sessions.requireSession() };
    const agent = { preHandler: sessions.requireAgent() };

    app.post('/autoTemplate/list', auth, async (req) => ok(await templates.list(sessionOf(req).account, params(req))));

    app.post('/autoTemplate/commonlist', auth, async (req) => ok(await templates.commonList(params(req))));

    app.get('/autoTemplate/autoTemplateAccounts', agent, async (req) => {
      const agentId = (req.query as Params)?.agentId;
      return ok(await templates.accounts(sessionOf(req).account, agentId ? String(agentId) : undefined));
    });

    app.post('/autoTemplate/add', auth, async (req) => ok(await templates.add(sessionOf(req).account, params(req)), '新增成功，请等待审核'));

    app.post('/autoTemplate/edit', auth, async (req) => ok(await templates.edit(sessionOf(req).account, params(req)), '修改成功，请等待审核'));

    // Excel import (file field `excel`, like /sign/addsignBatch); multipart only here unless the app has it already
    if (!app.hasContentTypeParser('multipart/form-data')) await app.register(multipart, { limits: { fileSize: 5 * 1024 * 1024, files: 1 } });
    const labels = enumOptionsOf(app.ctx.schemas);

    app.post('/autoTemplate/addBatch', auth, async (req) => {
      if (!req.isMultipart()) throw new ApiError(400, '请选择要导入的Excel文件');
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
      if (!buf || !buf.length) throw new ApiError(400, '请选择要导入的Excel文件');
      let rows;
      try {
        rows = await readTemplateSheet(buf, labels);
      } catch (e) {
        throw new ApiError(400, (e as Error).message);
      }
      const result = await templates.importRows(sessionOf(req).account, rows);
      return ok(result, `共${result.importTotal}条，成功${result.importSuccess}条，失败${result.importFall}条`);
    });

    app.get('/autoTemplate/downloadExcelTemplate', auth, async (req, reply) => {
      const buf = await templateWorkbook(sessionOf(req).account.user_type === '1', labels);
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="template.xlsx"; filename*=UTF-8''${encodeURIComponent('短信模板导入模板.xlsx')}`)
        .send(buf);
    });

    app.post('/autoTemplate/del', auth, async (req) => {
      await templates.remove(sessionOf(req).account, params(req).templateId);
      return ok(undefined, '删除成功');
    });
  };
}
