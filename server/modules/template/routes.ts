/**
 * 短信模板 calls (docs/api-templates.md): lists of smart and general templates, the agent's
 * sub-accounts for templates, add / edit / delete. Every call needs a session; the account
 * list is agent-only.
 */
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/reply';
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

    app.post('/autoTemplate/del', auth, async (req) => {
      await templates.remove(sessionOf(req).account, params(req).templateId);
      return ok(undefined, '删除成功');
    });
  };
}
