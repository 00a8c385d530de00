import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { api, arrayOf, fileReply, listOf, okOf, request, type SchemaRef } from '../../http/contract';
import { sendFile, XLSX_MIME } from '../../http/download';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { sessionOf } from '../../http/session';
import type { ReportsService } from './service';

const REPORTS = '报表';
const HOME = '首页';

/**
 * query and body together, both validated by the route's schema and typed by it (GET routes read
 * the query, POST the form body; older callers put parameters in the query)
 */
const input = <Q extends object, B extends object>(req: { query: Q; body: B }): Q & B => ({
  ...req.query,
  ...req.body,
});

/** Reports, the dashboard's figures and the remaining pieces (docs/api-reports.md). */
export function reportsRoutes(ctx: AppContext, reports: ReportsService): FastifyPluginAsync {
  const filter = request(ctx, 'filters/report', { paging: 'currentPage' });
  const remainFilter = request(ctx, 'filters/remain');
  const oneClient = request(ctx, 'params/reports-client');
  const me = (req: FastifyRequest) => sessionOf(req).account;
  const range = {
    start_time_day: { type: 'string', title: '开始日期' },
    end_time_day: { type: 'string', title: '结束日期' },
  };
  const totals: SchemaRef = { $ref: 'responses/report-totals', title: '合计（全部行，不只本页）' };
  const reportPage = listOf(ctx, 'entities/report-row', { ...range, totals });
  const week = okOf(ctx, 'responses/week-submits');
  const remain = okOf(ctx, 'responses/remain-list');
  const users = arrayOf(ctx, 'responses/report-account');

  return async (plugin) => {
    const app = api(plugin);
    for (const side of ['pre', 'suf'] as const) {
      const tab = side === 'pre' ? '子账户(预付费) / 普通短信' : '子账户(后付费) / 国际短信';
      app.post(
        `/client/report/consume/${side}total`,
        route({
          tag: REPORTS,
          summary: `消费报表：每个子账户一行（${tab}）`,
          access: 'session',
          body: filter,
          querystring: filter,
          response: reportPage,
        }),
        async (req) => ok(await reports.total(me(req), side, input(req))),
      );
      app.get(
        `/client/report/consume/${side}day`,
        route({
          tag: REPORTS,
          summary: `消费日报表：一个子账户每天一行（${tab}；id = 子账户）`,
          access: 'session',
          querystring: filter,
          response: reportPage,
        }),
        async (req) => ok(await reports.daily(me(req), side, req.query)),
      );
    }
    app.post(
      '/client/report/consume/consumeReportTotalExport',
      route({
        tag: REPORTS,
        summary: '导出消费报表（xlsx；paytype 0 预付费 / 1 后付费）',
        access: 'session',
        body: filter,
        querystring: filter,
        response: fileReply(XLSX_MIME),
      }),
      async (req, reply) => {
        const f = await reports.export(me(req), false, input(req));
        return sendFile(reply, f.stream, f.name);
      },
    );
    app.post(
      '/client/report/consume/consumeReportDayExport',
      route({
        tag: REPORTS,
        summary: '导出消费日报表（xlsx；id = 子账户，paytype 0 预付费 / 1 后付费）',
        access: 'session',
        body: filter,
        querystring: filter,
        response: fileReply(XLSX_MIME),
      }),
      async (req, reply) => {
        const f = await reports.export(me(req), true, input(req));
        return sendFile(reply, f.stream, f.name);
      },
    );
    app.get(
      '/client/consume/user',
      route({
        tag: REPORTS,
        summary: '报表的子账户选择列表',
        access: 'agent',
        querystring: request(ctx, 'params/reports-users'),
        response: users,
      }),
      async (req) => ok(await reports.users(me(req))),
    );

    app.get(
      '/client/report/delivery',
      route({
        tag: REPORTS,
        summary: '投递分析：近 7 / 30 天（含今天）按天、运营商、省份的成功率与失败原因',
        access: 'session',
        querystring: request(ctx, 'params/delivery-stats'),
        response: okOf(ctx, 'entities/delivery-stats'),
      }),
      async (req) => ok(await reports.delivery(me(req), req.query)),
    );
    app.get(
      '/index/dataoftoday',
      route({
        tag: HOME,
        summary: '今日数据：提交、发送中、成功、失败、未知、拦截',
        access: 'session',
        querystring: oneClient,
        response: okOf(ctx, 'entities/today-stats'),
      }),
      async (req) => ok(await reports.todayStats(me(req), req.query)),
    );
    app.post(
      '/WeekSubmitNumber',
      route({
        tag: HOME,
        summary: '近 7 天每天的提交、成功、失败（代理商：全部账户）',
        access: 'session',
        body: oneClient,
        querystring: oneClient,
        response: week,
      }),
      async (req) => ok(await reports.week(me(req), input(req))),
    );
    app.get(
      '/index/agentOverview',
      route({
        tag: HOME,
        summary: '代理商概览：消费排行、余额不足与产品池即将过期的子账户',
        access: 'agent',
        response: okOf(ctx, 'entities/agent-overview'),
      }),
      async (req) => ok(await reports.agentOverview(me(req))),
    );
    app.get(
      '/index/clientsmsdetail',
      route({
        tag: HOME,
        summary: '剩余条数：未过期的产品池（7 天内到期：即将过期）',
        access: 'session',
        querystring: remainFilter,
        response: remain,
      }),
      async (req) => ok(await reports.remain(me(req), req.query)),
    );
  };
}
