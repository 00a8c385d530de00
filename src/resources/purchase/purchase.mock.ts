/** MSW handlers and story data of the purchase and bill screens (stories only). */
import { http, type HttpHandler } from 'msw';
import {
  BillPaymentType,
  FinancialType,
  type Carrier,
  type DirectPurchaseRecord,
  type InternationalPrice,
  type Pool,
  type Product,
  type ProductType,
  type PurchaseRecord,
  type RebateBill,
  type SmsBill,
} from '@/generated/schemas';
import { fail, ok, type Calls } from '@/stories/mockApi';
import { answering } from '@/stories/pageRows';
import { listOf } from '@/stories/sendApi';
import { listReply, NO_EXPORT_DATA } from '@/stories/listStates';
import { labelled, rowOf } from '@/stories/rows';
import * as data from './data';

/** a product on sale everywhere (its type's and carrier's labels from their enums) */
const product = (
  id: number,
  name: string,
  code: string,
  type: ProductType,
  op: Carrier,
  unit: string,
  discount: string,
  discounted: string,
  days: number,
): Product =>
  labelled<Product>(data.products.entity, {
    product_id: id,
    product_name: name,
    product_code: code,
    product_type: type,
    operator_code: op,
    areaCodeStr: '全国',
    unit_price: unit,
    unitPriceStr: unit,
    discount,
    discountPriceStr: discounted,
    dueTimeStr: `${days}天`,
    creator: 'admin',
  });

export const products: Product[] = [
  product(1, '行业短信 1万条', 'HY-QW-1W', 0, 0, '0.0450', '95.00', '0.0428', 365),
  product(2, '营销短信 1万条', 'YX-QW-1W', 1, 0, '0.0550', '90.00', '0.0495', 365),
  product(3, '验证码短信 电信专享', 'YZM-DX-2W', 3, 3, '0.0430', '95.00', '0.0409', 180),
  {
    ...product(4, '国际短信余额 100元', 'GJ-QW-100', 2, 0, '1.0000', '100.00', '1.0000', 730),
    pack_size: 100,
    packSizeStr: '100.00元',
  },
];

/** a purchase of the agent's, nationwide */
const smsBill = rowOf<SmsBill>(data.smsBills.entity)({
  client_id: 'a10001',
  name: '深圳云讯科技有限公司',
  operator_code_str: '全网',
  area_code_str: '全国',
  sms_balance_change_flag: '+',
  order_type: 0,
});

export const smsBills: SmsBill[] = [
  smsBill({
    rownum: 1,
    order_id: '20261125100000123456',
    product_code: 'HY-QW-1W',
    product_name: '行业短信 1万条',
    product_type: 0,
    unit_price: '0.0450',
    order_amount: '427.50',
    sms_balance_change_amount: '10000条',
    create_time: '2026-11-25 10:00:00',
    due_time: '2027-11-25 10:00:00',
  }),
  smsBill({
    rownum: 2,
    order_id: '20261124090000654321',
    product_code: 'GJ-QW-100',
    product_name: '国际短信余额 100元',
    product_type: 2,
    unit_price: '1.0000',
    order_amount: '100.00',
    sms_balance_change_amount: '100元',
    create_time: '2026-11-24 09:00:00',
    due_time: '2028-11-23 09:00:00',
  }),
];

const rebateBill = rowOf<RebateBill>(data.rebateBills.entity)({});
export const rebateRows: RebateBill[] = [
  rebateBill({
    rownum: 1,
    id: 2,
    financial_type: 1,
    payment_type_str: '购买短信抵扣',
    balance: '-50.00',
    balance_after: '0.00',
    order_id: '20261125100000123456',
    remark: '购买短信抵扣 订单20261125100000123456',
    create_time: '2026-11-25 10:00:00',
  }),
  rebateBill({
    rownum: 2,
    id: 1,
    financial_type: 0,
    payment_type_str: '返点',
    balance: '50.00',
    balance_after: '50.00',
    order_id: '',
    remark: '2026年第三季度返点',
    create_time: '2026-10-01 09:00:00',
  }),
];

