import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { ok } from '../../http/reply';
import { CURRENT_PAGE, clientId, listParams, params, text } from '../../http/params';
import { route } from '../../http/route';
import { formSchema } from '../../http/validation';
import { sessionOf } from '../auth/session';
import { attachment, XLSX_MIME } from '../records/service';
import { ALARM_FORM, ALARM_MSG, type BillsService } from './service';

const TAG = '财务管理';

/** /finance/*: own bill, balance figures, credit history and credit alarm of an agent (docs/api-bills.md). */
export function billsRoutes(ctx: AppContext, bills: BillsService): FastifyPluginAsync {
  const billFilter = listParams(ctx.schemas, 'own-bill');
  return async (app) => {
    app.post('/finance/bill/self', route({ tag: TAG, summary: '自有账单（账户流水，每页 15，最新在前）', access: 'agent', body: billFilter }), async (req) =>
      ok(await bills.ownBill(sessionOf(req).account, req.body)),
    );
    app.post('/finance/bill/self/export', route({ tag: TAG, summary: '导出自有账单（Excel，条件同列表）', access: 'agent', body: billFilter }), async (req, reply) => {
      const f = await bills.ownBillExport(sessionOf(req).account, req.body);
      return reply.header('content-type', XLSX_MIME).header('content-disposition', attachment(f.name)).send(f.stream);
    });
    app.get('/finance/bill/data', route({ tag: TAG, summary: '账户余额与可用额度', access: 'agent' }), async (req) => ok(await bills.billData(sessionOf(req).account)));
    app.get('/finance/creditHistories/list', route({ tag: TAG, summary: '额度记录（提升 / 降低额度，每页 15）', access: 'agent', querystring: params({ ...CURRENT_PAGE }) }), async (req) =>
      ok(await bills.creditHistory(sessionOf(req).account, req.query)),
    );
    app.get(
      '/finance/agentBalanceAlarm/get',
      route({ tag: TAG, summary: '额度提醒设置（本账户）', access: 'agent', querystring: params({ customerInfo: text('账户（只能是本账户，可不传）', 60) }) }),
      async (req) => ok(await bills.alarmGet(sessionOf(req).account)),
    );
    app.get('/finance/agentBalanceAlarm/getAcct', route({ tag: TAG, summary: '额度提醒所属账户', access: 'agent', querystring: params({ agentId: clientId('账户') }) }), async (req) =>
      ok(await bills.alarmAccount(sessionOf(req).account)),
    );
    app.post('/finance/agentBalanceAlarm/edit', route({ tag: TAG, summary: '设置额度提醒（forms/credit-alarm；0 表示不提醒）', access: 'agent', body: formSchema(ctx.schemas, ALARM_FORM) }), async (req) =>
      ok(await bills.alarmEdit(sessionOf(req).account, req.body), ALARM_MSG.saved),
    );
  };
}
