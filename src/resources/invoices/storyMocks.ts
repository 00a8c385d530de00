/**
 * MSW handlers and story data of the invoice screens, in the shapes of docs/api-invoice.md.
 * Stories only; the app never imports this.
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import { InvoiceStatus, type Invoice } from '@/generated/schemas';
import { fail, ok, type Calls } from '@/stories/mockApi';
import { answering } from '@/stories/pageRows';
import { labelled } from '@/stories/rows';
import { resourceApi } from '@/stories/resourceApi';
import { sendClients } from '@/stories/sendApi';
import type { CityNode, InvoiceInit } from './api';
import { invoices } from './data';

const node = (name: string, children?: CityNode[]): CityNode => ({ value: name, label: name, children });
export const cityTree: CityNode[] = [
  node('上海市', [node('市辖区', [node('浦东新区'), node('徐汇区')])]),
  node('浙江省', [node('杭州市', [node('西湖区')])]),
];

const agent1 = 'agent1-上海云讯通信科技有限公司';
const blank =
  'remark auditFailCause expressCompanyStr expressOrder email companyRegAddr telphone bank bankAccount toName toAddr toAddrDetail';
const base = {
  ...Object.fromEntries(blank.split(' ').map((k) => [k, ''])),
  invoiceProject: '信息服务费',
  invoiceBody: 2,
  invoiceHead: '上海云讯通信科技有限公司',
  creditCode: '91310115MA1K4ABCD1',
  clientId: 'agent1',
  accountStr: agent1,
  applicantStr: agent1,
  toPhone: '13800138001',
};
const vat = {
  invoiceType: 2,
  companyRegAddr: '上海市浦东新区碧波路690号',
  telphone: '021-12345678',
  bank: '招商银行上海张江支行',
  bankAccount: '6225880212345678',
  toName: '王建国',
  toAddr: '上海市/市辖区/浦东新区',
  toAddrDetail: '碧波路690号3号楼',
};
const youpin = { clientId: 'b20001', accountStr: 'b20001-上海优品电商有限公司', invoiceHead: '上海优品电商有限公司' };

/** an ordinary invoice mailed to `email` */
const ordinaryTo = (email: string) => ({ invoiceType: 1, email });
/** one invoice in each status 0-5, ids 106 down (105: applied for by the agent on behalf of its sub-account) */
export const invoiceRows = (): Invoice[] =>
  (
    [
      [vat, '2000.00'],
      [{ ...ordinaryTo('fp@youpin.local'), ...youpin }, '100.00'],
      [{ ...ordinaryTo('finance@demo.local'), auditFailCause: '纳税人识别号与抬头不符' }, '300.00'],
      [vat, '1500.50'],
      [{ ...vat, expressCompanyStr: '顺丰速运', expressOrder: 'SF1234567890' }, '800.00'],
      [{ ...vat, auditFailCause: '收件人拒收' }, '600.00'],
    ] as const
  ).map(([r, invoiceAmount], i) =>
    labelled(invoices.entity, {
      ...base,
      ...r,
      id: 106 - i,
      status: i,
      invoiceAmount,
      rowNum: i + 1,
      invoiceId: `FP20261120000${106 - i}`,
      invoiceAmountStr: invoiceAmount,
      createTimeStr: `2026-11-${10 + i} 10:00:00`,
      updateTime: Date.UTC(2026, 10, 20 + i),
      updateTimeStr: `2026-11-${20 + i} 08:00:00`,
    } as Invoice),
  );

const ordinary = { invoiceType: 1, invoiceBody: 2 };
export const initFor = (p: Partial<InvoiceInit> = {}): InvoiceInit => ({
  clientId: 'agent1',
  accountStr: agent1,
  canAmount: '50000.00',
  invoiceProject: '信息服务费',
  canChooseType: true,
  canChooseAccount: true,
  invoiceTypes: [1, 2],
  ordinary: {
    ...ordinary,
    invoiceHead: base.invoiceHead,
    creditCode: base.creditCode,
    email: 'finance@demo.local',
    toPhone: base.toPhone,
  },
  addedTax: { invoiceType: 2, invoiceBody: 2 },
  ...p,
});

/** b20001 as its agent sees it on the application page: its own amount and saved information */
export const subAccountInit = initFor({
  clientId: 'b20001',
  accountStr: youpin.accountStr,
  canAmount: '1200.00',
  ordinary: {
    ...ordinary,
    invoiceHead: youpin.invoiceHead,
    creditCode: '91310000MA1FL0XX2Q',
    email: 'fp@youpin.local',
    toPhone: '13900139000',
  },
});

export interface InvoiceApiOptions {
  calls?: Calls;
  rows?: Invoice[];
  init?: InvoiceInit;
  /** /invoice/initInvoice with a clientId: that sub-account's data (default: b20001's; others 403 无权访问) */
  accounts?: Record<string, InvoiceInit>;
  /** the answer of /invoice/checkObject (default: code 0) */
  check?: { code: number; msg: string; data?: unknown };
}

export function invoiceApi(opts: InvoiceApiOptions = {}): HttpHandler[] {
  const rows = opts.rows ?? invoiceRows();
  const { post } = answering(opts.calls);
  const canAmount = () => ({ canAmount: (opts.init ?? initFor()).canAmount });
  return [
    http.get('/static/scripts/city.json', () => HttpResponse.json(cityTree)),
    post('/send/getclients', 'getclients', () => sendClients),
    post('/invoice/initInvoice', 'init', (p) => {
      if (!p.clientId) return opts.init ?? initFor();
      return (opts.accounts ?? { b20001: subAccountInit })[p.clientId] ?? fail(403, '无权访问');
    }),
    http.post('/api/invoice/getCanInvoiceAmount', () => ok(canAmount())),
    post('/invoice/checkObject', 'check', () => (opts.check ? HttpResponse.json(opts.check) : canAmount())),
    post('/invoice/add', 'add', (p) => ok({ ...rows[0], ...p, id: 107, status: 0 }, '发票申请已提交，请等待审核')),
    ...resourceApi(invoices, {
      rows,
      calls: opts.calls,
      where: (r, p) =>
        (p.status === undefined || p.status === '' || String(r.status) === String(p.status)) &&
        (!p.invoiceType || String(r.invoiceType) === String(p.invoiceType)),
      one: (p) => rows.find((x) => String(x.id) === String(p.id)) ?? fail(404, '发票不存在'),
    }),
    post('/invoice/invoiceCancelApply', 'cancel', (p) => {
      const r = rows.find((x) => x.id === p.id);
      if (!r) return fail(404, '发票不存在');
      if (r.status !== InvoiceStatus.Pending) return fail(500, '只有待审核的发票可以取消');
      Object.assign(r, labelled(invoices.entity, { ...r, status: InvoiceStatus.Cancelled }));
      return ok(r, '发票申请已取消');
    }),
  ];
}
