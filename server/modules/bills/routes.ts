import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { api, fileReply, listOf, okOf, pagingOnly, request } from '../../http/contract';
import { sendFile, XLSX_MIME } from '../../http/download';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { sessionOf } from '../../http/session';
import { ALARM_FORM, ALARM_MSG, type BillsService } from './service';

const TAG = '财务管理';

/** /finance/*: own bill, balance figures, credit history and credit alarm of an agent (docs/api-bills.md). */
export function billsRoutes(ctx: AppContext, bills: BillsService): FastifyPluginAsync {
  const alarm = okOf(ctx, 'responses/credit-alarm');
  return async (plugin) => {
    const app = api(plugin);
    app.post(
      '/finance/bill/self',
      route({
        tag: TAG,
        summary: '自有账单（账户流水，每页 15，最新在前）',
        access: 'agent',
        body: request(ctx, 'filters/own-bill', { paging: 'currentPage' }),
        response: listOf(ctx, 'entities/own-bill'),
      }),
      async (req) => ok(await bills.ownBill(sessionOf(req).account, req.body)),
    );
    app.post(
      '/finance/bill/self/export',
      route({
        tag: TAG,
        summary: '导出自有账单（Excel，条件同列表）',
        access: 'agent',
        body: request(ctx, 'filters/own-bill'),
        response: fileReply(XLSX_MIME),
      }),
      async (req, reply) => {
        const f = await bills.ownBillExport(sessionOf(req).account, req.body);
        return sendFile(reply, f.stream, f.name);
      },
    );
    app.get(
      '/finance/bill/data',
      route({
        tag: TAG,
        summary: '账户余额与可用额度',
        access: 'agent',
        response: okOf(ctx, 'responses/bill-figures'),
      }),
      async (req) => ok(await bills.billData(sessionOf(req).account)),
    );
    app.get(
      '/finance/creditHistories/list',
      route({
        tag: TAG,
        summary: '额度记录（提升 / 降低额度，每页 15）',
        access: 'agent',
        querystring: pagingOnly('currentPage'),
        response: listOf(ctx, 'entities/credit-history'),
      }),
      async (req) => ok(await bills.creditHistory(sessionOf(req).account, req.query)),
    );
    app.get(
      '/finance/agentBalanceAlarm/get',
      route({
        tag: TAG,
        summary: '额度提醒设置（本账户）',
        access: 'agent',
        querystring: request(ctx, 'params/bills-alarm-get'),
        response: alarm,
      }),
      async (req) => ok(await bills.alarmGet(sessionOf(req).account)),
    );
    app.get(
      '/finance/agentBalanceAlarm/getAcct',
      route({
        tag: TAG,
        summary: '额度提醒所属账户',
        access: 'agent',
        querystring: request(ctx, 'params/bills-alarm-account'),
        response: okOf(ctx, 'responses/alarm-account'),
      }),
      async (req) => ok(await bills.alarmAccount(sessionOf(req).account)),
    );
    app.post(
      '/finance/agentBalanceAlarm/edit',
      route({
        tag: TAG,
        summary: '设置额度提醒（forms/credit-alarm；0 表示不提醒）',
        access: 'agent',
        body: request(ctx, ALARM_FORM),
        response: alarm,
      }),
      async (req) => ok(await bills.alarmEdit(sessionOf(req).account, req.body), ALARM_MSG.saved),
    );
  };
}
