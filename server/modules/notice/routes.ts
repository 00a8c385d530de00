import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/reply';
import { pagingOf } from '../../http/paging';
import type { SessionService } from '../auth/session';
import type { NoticeService } from './service';

type Params = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

export function noticeRoutes(sessions: SessionService, notices: NoticeService): FastifyPluginAsync {
  return async (app) => {
    const auth = { preHandler: sessions.requireSession() };

    app.post('/agent/noticePage', auth, async (req) => {
      const p = { ...(req.query as Params), ...((req.body as Params) ?? {}) };
      return ok(await notices.page(str(p.searchContent ?? p.noticeName ?? p.content).slice(0, 100), pagingOf(p)));
    });

    app.get('/agent/notice', auth, async () => ok(await notices.latest()));

    app.get('/agent/notice/detail', auth, async (req) => ok(await notices.detail((req.query as Params).noticeId)));
  };
}
