/**
 * MSW handlers and story data of the invoice screens, in the shapes of docs/api-invoice.md.
 * Stories only; the app never imports this.
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import { InvoiceStatus, type Invoice } from '@/generated/schemas';
import { fail, ok, type Calls } from '@/stories/mockApi';
import { answering } from '@/stories/pageRows';
import { labelled } from '@/stories/rows';
import { sendClients } from '@/stories/sendApi';
import type { CityNode, InvoiceInit } from './api';
import { invoices } from './data';

export const cityTree: CityNode[] = [
  {
    value: '上海市',
    label: '上海市',
    children: [
      {
        value: '市辖区',
        label: '市辖区',
        children: [
          { value: '浦东新区', label: '浦东新区' },
          { value: '徐汇区', label: '徐汇区' },
        ],
      },
    ],
  },
  {
    value: '浙江省',
    label: '浙江省',
    children: [{ value: '杭州市', label: '杭州市', children: [{ value: '西湖区', label: '西湖区' }] }],
  },
];

const base = {
  invoiceProject: '信息服务费',
  invoiceBody: 2,
  invoiceHead: '上海云讯通信科技有限公司',
  creditCode: '91310115MA1K4ABCD1',
  clientId: 'agent1',
  accountStr: 'agent1-上海云讯通信科技有限公司',
  applicantStr: 'agent1-上海云讯通信科技有限公司',
  remark: '',
  auditFailCause: '',
  expressCompanyStr: '',
  expressOrder: '',
  email: '',
  toPhone: '13800138001',
  companyRegAddr: '',
  telphone: '',
  bank: '',
  bankAccount: '',
  toName: '',
  toAddr: '',
  toAddrDetail: '',
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

/** one invoice in each status 0-5 */
export const invoiceRows = (): Invoice[] =>
  [
    { id: 106, status: 0, ...vat, invoiceAmount: '2000.00' },
    {
      id: 105,
      status: 1,
      invoiceType: 1,
      email: 'fp@youpin.local',
      invoiceAmount: '100.00',
      // applied for by the agent on behalf of its sub-account
      clientId: 'b20001',
      accountStr: 'b20001-上海优品电商有限公司',
      invoiceHead: '上海优品电商有限公司',
    },
    {
      id: 104,
      status: 2,
      invoiceType: 1,
      email: 'finance@demo.local',
      invoiceAmount: '300.00',
      auditFailCause: '纳税人识别号与抬头不符',
    },
    { id: 103, status: 3, ...vat, invoiceAmount: '1500.50' },
    {
      id: 102,
      status: 4,
      ...vat,
      invoiceAmount: '800.00',
      expressCompanyStr: '顺丰速运',
      expressOrder: 'SF1234567890',
    },
    { id: 101, status: 5, ...vat, invoiceAmount: '600.00', auditFailCause: '收件人拒收' },
  ].map((r, i) =>
    labelled(invoices.entity, {
      ...base,
      ...r,
      rowNum: i + 1,
      invoiceId: `FP20261120${String(r.id).padStart(6, '0')}`,
      invoiceAmountStr: r.invoiceAmount,
      createTimeStr: `2026-11-${String(10 + i).padStart(2, '0')} 10:00:00`,
      updateTime: Date.UTC(2026, 10, 20 + i),
      updateTimeStr: `2026-11-${String(20 + i).padStart(2, '0')} 08:00:00`,
    } as Invoice),
  );

export const initFor = (p: Partial<InvoiceInit> = {}): InvoiceInit => ({
  clientId: 'agent1',
  accountStr: 'agent1-上海云讯通信科技有限公司',
  canAmount: '50000.00',
  invoiceProject: '信息服务费',
  canChooseType: true,
  canChooseAccount: true,
  invoiceTypes: [1, 2],
  ordinary: {
    invoiceType: 1,
    invoiceBody: 2,
    invoiceHead: '上海云讯通信科技有限公司',
    creditCode: '91310115MA1K4ABCD1',
    email: 'finance@demo.local',
    toPhone: '13800138001',
  },
  addedTax: { invoiceType: 2, invoiceBody: 2 },
  ...p,
});

/** b20001 as its agent sees it on the application page: its own amount and saved information */
export const subAccountInit = initFor({
  clientId: 'b20001',
  accountStr: 'b20001-上海优品电商有限公司',
  canAmount: '1200.00',
  ordinary: {
    invoiceType: 1,
    invoiceBody: 2,
    invoiceHead: '上海优品电商有限公司',
    creditCode: '91310000MA1FL0XX2Q',
    email: 'fp@youpin.local',
    toPhone: '13900139000',
  },
  addedTax: { invoiceType: 2, invoiceBody: 2 },
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
    post('/invoice/invoiceList', 'list', (p) => {
      const page = Number(p.page ?? 1);
      const size = Number(p.rows ?? 15);
      const list = rows.filter(
        (r) =>
          (p.status === undefined || p.status === '' || String(r.status) === String(p.status)) &&
          (!p.invoiceType || String(r.invoiceType) === String(p.invoiceType)),
      );
      return {
        data: list.slice((page - 1) * size, page * size),
        totalRecord: list.length,
        page,
        rows: size,
        totalPage: Math.max(1, Math.ceil(list.length / size)),
      };
    }),
    post(
      '/invoice/invoiceDetailed',
      'detail',
      (p) => rows.find((x) => String(x.id) === String(p.id)) ?? fail(404, '发票不存在'),
    ),
    post('/invoice/invoiceCancelApply', 'cancel', (p) => {
      const r = rows.find((x) => x.id === p.id);
      if (!r) return fail(404, '发票不存在');
      if (r.status !== InvoiceStatus.Pending) return fail(500, '只有待审核的发票可以取消');
      Object.assign(r, labelled(invoices.entity, { ...r, status: InvoiceStatus.Cancelled }));
      return ok(r, '发票申请已取消');
    }),
  ];
}
