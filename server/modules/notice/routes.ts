import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { ok } from '../../http/reply';
import { pagingOf } from '../../http/paging';
import { listParams, PAGE_ROWS, params, text } from '../../http/params';
import { route } from '../../http/route';
import type { NoticeService } from './service';

const TAG = '公告';

interface NoticePageParams {
  searchContent?: string;
  noticeName?: string;
  content?: string;
  page?: number;
  rows?: number;
}

export function noticeRoutes(ctx: AppContext, notices: NoticeService): FastifyPluginAsync {
  const pageParams = listParams(ctx.schemas, 'notice', PAGE_ROWS);
  pageParams.properties.noticeName = text('公告标题（同 searchContent）', 1000);
  pageParams.properties.content = text('公告内容（同 searchContent）', 1000);
  return async (app) => {
    app.post<{ Body: NoticePageParams; Querystring: NoticePageParams }>(
      '/agent/noticePage',
      route({ tag: TAG, summary: '公告分页列表（置顶在前，最新在前）', access: 'session', body: pageParams, querystring: pageParams }),
      async (req) => {
        const p = { ...req.query, ...req.body };
        return ok(await notices.page(String(p.searchContent ?? p.noticeName ?? p.content ?? '').slice(0, 100), pagingOf(p as Record<string, unknown>)));
      },
    );

    app.get('/agent/notice', route({ tag: TAG, summary: '最新公告（首页，最多 10 条）', access: 'session' }), async () => ok(await notices.latest()));

    app.get<{ Querystring: { noticeId?: string } }>(
      '/agent/notice/detail',
      route({ tag: TAG, summary: '公告详情', access: 'session', querystring: params({ noticeId: { type: 'string', title: '公告编号' } }) }),
      async (req) => ok(await notices.detail(req.query.noticeId)),
    );
  };
}