export const packageRecords: PurchaseRecord[] = [
  {
    rownum: 1,
    client_id: 'a10001',
    name: '深圳云讯科技有限公司',
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
export const directRecords: DirectPurchaseRecord[] = [
  directRecord({
    rownum: 1,
    payment_type: BillPaymentType.SubAccountRecharge,
    amount: '500.00',
    create_time: '2026-11-25 10:00:00',
    remark: '月度充值',
  }),
  directRecord({
    rownum: 2,
    payment_type: BillPaymentType.SubAccountConsumption,
    amount: '-12.35',
    create_time: '2026-11-25 11:00:00',
    remark: '短信发送 任务T202611250001',
  }),
];

/** a pool of nationwide messages */
const pool = (p: Omit<Pool, 'operator_code_str' | 'area_code_str'>): Pool => ({
  operator_code_str: '全网',
  area_code_str: '全国',
  ...p,
});
export const pools: Pool[] = [
  pool({
    rownum: 1,
    client_id: 'a10001',
    client_name: '深圳云讯科技有限公司',
    product_type_str: '通知',
    sms_unitprice: '0.0437',
    account_balance: '500条',
    due_time: '2026-11-30 10:00:00',
    dead: 0,
  }),
  pool({
    rownum: 2,
    client_id: 'b20001',
    client_name: '上海优品电商有限公司',
    product_type_str: '行业',
    sms_unitprice: '0.0428',
    account_balance: '10000条',
    due_time: '2027-11-25 10:00:00',
    dead: 1,
  }),
];

/** a country's price: its code and name are its prefix and Chinese name */
const price = (p: Omit<InternationalPrice, 'countryCode' | 'countryName'>): InternationalPrice => ({
  ...p,
  countryCode: p.prefix,
  countryName: p.areaname,
});
export const gjPrices: InternationalPrice[] = [
  price({ rownum: 1, intername: 'United States', areaname: '美国', prefix: '1', intercode: 'US', fee: '0.0800' }),
  price({ rownum: 2, intername: 'Japan', areaname: '日本', prefix: '81', intercode: 'JP', fee: '0.3500' }),
  price({ rownum: 3, intername: 'Singapore', areaname: '新加坡', prefix: '65', intercode: 'SG', fee: '0.2800' }),
];

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
  const bought = (p: Record<string, any>) =>
    o.buyAnswer && o.buyAnswer.code !== 0
      ? fail(o.buyAnswer.code, o.buyAnswer.msg)
      : ok(
          {
            orderId: '20261125100000123456',
            total: '449.35',
            rebate,
            paid: '399.35',
            balance: '49600.65',
            rebateUseable: '0.00',
            request: p,
          },
          '购买成功',
        );
  return [
    post('/sms/products', 'products', (p) => {
      let list = o.products ?? products;
      if (p.product_id) list = list.filter((x) => String(x.product_id) === String(p.product_id));
      if (p.product_type) list = list.filter((x) => String(x.product_type) === String(p.product_type));
      if (p.keyword)
        list = list.filter((x) => x.product_name.includes(p.keyword) || x.product_code.includes(p.keyword));
      return { ...listOf(list, ...page(p)), rebate_useable: rebate, balance: o.balance ?? '50000.00' };
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
      const income = rows
        .filter((r) => r.financial_type === FinancialType.Income)
        .reduce((s, r) => s + Number(r.balance), 0);
      const pay = rows
        .filter((r) => r.financial_type === FinancialType.Expense)
        .reduce((s, r) => s - Number(r.balance), 0);
      return ok({
        rebate_income: rebate === '50.00' && rows.length ? '0.00' : rebate,
        accumulated_rebate_income: income.toFixed(2),
        accumulated_rebate_pay: pay.toFixed(2),
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
