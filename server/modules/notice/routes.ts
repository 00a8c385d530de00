import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { api, arrayOf, dataPageOf, okOf, request } from '../../http/contract';
import { ok } from '../../http/reply';
import { pagingOf } from '../../http/paging';
import { route } from '../../http/route';
import type { NoticeService } from './service';

const TAG = '公告';

export function noticeRoutes(ctx: AppContext, notices: NoticeService): FastifyPluginAsync {
  const pageParams = request(ctx, 'params/notice-page');
  return async (plugin) => {
    const app = api(plugin);
    // the console posts a form; links may carry the same parameters in the query
    app.post(
      '/agent/noticePage',
      route({
        tag: TAG,
        summary: '公告分页列表（置顶在前，最新在前）',
        access: 'session',
        body: pageParams,
        querystring: pageParams,
        response: dataPageOf(ctx, 'entities/notice'),
      }),
      async (req) => {
        const p = { ...req.query, ...req.body };
        return ok(await notices.page((p.searchContent ?? p.noticeName ?? p.content ?? '').slice(0, 100), pagingOf(p)));
      },
    );

    app.get(
      '/agent/notice',
      route({
        tag: TAG,
        summary: '最新公告（首页，最多 10 条）',
        access: 'session',
        response: arrayOf(ctx, 'entities/notice'),
      }),
      async () => ok(await notices.latest()),
    );

    app.get(
      '/agent/notice/detail',
      route({
        tag: TAG,
        summary: '公告详情',
        access: 'session',
        querystring: request(ctx, 'params/notice-detail'),
        response: okOf(ctx, 'entities/notice'),
      }),
      async (req) => ok(await notices.detail(req.query.noticeId)),
    );
  };
}
