/** MSW handlers and story data of the purchase and bill screens (stories only). */
import { http, type HttpHandler } from 'msw';
import {
  BillPaymentType,
  FinancialType,
  type DirectPurchaseRecord,
  type InternationalPrice,
  type Pool,
  type Product,
  type PurchaseRecord,
  type RebateBill,
  type SmsBill,
} from '@/generated/schemas';
import { fail, ok, type Calls } from '@/stories/mockApi';
import { answering } from '@/stories/pageRows';
import { listOf } from '@/stories/sendApi';
import { listReply, NO_EXPORT_DATA } from '@/stories/listStates';
import { labelled, rowOf, table } from '@/stories/rows';
import { resourceApi } from '@/stories/resourceApi';
import * as data from './data';

/** the products on sale everywhere (their type's and carrier's labels from their enums), each for `days` days */
export const products: Product[] = table<Product & { days: number }>()(
  'product_id product_name product_code product_type operator_code unit_price discount discountPriceStr days',
  [1, '行业短信 1万条', 'HY-QW-1W', 0, 0, '0.0450', '95.00', '0.0428', 365],
  [2, '营销短信 1万条', 'YX-QW-1W', 1, 0, '0.0550', '90.00', '0.0495', 365],
  [3, '验证码短信 电信专享', 'YZM-DX-2W', 3, 3, '0.0430', '95.00', '0.0409', 180],
  [4, '国际短信余额 100元', 'GJ-QW-100', 2, 0, '1.0000', '100.00', '1.0000', 730],
).map(({ days, ...p }) => {
  const sold = { areaCodeStr: '全国', unitPriceStr: p.unit_price, dueTimeStr: `${days}天`, creator: 'admin' };
  return labelled<Product>(data.products.entity, { ...p, ...sold });
});
Object.assign(products[3], { pack_size: 100, packSizeStr: '100.00元' });

const agent = { client_id: 'a10001', name: '深圳云讯科技有限公司' };
/** a purchase of the agent's, nationwide */
const smsBill = rowOf<SmsBill>(data.smsBills.entity)({
  ...agent,
  operator_code_str: '全网',
  area_code_str: '全国',
  sms_balance_change_flag: '+',
  order_type: 0,
});
/** a bill of products[p] */
export const smsBills: SmsBill[] = table<SmsBill & { p: number }>()(
  'order_id p order_amount sms_balance_change_amount create_time due_time',
  ['20261125100000123456', 0, '427.50', '10000条', '2026-11-25 10:00:00', '2027-11-25 10:00:00'],
  ['20261124090000654321', 3, '100.00', '100元', '2026-11-24 09:00:00', '2028-11-23 09:00:00'],
).map(({ p, ...r }, i) => {
  const { product_code, product_name, product_type, unit_price } = products[p];
  return smsBill({ ...r, rownum: i + 1, product_code, product_name, product_type, unit_price });
});

const rebateBill = rowOf<RebateBill>(data.rebateBills.entity)({});
const order = smsBills[0].order_id;
export const rebateRows: RebateBill[] = table<RebateBill>()(
  'financial_type payment_type_str balance balance_after order_id remark create_time',
  [1, '购买短信抵扣', '-50.00', '0.00', order, `购买短信抵扣 订单${order}`, '2026-11-25 10:00:00'],
  [0, '返点', '50.00', '50.00', '', '2026年第三季度返点', '2026-10-01 09:00:00'],
).map((r, i) => rebateBill({ ...r, rownum: i + 1, id: 2 - i }));

export const packageRecords: PurchaseRecord[] = [
  {
    ...agent,
    rownum: 1,
    orderTypeStr: '购买',
    productTypeStr: '行业',
    operatorCodeStr: '全网',
    areaCodeStr: '全国',
    unit_price: '0.0450',
    due_time: '2027-11-25',
    order_number: '10000条',
    consumer_date: '2026-11-25',
    create_time: '2026-11-25 10:00:00',
  },
];

/** a sub-account's move on 2026-11-25 */
const directRecord = rowOf<DirectPurchaseRecord>(data.directPurchaseRecords.entity)({
  clientid: 'b20001',
  realname: '上海优品电商有限公司',
  consumerDate: '2026-11-25',
});
export const directRecords: DirectPurchaseRecord[] = table<DirectPurchaseRecord>()(
  'payment_type amount create_time remark',
  [BillPaymentType.SubAccountRecharge, '500.00', '2026-11-25 10:00:00', '月度充值'],
  [BillPaymentType.SubAccountConsumption, '-12.35', '2026-11-25 11:00:00', '短信发送 任务T202611250001'],
).map((r, i) => directRecord({ ...r, rownum: i + 1 }));

