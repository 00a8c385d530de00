import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { ok } from '../../http/reply';
import { CURRENT_PAGE, listParams, params, text } from '../../http/params';
import { route } from '../../http/route';
import { sessionOf } from '../auth/session';
import { attachment } from '../records/service';
import { XLSX_MIME, type ReportsService } from './service';

const REPORTS = '报表';
const HOME = '首页';

type Body = Record<string, unknown>;
/** query and body together (GET routes read the query, POST the form body; older callers put parameters in the query) */
const input = (req: FastifyRequest): Body => ({ ...((req.query as Body) ?? {}), ...((req.body as Body) ?? {}) });

/** Reports, the dashboard's figures and the remaining pieces (docs/api-reports.md). */
export function reportsRoutes(ctx: AppContext, reports: ReportsService): FastifyPluginAsync {
  const filter = listParams(ctx.schemas, 'report', CURRENT_PAGE);
  const remainFilter = listParams(ctx.schemas, 'remain', {});
  const oneClient = params({ clientId: text('账户（代理商：自己或名下子账户；空：全部）', 32), clientid: text('同 clientId', 32) });
  const me = (req: FastifyRequest) => sessionOf(req).account;
  const both = (s: Body) => ({ body: s, querystring: s });

  return async (app) => {
    for (const side of ['pre', 'suf'] as const) {
      const tab = side === 'pre' ? '子账户(预付费) / 普通短信' : '子账户(后付费) / 国际短信';
      app.post(`/client/report/consume/${side}total`, route({ tag: REPORTS, summary: `消费报表：每个子账户一行（${tab}）`, access: 'session', ...both(filter) }), async (req) =>
        ok(await reports.total(me(req), side, input(req))),
      );
      app.get(`/client/report/consume/${side}day`, route({ tag: REPORTS, summary: `消费日报表：一个子账户每天一行（${tab}；id = 子账户）`, access: 'session', querystring: filter }), async (req) =>
        ok(await reports.daily(me(req), side, input(req))),
      );
    }
    app.post(
      '/client/report/consume/consumeReportTotalExport',
      route({ tag: REPORTS, summary: '导出消费报表（xlsx；paytype 0 预付费 / 1 后付费）', access: 'session', ...both(filter) }),
      async (req, reply) => {
        const f = await reports.export(me(req), false, input(req));
        return reply.header('content-type', XLSX_MIME).header('content-disposition', attachment(f.name)).send(f.stream);
      },
    );
    app.post(
      '/client/report/consume/consumeReportDayExport',
      route({ tag: REPORTS, summary: '导出消费日报表（xlsx；id = 子账户，paytype 0 预付费 / 1 后付费）', access: 'session', ...both(filter) }),
      async (req, reply) => {
        const f = await reports.export(me(req), true, input(req));
        return reply.header('content-type', XLSX_MIME).header('content-disposition', attachment(f.name)).send(f.stream);
      },
    );
    app.get('/client/consume/user', route({ tag: REPORTS, summary: '报表的子账户选择列表', access: 'agent', querystring: params({ agentId: text('代理商（不使用：会话的代理商）', 32) }) }), async (req) =>
      ok(await reports.users(me(req))),
    );

    app.get('/index/dataoftoday', route({ tag: HOME, summary: '今日数据：提交、发送中、成功、失败、未知、拦截', access: 'session', querystring: oneClient }), async (req) =>
      ok(await reports.todayStats(me(req), input(req))),
    );
    app.post('/WeekSubmitNumber', route({ tag: HOME, summary: '近 7 天每天的提交、成功、失败（代理商：全部账户）', access: 'session', ...both(oneClient) }), async (req) =>
      ok(await reports.week(me(req), input(req))),
    );
    app.get('/index/clientsmsdetail', route({ tag: HOME, summary: '剩余条数：未过期的产品池（7 天内到期：即将过期）', access: 'session', querystring: remainFilter }), async (req) =>
      ok(await reports.remain(me(req), input(req))),
    );
  };
}
