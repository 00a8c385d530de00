import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { api, dataPageOf, okOf, request } from '../../http/contract';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { sessionOf } from '../../http/session';
import { InvoiceType } from '../../../common/generated/schemas';
import { cityJson, INVOICE_MESSAGES, invoicePayload, type InvoiceService } from './service';

const TAG = '发票';

/** /invoice/*: invoiceable amount, saved information, check and submit, list, detail, cancel. */
export function invoiceRoutes(ctx: AppContext, invoices: InvoiceService): FastifyPluginAsync {
  const form = request(ctx, 'forms/invoice');
  const info = okOf(ctx, 'responses/invoice-info');
  const invoice = okOf(ctx, 'entities/invoice');
  // the account asked about: an agent's own sub-account (clientId), else the caller (a sub-account's clientId is ignored)
  const which = request(ctx, 'params/invoice-account');
  return async (plugin) => {
    const app = api(plugin);
    app.post(
      '/invoice/getCanInvoiceAmount',
      route({
        tag: TAG,
        summary: '可开票金额（已付款充值合计 − 未取消、未驳回、未退回的发票）；代理商可带 clientId 查名下子账户的',
        access: 'session',
        body: which,
        response: okOf(ctx, 'responses/invoiceable-amount'),
      }),
      async (req) => ok({ canAmount: await invoices.canAmount(sessionOf(req).account, req.body.clientId) }),
    );
    app.post(
      '/invoice/getOrdinaryInvoiceConfig',
      route({
        tag: TAG,
        summary: '上次保存的普通电子发票信息（代理商可带 clientId：名下子账户的）',
        access: 'session',
        body: which,
        response: info,
      }),
      async (req) => ok(await invoices.config(sessionOf(req).account, InvoiceType.ElectronicNormal, req.body.clientId)),
    );
    app.post(
      '/invoice/getAddedTaxInvoiceConfig',
      route({
        tag: TAG,
        summary: '上次保存的增值税专用电子发票信息（代理商可带 clientId：名下子账户的）',
        access: 'session',
        body: which,
        response: info,
      }),
      async (req) =>
        ok(await invoices.config(sessionOf(req).account, InvoiceType.ElectronicVatSpecial, req.body.clientId)),
    );
    app.post(
      '/invoice/initInvoice',
      route({
        tag: TAG,
        summary:
          '申请页初始数据：开票账户、可开票金额、开票项目、可选发票类型、两类已保存信息（代理商可带 clientId：名下子账户的）',
        access: 'session',
        body: which,
        response: okOf(ctx, 'responses/invoice-init'),
      }),
      async (req) => ok(await invoices.init(sessionOf(req).account, req.body.clientId)),
    );
    app.post(
      '/invoice/checkObject',
      route({
        tag: TAG,
        summary: '检查发票申请（规则同提交，不保存；clientId：代名下子账户申请）',
        access: 'session',
        body: form,
        response: okOf(ctx, 'responses/invoiceable-amount'),
        // a sub-account's invoice type is always 1 (it does not choose)
        payload: invoicePayload,
      }),
      async (req) => ok(await invoices.check(sessionOf(req).account, req.body)),
    );
    app.post(
      '/invoice/add',
      route({
        tag: TAG,
        summary: '提交发票申请（金额不超过开票账户的可开票金额，锁定该账户后检查；clientId：代理商代名下子账户申请）',
        access: 'session',
        body: form,
        response: invoice,
        // a sub-account's invoice type is always 1 (it does not choose)
        payload: invoicePayload,
      }),
      async (req) => ok(await invoices.apply(sessionOf(req).account, req.body), INVOICE_MESSAGES.applied),
    );
    app.post(
      '/invoice/invoiceList',
      route({
        tag: TAG,
        summary: '发票申请记录（page + rows）',
        access: 'session',
        body: request(ctx, 'filters/invoice', { paging: 'page' }),
        response: dataPageOf(ctx, 'entities/invoice'),
      }),
      async (req) => ok(await invoices.list(sessionOf(req).account, req.body)),
    );
    app.post(
      '/invoice/invoiceDetailed',
      route({
        tag: TAG,
        summary: '发票申请详情',
        access: 'session',
        body: request(ctx, 'params/invoice-detail'),
        response: invoice,
      }),
      async (req) => ok(await invoices.detail(sessionOf(req).account, req.body)),
    );
    app.post(
      '/invoice/invoiceCancelApply',
      route({
        tag: TAG,
        summary: '取消发票申请（仅待审核；updateTime 须为列表中的值）',
        access: 'session',
        body: request(ctx, 'params/invoice-cancel'),
        response: invoice,
      }),
      async (req) => ok(await invoices.cancel(sessionOf(req).account, req.body), INVOICE_MESSAGES.cancelled),
    );
  };
}

/** GET /static/scripts/city.json: the address picker's province/city/district tree (outside /api). */
export function cityRoutes(app: FastifyInstance) {
  app.get(
    '/static/scripts/city.json',
    route({
      tag: TAG,
      summary: '省市区数据（地址选择）',
      access: 'public',
      response: {
        200: {
          description: '省市区树（JSON）',
          content: {
            'application/json': {
              schema: { type: 'array', items: { type: 'object' } },
            },
          },
        },
      },
    }),
    async (_req, reply) =>
      reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('cache-control', 'public, max-age=86400')
        .send(cityJson()),
  );
}