/** a pool of nationwide messages */
export const pools: Pool[] = table<Pool>()(
  'client_id client_name product_type_str sms_unitprice account_balance due_time dead',
  ['a10001', '深圳云讯科技有限公司', '通知', '0.0437', '500条', '2026-11-30 10:00:00', 0],
  ['b20001', '上海优品电商有限公司', '行业', '0.0428', '10000条', '2027-11-25 10:00:00', 1],
).map((r, i) => ({ operator_code_str: '全网', area_code_str: '全国', ...r, rownum: i + 1 }));

/** a country's price: its code and name are its prefix and Chinese name */
export const gjPrices: InternationalPrice[] = table<InternationalPrice>()(
  'intername areaname prefix intercode fee',
  ['United States', '美国', '1', 'US', '0.0800'],
  ['Japan', '日本', '81', 'JP', '0.3500'],
  ['Singapore', '新加坡', '65', 'SG', '0.2800'],
).map((p, i) => ({ rownum: i + 1, ...p, countryCode: p.prefix, countryName: p.areaname }));

export interface PurchaseMockOptions {
  calls?: Calls;
  products?: Product[];
  rebate?: string;
  balance?: string;
  bills?: SmsBill[];
  rebates?: RebateBill[];
  records?: PurchaseRecord[];
  direct?: DirectPurchaseRecord[];
  pools?: Pool[];
  prices?: InternationalPrice[];
  /** what a purchase answers (default: success) */
  buyAnswer?: { code: number; msg: string };
}

export function purchaseHandlers(o: PurchaseMockOptions = {}): HttpHandler[] {
  const { post } = answering(o.calls);
  const page = (p: Record<string, any>) => [Number(p.currentPage ?? 1), Number(p.pageRowCount ?? 15)] as const;
  const rebate = o.rebate ?? '50.00';
  const order = { orderId: '20261125100000123456', total: '449.35' };
  const bought = (p: Record<string, any>) =>
    o.buyAnswer && o.buyAnswer.code !== 0
      ? fail(o.buyAnswer.code, o.buyAnswer.msg)
      : ok({ ...order, rebate, paid: '399.35', balance: '49600.65', rebateUseable: '0.00', request: p }, '购买成功');
  return [
    ...resourceApi(data.products, {
      rows: o.products ?? products,
      calls: o.calls,
      where: (x, p) =>
        (!p.product_id || String(x.product_id) === String(p.product_id)) &&
        (!p.product_type || String(x.product_type) === String(p.product_type)) &&
        (!p.keyword || x.product_name.includes(p.keyword) || x.product_code.includes(p.keyword)),
      extra: () => ({ rebate_useable: rebate, balance: o.balance ?? '50000.00' }),
    }),
    http.get('/api/finance/bill/sms/data', () =>
      ok({ balance: o.balance ?? '50000.00', rebate_useable: rebate, purchase_amount: '527.50', purchase_count: 2 }),
    ),
    post('/sms/order/add', 'add', bought),
    post('/sms/order/jsmsAdd', 'jsmsAdd', bought),
    listReply(data.smsBills, o.bills ?? smsBills),
    // every bill's export: nothing to export
    ...['sms', 'rebate', 'purchaseHistory', 'direct/purchaseHistory'].map((bill) =>
      http.post(`/api/finance/bill/${bill}/export`, () => fail(500, NO_EXPORT_DATA)),
    ),
    http.get('/api/finance/bill/rebate', async () => {
      const rows = o.rebates ?? rebateRows;
      const sum = (t: FinancialType) =>
        rows.filter((r) => r.financial_type === t).reduce((s, r) => s + Number(r.balance), 0);
      return ok({
        rebate_income: rebate === '50.00' && rows.length ? '0.00' : rebate,
        accumulated_rebate_income: sum(FinancialType.Income).toFixed(2),
        accumulated_rebate_pay: (-sum(FinancialType.Expense)).toFixed(2),
        ...listOf(rows),
      });
    }),
    listReply(data.purchaseRecords, o.records ?? packageRecords),
    listReply(data.directPurchaseRecords, o.direct ?? directRecords),
    post('/agent/newpools', 'pools', (p) => listOf(o.pools ?? pools, ...page(p))),
    http.get('/api/client/pools', () => ok(listOf((o.pools ?? pools).filter((x) => x.client_id === 'b20001')))),
    http.get('/api/sms/gj/prices', () => ok(o.prices ?? gjPrices)),
  ];
}
