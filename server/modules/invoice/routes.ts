import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { ok } from '../../http/reply';
import { BAD_PARAM, id, listParams, PAGE_ROWS, params, text } from '../../http/params';
import { route } from '../../http/route';
import { formSchema } from '../../http/validation';
import { sessionOf } from '../auth/session';
import { InvoiceType } from '../../../common/generated/schemas';
import { cityJson, INVOICE_MESSAGES, invoicePayload, type InvoiceInput, type InvoiceService } from './service';

const TAG = '发票';

const invoiceTypeParam = { type: 'integer', title: '发票类型：1 普通电子发票，2 增值税专用电子发票', enum: [InvoiceType.ElectronicNormal, InvoiceType.ElectronicVatSpecial], errorMessage: BAD_PARAM };

/** /invoice/*: invoiceable amount, saved information, check and submit, list, detail, cancel. */
export function invoiceRoutes(ctx: AppContext, invoices: InvoiceService): FastifyPluginAsync {
  const form = formSchema(ctx.schemas, 'forms/invoice');
  // a sub-account's invoice type is always 1 (it does not choose)
  const payload = { preValidation: async (req: FastifyRequest) => void (req.body = invoicePayload(sessionOf(req).account, req.body)) };
  return async (app) => {
    app.post('/invoice/getCanInvoiceAmount', route({ tag: TAG, summary: '可开票金额（已付款充值合计 − 未取消、未驳回、未退回的发票）', access: 'session' }), async (req) =>
      ok({ canAmount: await invoices.canAmount(sessionOf(req).account) }),
    );
    app.post('/invoice/getOrdinaryInvoiceConfig', route({ tag: TAG, summary: '上次保存的普通电子发票信息', access: 'session' }), async (req) =>
      ok(await invoices.config(sessionOf(req).account, InvoiceType.ElectronicNormal)),
    );
    app.post('/invoice/getAddedTaxInvoiceConfig', route({ tag: TAG, summary: '上次保存的增值税专用电子发票信息', access: 'session' }), async (req) =>
      ok(await invoices.config(sessionOf(req).account, InvoiceType.ElectronicVatSpecial)),
    );
    app.post('/invoice/initInvoice', route({ tag: TAG, summary: '申请页初始数据：可开票金额、开票项目、可选发票类型、两类已保存信息', access: 'session' }), async (req) =>
      ok(await invoices.init(sessionOf(req).account)),
    );
    app.post<{ Body: InvoiceInput }>(
      '/invoice/checkObject',
      route({ tag: TAG, summary: '检查发票申请（规则同提交，不保存）', access: 'session', body: form, with: payload }),
      async (req) => ok(await invoices.check(sessionOf(req).account, req.body)),
    );
    app.post<{ Body: InvoiceInput }>(
      '/invoice/add',
      route({ tag: TAG, summary: '提交发票申请（金额不超过可开票金额，锁定账户后检查）', access: 'session', body: form, with: payload }),
      async (req) => ok(await invoices.apply(sessionOf(req).account, req.body), INVOICE_MESSAGES.applied),
    );
    app.post<{ Body: Record<string, unknown> }>(
      '/invoice/invoiceList',
      route({ tag: TAG, summary: '发票申请记录（page + rows）', access: 'session', body: listParams(ctx.schemas, 'invoice', PAGE_ROWS) }),
      async (req) => ok(await invoices.list(sessionOf(req).account, req.body ?? {})),
    );
    app.post<{ Body: { id: number; invoiceType?: number } }>(
      '/invoice/invoiceDetailed',
      route({ tag: TAG, summary: '发票申请详情', access: 'session', body: params({ id: id('发票编号'), invoiceType: invoiceTypeParam }, ['id']) }),
      async (req) => ok(await invoices.detail(sessionOf(req).account, req.body)),
    );
    app.post<{ Body: { id: number; invoiceId: string; status: number; updateTime: number } }>(
      '/invoice/invoiceCancelApply',
      route({
        tag: TAG,
        summary: '取消发票申请（仅待审核；updateTime 须为列表中的值）',
        access: 'session',
        body: params(
          {
            id: id('发票编号'),
            invoiceId: text('申请编号', 40),
            status: { type: 'integer', title: '当前状态（须为 0 待审核）', minimum: 0, maximum: 5, errorMessage: BAD_PARAM },
            updateTime: { type: 'integer', title: '更新时间（毫秒时间戳，列表中的 updateTime）', minimum: 0, maximum: 8_640_000_000_000_000, errorMessage: BAD_PARAM },
          },
          ['id', 'invoiceId', 'status', 'updateTime'],
        ),
      }),
      async (req) => ok(await invoices.cancel(sessionOf(req).account, req.body), INVOICE_MESSAGES.cancelled),
    );
  };
}

/** GET /static/scripts/city.json: the address picker's province/city/district tree (outside /api). */
export function cityRoutes(): FastifyPluginAsync {
  return async (app) => {
    app.get('/static/scripts/city.json', async (_req, reply) =>
      reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'public, max-age=86400').send(cityJson()),
    );
  };
}
