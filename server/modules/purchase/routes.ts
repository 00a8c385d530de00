import { UserType } from '../../../common/generated/schemas';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import type { JsonSchema } from '../../../common/schema';
import { api, fileReply, listOf, okOf, request } from '../../http/contract';
import { ok } from '../../http/reply';
import { errors } from '../../http/errors';
import { route } from '../../http/route';
import type { ExportColumn } from '../../lib/export-columns';
import { xlsxStream } from '../../lib/xlsx-export';
import { formatDateTime } from '../../lib/time';
import { sessionOf } from '../../http/session';
import { sendFile, XLSX_MIME } from '../../http/download';
import type { OrderLine, PurchaseService } from './service';
import { MESSAGES } from '../../../common/schema/messages';
import sendForm from '../../../schemas/forms/send.json';

const BUY = '购买短信';
/** 当前条件没有数据，无法导出 (forms/send.json x-messages, shared by every export) */
const NO_DATA = sendForm['x-messages'].noData;
const BILL = '账单';

/** at most this many rows in one bill export */
export const BILL_EXPORT_MAX = 100_000;

// ---- answers the entity schemas do not cover (their fields' titles in Chinese)

const str = (title: string): JsonSchema => ({ type: 'string', title });
const PRODUCT_PAGE = {
  hy_sms_discount: str('行业短信折扣(%)'),
  yx_sms_discount: str('营销短信折扣(%)'),
  gj_sms_discount: str('国际短信折扣(%)'),
  rebate_useable: str('可用返点(元)'),
  rebate_threshold: str('返点抵扣起点(元)'),
  balance: str('余额(元)'),
};
const REBATE_PAGE = {
  rebate_income: str('可用返点(元)'),
  accumulated_rebate_income: str('累计返点收入(元)'),
  accumulated_rebate_pay: str('累计返点支出(元)'),
};

