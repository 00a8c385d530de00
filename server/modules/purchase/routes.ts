import { UserType } from '../../../common/generated/schemas';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { AppContext } from '../../context';
import { ok } from '../../http/reply';
import { errors } from '../../http/errors';
import { BAD_PARAM, id, listParams, params, text } from '../../http/params';
import { route } from '../../http/route';
import { formSchema } from '../../http/validation';
import { exportColumns, type ExportColumn, safeRow } from '../../lib/export-columns';
import { formatDateTime } from '../../lib/time';
import { sessionOf } from '../auth/session';
import { attachment, XLSX_MIME } from '../../http/download';
import { MAX_LINES, type OrderLine, type PurchaseService } from './service';
import { MESSAGES } from '../../../common/schema/messages';
import sendForm from '../../../schemas/forms/send.json';

const BUY = '购买短信';
/** 当前条件没有数据，无法导出 (forms/send.json x-messages, shared by every export) */
const NO_DATA = sendForm['x-messages'].noData;
const BILL = '账单';

/** at most this many rows in one bill export */
export const BILL_EXPORT_MAX = 100_000;

/** /sms/products, /sms/order/*, /finance/bill/{sms,rebate,purchaseHistory}, pools (docs/api-purchase.md). */
export function purchaseRoutes(ctx: AppContext, purchase: PurchaseService): FastifyPluginAsync {
  const productFilter = listParams(ctx.schemas, 'product');
  (productFilter.properties as Record<string, unknown>).product_id = id('产品编号（单个产品的购买页）');
  const smsBillFilter = listParams(ctx.schemas, 'sms-bill');
  const rebateFilter = listParams(ctx.schemas, 'rebate-bill');
  const recordFilter = listParams(ctx.schemas, 'purchase-record');
  const directFilter = listParams(ctx.schemas, 'direct-purchase-record');
  const poolFilter = listParams(ctx.schemas, 'pool');
  const numSchema = { title: '购买数量', type: ['string', 'integer'], maxLength: 10, errorMessage: BAD_PARAM };
  const jsmsBody = params({
    list: { type: 'array', title: '购买的产品（productId, purchaseNum）', maxItems: MAX_LINES, items: params({ productId: { title: '产品编号', type: ['string', 'integer'], maxLength: 10, errorMessage: BAD_PARAM }, purchaseNum: numSchema }), errorMessage: BAD_PARAM },
    requestId: text('请求编号（幂等）', 64),
  });

  /** an xlsx of these rows, streamed; refused with NO_DATA when there are none */
  const xlsx = (reply: FastifyReply, name: string, entity: string, columns: ExportColumn[], rows: Record<string, unknown>[]) => {
    if (!rows.length) throw errors.refused(NO_DATA);
    const out = new PassThrough();
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    const ws = wb.addWorksheet(name);
    ws.columns = exportColumns(ctx.schemas.registry, entity, columns);
    ws.getRow(1).font = { bold: true };
    (async () => {
      for (const r of rows) ws.addRow(safeRow(r)).commit();
      ws.commit();
      await wb.commit();
    })().catch((err) => {
      ctx.log.error({ err }, `${name} export failed`);
      out.destroy(err);
    });
    const file = `${name}_${formatDateTime(ctx.now()).replace(/\D/g, '')}.xlsx`;
    return reply.header('content-type', XLSX_MIME).header('content-disposition', attachment(file)).send(out);
  };
  const me = (req: FastifyRequest) => sessionOf(req).account;

  return async (app) => {
    app.post('/sms/products', route({ tag: BUY, summary: '产品列表（产品类型、运营商、产品名称或代码；带本账户折扣价、返点）', access: 'session', body: productFilter }), async (req) =>
      ok(await purchase.products(me(req), req.body)),
    );
    app.post('/sms/order/add', route({ tag: BUY, summary: '购买一种产品（product_id, num）：余额支付，加入产品池', access: 'session', body: formSchema(ctx.schemas, 'forms/purchase') }), async (req) => {
      const b = req.body as { product_id: number; num: string; requestId?: string };
      return ok(await purchase.purchase(me(req), [{ productId: b.product_id, num: String(b.num) }], b.requestId), MESSAGES.purchased);
    });
    app.post(
      '/sms/order/jsmsAdd',
      route({
        tag: BUY,
        summary: '购买多种产品（JSON：{ list: [{productId, purchaseNum}], requestId }）',
        access: 'session',
        body: jsmsBody,
      }),
      async (req) => {
        const b = req.body as { list?: { productId?: unknown; purchaseNum?: unknown }[]; requestId?: string };
        const lines: OrderLine[] = (b.list ?? []).map((l) => ({ productId: l.productId as number, num: l.purchaseNum === undefined || l.purchaseNum === null ? '' : String(l.purchaseNum) }));
        return ok(await purchase.purchase(me(req), lines, b.requestId), MESSAGES.purchased);
      },
    );

    app.get('/finance/bill/sms/data', route({ tag: BILL, summary: '短信账单页头：余额、可用返点、购买合计', access: 'session', querystring: params({}) }), async (req) => ok(await purchase.smsBillData(me(req))));
    app.post('/finance/bill/sms', route({ tag: BILL, summary: '短信账单（每页 15；国际为元，其余为条）', access: 'session', body: smsBillFilter }), async (req) => ok(await purchase.smsBill(me(req), req.body)));
    app.post('/finance/bill/sms/export', route({ tag: BILL, summary: '导出短信账单（xlsx）', access: 'session', body: smsBillFilter }), async (req, reply) =>
      xlsx(
        reply,
        '短信账单',
        'entities/sms-bill',
        [
          { key: 'order_id', width: 22 },
          { key: 'client_id', width: 12 },
          { key: 'name', width: 24 },
          { key: 'product_code', width: 14 },
          { key: 'product_name', width: 22 },
          { key: 'product_type_str', width: 10 },
          { key: 'operator_code_str', width: 10 },
          { key: 'area_code_str', width: 10 },
          { key: 'unit_price', width: 12 },
          { key: 'order_amount', width: 12 },
          { key: 'sms_balance_change_flag', width: 6 },
          { key: 'sms_balance_change_amount', width: 12 },
          { key: 'order_type_str', width: 10 },
          { key: 'create_time', width: 20 },
          { key: 'due_time', width: 20 },
        ],
        await purchase.smsBillRows(me(req), req.body, BILL_EXPORT_MAX),
      ),
    );

    app.get('/finance/bill/rebate', route({ tag: BILL, summary: '返点账单：可用返点、累计返点收入、累计返点支出与明细', access: 'session', querystring: rebateFilter }), async (req) =>
      ok(await purchase.rebateBill(me(req), req.query)),
    );
    app.post('/finance/bill/rebate/export', route({ tag: BILL, summary: '导出返点账单（xlsx）', access: 'session', body: rebateFilter }), async (req, reply) =>
      xlsx(
        reply,
        '返点账单',
        'entities/rebate-bill',
        [
          { key: 'id', width: 8 },
          { key: 'financial_type_str', width: 10 },
          { key: 'payment_type_str', width: 14 },
          { key: 'balance', width: 12 },
          { key: 'balance_after', width: 12 },
          { key: 'order_id', width: 22 },
          { key: 'remark', width: 30 },
          { key: 'create_time', width: 20 },
        ],
        await purchase.rebateRows(me(req), req.body, BILL_EXPORT_MAX),
      ),
    );

    app.post('/finance/bill/purchaseHistory', route({ tag: BILL, summary: '消费记录（套餐模式）', access: 'session', body: recordFilter }), async (req) => ok(await purchase.purchaseHistory(me(req), req.body)));
    app.post('/finance/bill/purchaseHistory/export', route({ tag: BILL, summary: '导出消费记录（套餐模式，xlsx）', access: 'session', body: recordFilter }), async (req, reply) => {
      const agent = me(req).user_type === UserType.Agent;
      const cols: ExportColumn[] = [
        { key: 'rownum', width: 6 },
        { key: 'client_id', width: 12 },
        { key: 'name', width: 24 },
        { key: 'orderTypeStr', width: 10 },
        { key: 'productTypeStr', width: 10 },
        { key: 'operatorCodeStr', width: 10 },
        { key: 'areaCodeStr', width: 10 },
        ...(agent ? [{ key: 'unit_price', width: 12 }] : []),
        { key: 'due_time', width: 12 },
        { key: 'order_number', width: 12 },
        { key: 'consumer_date', width: 12 },
        { key: 'create_time', width: 20 },
      ];
      return xlsx(reply, '消费记录', 'entities/purchase-record', cols, (await purchase.purchaseHistory(me(req), req.body, BILL_EXPORT_MAX)).list);
    });
    app.post('/finance/bill/direct/purchaseHistory', route({ tag: BILL, summary: '消费记录（直充模式：子账户充值、回退、失败返还、消费，来自账本）', access: 'session', body: directFilter }), async (req) =>
      ok(await purchase.directHistory(me(req), req.body)),
    );
    app.post('/finance/bill/direct/purchaseHistory/export', route({ tag: BILL, summary: '导出消费记录（直充模式，xlsx）', access: 'session', body: directFilter }), async (req, reply) =>
      xlsx(
        reply,
        '消费记录',
        'entities/direct-purchase-record',
        [
          { key: 'rownum', width: 6 },
          { key: 'clientid', width: 12 },
          { key: 'realname', width: 20 },
          { key: 'payment_type_str', width: 12 },
          { key: 'amount', width: 12 },
          { key: 'consumerDate', width: 12 },
          { key: 'create_time', width: 20 },
          { key: 'remark', width: 30 },
        ],
        (await purchase.directHistory(me(req), req.body, BILL_EXPORT_MAX)).list,
      ),
    );

    app.post('/agent/newpools', route({ tag: BUY, summary: '剩余条数（代理商：自己与名下子账户；未过期、有剩余）', access: 'agent', body: poolFilter }), async (req) => ok(await purchase.pools(me(req), req.body)));
    app.get('/client/pools', route({ tag: BUY, summary: '剩余条数（子账户自己的产品池）', access: 'session', querystring: poolFilter }), async (req) => ok(await purchase.pools(me(req), req.query)));
  };
}