/** /sms/products, /sms/order/*, /finance/bill/{sms,rebate,purchaseHistory}, pools (docs/api-purchase.md). */
export function purchaseRoutes(ctx: AppContext, purchase: PurchaseService): FastifyPluginAsync {
  const products = request(ctx, 'params/product-list', { paging: 'currentPage' });
  const smsBill = request(ctx, 'filters/sms-bill', { paging: 'currentPage' });
  const smsBillExport = request(ctx, 'filters/sms-bill');
  const rebate = request(ctx, 'filters/rebate-bill', { paging: 'currentPage' });
  const rebateExport = request(ctx, 'filters/rebate-bill');
  const records = request(ctx, 'filters/purchase-record', { paging: 'currentPage' });
  const recordsExport = request(ctx, 'filters/purchase-record');
  const direct = request(ctx, 'filters/direct-purchase-record', { paging: 'currentPage' });
  const directExport = request(ctx, 'filters/direct-purchase-record');
  const pools = request(ctx, 'filters/pool', { paging: 'currentPage' });
  const xlsxFile = fileReply(XLSX_MIME);

  /** an xlsx of these rows, streamed; refused with NO_DATA when there are none */
  const xlsx = (
    reply: FastifyReply,
    name: string,
    entity: string,
    columns: ExportColumn[],
    rows: Record<string, unknown>[],
  ) => {
    if (!rows.length) throw errors.refused(NO_DATA);
    const out = xlsxStream(ctx, name, { sheet: name, entity, columns, rows: [rows] });
    return sendFile(reply, out, `${name}_${formatDateTime(ctx.now()).replace(/\D/g, '')}.xlsx`, { mime: XLSX_MIME });
  };
  const me = (req: FastifyRequest) => sessionOf(req).account;

  return async (plugin) => {
    const app = api(plugin);
    app.post(
      '/sms/products',
      route({
        tag: BUY,
        summary: '产品列表（产品类型、运营商、产品名称或代码；带本账户折扣价、返点）',
        access: 'session',
        body: products,
        response: listOf(ctx, 'entities/product', PRODUCT_PAGE),
      }),
      async (req) => ok(await purchase.products(me(req), req.body)),
    );
    app.post(
      '/sms/order/add',
      route({
        tag: BUY,
        summary: '购买一种产品（product_id, num）：余额支付，加入产品池',
        access: 'session',
        body: request(ctx, 'forms/purchase'),
        response: okOf(ctx, 'responses/purchase-order'),
      }),
      async (req) =>
        ok(
          await purchase.purchase(
            me(req),
            [{ productId: req.body.product_id, num: String(req.body.num) }],
            req.body.requestId,
            { useRebate: req.body.useRebate },
          ),
          MESSAGES.purchased,
        ),
    );
    app.post(
      '/sms/order/jsmsAdd',
      route({
        tag: BUY,
        summary: '购买多种产品（JSON：{ list: [{productId, purchaseNum}], requestId }）',
        access: 'session',
        body: request(ctx, 'params/purchase-order'),
        response: okOf(ctx, 'responses/purchase-order'),
      }),
      async (req) => {
        const lines: OrderLine[] = (req.body.list ?? []).map((l) => ({
          productId: l.productId ?? '',
          num: l.purchaseNum === undefined ? '' : String(l.purchaseNum),
        }));
        return ok(
          await purchase.purchase(me(req), lines, req.body.requestId, { useRebate: req.body.useRebate }),
          MESSAGES.purchased,
        );
      },
    );
    app.get(
      '/finance/bill/sms/data',
      route({
        tag: BILL,
        summary: '短信账单页头：余额、可用返点、购买合计',
        access: 'session',
        response: okOf(ctx, 'responses/sms-bill-figures'),
      }),
      async (req) => ok(await purchase.smsBillData(me(req))),
    );
    app.post(
      '/finance/bill/sms',
      route({
        tag: BILL,
        summary: '短信账单（每页 15；国际为元，其余为条）',
        access: 'session',
        body: smsBill,
        response: listOf(ctx, 'entities/sms-bill'),
      }),
      async (req) => ok(await purchase.smsBill(me(req), req.body)),
    );
    app.post(
      '/finance/bill/sms/export',
      route({ tag: BILL, summary: '导出短信账单（xlsx）', access: 'session', body: smsBillExport, response: xlsxFile }),
      async (req, reply) =>
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

    app.get(
      '/finance/bill/rebate',
      route({
        tag: BILL,
        summary: '返点账单：可用返点、累计返点收入、累计返点支出与明细',
        access: 'session',
        querystring: rebate,
        response: listOf(ctx, 'entities/rebate-bill', REBATE_PAGE),
      }),
      async (req) => ok(await purchase.rebateBill(me(req), req.query)),
    );
    app.post(
      '/finance/bill/rebate/export',
      route({ tag: BILL, summary: '导出返点账单（xlsx）', access: 'session', body: rebateExport, response: xlsxFile }),
      async (req, reply) =>
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

    app.post(
      '/finance/bill/purchaseHistory',
      route({
        tag: BILL,
        summary: '消费记录（套餐模式）',
        access: 'session',
        body: records,
        response: listOf(ctx, 'entities/purchase-record'),
      }),
      async (req) => ok(await purchase.purchaseHistory(me(req), req.body)),
    );
    app.post(
      '/finance/bill/purchaseHistory/export',
      route({
        tag: BILL,
        summary: '导出消费记录（套餐模式，xlsx）',
        access: 'session',
        body: recordsExport,
        response: xlsxFile,
      }),
      async (req, reply) => {
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
        return xlsx(
          reply,
          '消费记录',
          'entities/purchase-record',
          cols,
          (await purchase.purchaseHistory(me(req), req.body, BILL_EXPORT_MAX)).list,
        );
      },
    );
    app.post(
      '/finance/bill/direct/purchaseHistory',
      route({
        tag: BILL,
        summary: '消费记录（直充模式：子账户充值、回退、失败返还、消费，来自账本）',
        access: 'session',
        body: direct,
        response: listOf(ctx, 'entities/direct-purchase-record'),
      }),
      async (req) => ok(await purchase.directHistory(me(req), req.body)),
    );
    app.post(
      '/finance/bill/direct/purchaseHistory/export',
      route({
        tag: BILL,
        summary: '导出消费记录（直充模式，xlsx）',
        access: 'session',
        body: directExport,
        response: xlsxFile,
      }),
      async (req, reply) =>
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

    app.post(
      '/agent/newpools',
      route({
        tag: BUY,
        summary: '剩余条数（代理商：自己与名下子账户；未过期、有剩余）',
        access: 'agent',
        body: pools,
        response: listOf(ctx, 'entities/pool'),
      }),
      async (req) => ok(await purchase.pools(me(req), req.body)),
    );
    app.get(
      '/client/pools',
      route({
        tag: BUY,
        summary: '剩余条数（子账户自己的产品池）',
        access: 'session',
        querystring: pools,
        response: listOf(ctx, 'entities/pool'),
      }),
      async (req) => ok(await purchase.pools(me(req), req.query)),
    );
  };
}
