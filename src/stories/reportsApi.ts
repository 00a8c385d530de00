/**
 * MSW handlers and story data for the dashboard, the consumption reports and the remaining pools
 * (docs/api-reports.md shapes). Stories only; the app never imports this.
 */
import { http, type HttpHandler } from 'msw';
import { businessNow } from '@/lib/businessTime';
import type {
  AgentOverview,
  DeliveryStats,
  RemainList,
  RemainRow,
  ReportAccount,
  ReportRow,
  ReportTotals,
} from '@/generated/schemas';
import type { IndexData, TodayStats, WeekData } from '@/pages/dashboard/api';
import { fail, ok } from './mockApi';
import { answering } from './pageRows';
import { positional, rowOf } from './rows';
import { BUSY } from './listStates';
import { listOf, type Calls } from './sendApi';

export const todayStats: TodayStats = {
  submitTotal: 1286,
  sending: 12,
  sendSuccess: 1180,
  sendFail: 61,
  unknown: 25,
  intercept: 8,
};
export const noStats: TodayStats = {
  submitTotal: 0,
  sending: 0,
  sendSuccess: 0,
  sendFail: 0,
  unknown: 0,
  intercept: 0,
};

const days = () =>
  Array.from({ length: 7 }, (_, i) =>
    businessNow()
      .subtract(6 - i, 'day')
      .format('YYYY-MM-DD'),
  );
export const weekData = (): WeekData => ({
  dates: days(),
  submitTotal: [820, 932, 901, 1340, 1290, 960, 1286],
  sendSuccess: [790, 900, 870, 1300, 1250, 930, 1180],
  sendFail: [20, 22, 25, 30, 28, 20, 61],
  unknown: [10, 10, 6, 10, 12, 10, 25],
});
export const emptyWeek = (): WeekData => ({
  dates: days(),
  submitTotal: [0, 0, 0, 0, 0, 0, 0],
  sendSuccess: [0, 0, 0, 0, 0, 0, 0],
  sendFail: [0, 0, 0, 0, 0, 0, 0],
  unknown: [0, 0, 0, 0, 0, 0, 0],
});

const due = (n: number) => businessNow().add(n, 'day').format('YYYY-MM-DD HH:mm:ss');
export const indexData = (over: Partial<IndexData> = {}): IndexData => ({
  userType: '1',
  clientid: 'a10001',
  balance: '50000.00',
  agent_account_data: { available_line: '50000.00', balance: '50000.00' },
  data: { hy_remain_num: 98000, yzm_remain_num: 12000, tz_remain_num: 5000, yx_remain_num: 30000, gj_remain_amount: 0 },
  agent_pool_due_time_data: {
    hy_remain_num: 3000,
    yzm_remain_num: 0,
    tz_remain_num: 0,
    yx_remain_num: 0,
    gj_remain_amount: 0,
  },
  smsGivePoolData: { isShow: 0, smstypeStr: '', remainNumber: 0, dueTime: '' },
  expiringDays: 7,
  ...over,
});
export const subIndexData = (paytype: number): IndexData =>
  indexData({
    userType: '2',
    clientid: 'b20001',
    balance: '1200.00',
    paytype,
    agent_account_data: { available_line: '1200.00', balance: '1200.00' },
    smsGivePoolData: {
      isShow: 1,
      smstypeStr: '行业',
      remainNumber: 500,
      dueTime: due(60),
      list: [{ smstypeStr: '行业', remainNumber: 500, dueTime: due(60) }],
    },
  });

export const accountInfo = {
  clientid: 'b20001',
  ipAddress: 'sms.example.com',
  port: 443,
  smsfrom: 6,
  smsfrom_str: 'HTTPS',
  smsfromEnabled: true,
  smstype: 0,
  smstype_str: '通知',
  nodenum: '2',
  accessSpeed: 100,
  password: '********',
  passwordSet: true,
  doors: [
    { protocol: 'SMPP', enabled: false, host: 'sms.example.com', port: 0, url: '', login: 'client1' },
    { protocol: 'CMPP', enabled: false, host: 'sms.example.com', port: 0, url: '', login: 'cli001' },
    { protocol: 'SMGP', enabled: false, host: 'sms.example.com', port: 0, url: '', login: 'cli001' },
    { protocol: 'SGIP', enabled: false, host: 'sms.example.com', port: 0, url: '', login: 'cli001' },
    {
      protocol: 'HTTP',
      enabled: true,
      host: 'sms.example.com',
      port: 443,
      url: 'https://sms.example.com/openapi/v1',
      login: 'client1',
    },
  ],
  ip: '',
  needreport: 1,
  needreport_str: '简单状态报告（推送）',
  deliveryurl: 'https://shop.example.com/report',
  needmo: 0,
  needmo_str: '不需要',
  mourl: '',
  needextend: 0,
  needextend_str: '不支持',
  sgipCallbackHost: '',
  sgipCallbackPort: 0,
  sgipCallbackUser: '',
  sgipCallbackPassword: '',
  editable: false,
};

const report = rowOf<ReportRow>('report-row')({
  clientid: 'b20001',
  name: '上海优品电商有限公司',
  smstype: 0,
  paytype: 0,
  send_num: 1200,
  chargeTotal: 1180,
  success_num: 1150,
  not_known_num: 10,
  fail_num: 30,
  wait_send_num: 0,
  intercept_num: 10,
});
/** `rows` numbered 1, 2, … in their `rownum` */
const rownums = <T extends { rownum?: number }>(rows: T[]) => rows.map((r, i) => ({ ...r, rownum: i + 1 }));
/** a report row's figures: sent, charged, succeeded, failed, unknown, intercepted */
const figures = positional(report)(
  'send_num',
  'chargeTotal',
  'success_num',
  'fail_num',
  'not_known_num',
  'intercept_num',
);
const youhaogou = { clientid: 'b20002', name: '苏州好易购电子商务有限公司' };
export const preRows: ReportRow[] = rownums([
  report({}),
  figures(860, 860, 850, 10, undefined, 0, { smstype: 4 }),
  figures(3000, 2900, 2800, 100, 20, 80, { ...youhaogou, smstype: 5 }),
]);
export const postRows: ReportRow[] = rownums([
  figures(500, 495, 480, 5, 10, 5, { clientid: 'b20003', name: '杭州后付费客户', paytype: 1 }),
]);
export const dayRows = (): ReportRow[] =>
  rownums(
    [1, 2, 3].map((n) =>
      report({
        send_num: 400 + n,
        success_num: 380 + n,
        chargeTotal: 400 + n,
        date: businessNow().subtract(n, 'day').format('YYYY-MM-DD'),
      }),
    ),
  );

const pool = rowOf<RemainRow>('remain-row')({
  client_id: 'b20001',
  client_name: '上海优品电商有限公司',
  product_type: 0,
  operator_code: 0,
  area_code_str: '全国',
  sms_unitprice: '0.0350',
  account_balance: 20000,
  due_time: due(120),
  gift: 0,
  dead: 1,
});
export const remainRows: RemainRow[] = rownums([
  pool({ account_balance: 3000, due_time: due(3), dead: 0 }),
  pool({ product_type: 3, operator_code: 1, account_balance: 12000 }),
  pool({
    client_id: youhaogou.clientid,
    client_name: youhaogou.name,
    product_type: 1,
    account_balance: 30000,
    due_time: due(200),
  }),
]);

/** totals of report rows, as the server's `totals` (every row, not the page's) */
export const totalsOf = (rows: ReportRow[]): ReportTotals => {
  const sum = (k: keyof ReportRow) => rows.reduce((s, r) => s + Number(r[k] ?? 0), 0);
  const send = sum('send_num');
  const success = sum('success_num');
  return {
    send_num: send,
    chargeTotal: sum('chargeTotal'),
    success_num: success,
    not_known_num: sum('not_known_num'),
    fail_num: sum('fail_num'),
    wait_send_num: sum('wait_send_num'),
    intercept_num: sum('intercept_num'),
    success_rate: send ? Math.round((10_000 * success) / send) / 100 : 0,
  };
};
const withRates = (rows: ReportRow[]) =>
  rows.map((r) => ({ ...r, success_rate: r.send_num ? Math.round((10_000 * r.success_num) / r.send_num) / 100 : 0 }));
const reportPage = (rows: ReportRow[], page: number, size: number) => ({
  ...listOf(withRates(rows), page, size),
  totals: totalsOf(rows),
});

const fig = (submit: number, success: number, fail: number) => ({
  submit,
  success,
  fail,
  unknown: submit - success - fail,
  successRate: submit ? Math.round((10_000 * success) / submit) / 100 : 0,
});
/** 投递分析 of the last `days` days */
export const deliveryStats = (days = 7): DeliveryStats => {
  const dates = Array.from({ length: days }, (_, i) =>
    businessNow()
      .subtract(days - 1 - i, 'day')
      .format('YYYY-MM-DD'),
  );
  const byDay = dates.map((day, i) => ({
    day,
    ...fig(900 + ((i * 137) % 400), 850 + ((i * 131) % 380), 30 + (i % 5) * 4),
  }));
  const total = byDay.reduce(
    (a, d) => ({ submit: a.submit + d.submit, success: a.success + d.success, fail: a.fail + d.fail }),
    { submit: 0, success: 0, fail: 0 },
  );
  /** a share of the total: `submit`, `success` and `fail` its parts of each */
  const part = (submit: number, success: number, fail: number) =>
    fig(Math.round(total.submit * submit), Math.round(total.success * success), Math.round(total.fail * fail));
  return {
    days,
    start: dates[0],
    end: dates[days - 1],
    total: fig(total.submit, total.success, total.fail),
    byDay,
    byCarrier: [
      { carrier: 1, ...part(0.55, 0.56, 0.4) },
      { carrier: 2, ...part(0.25, 0.25, 0.3) },
      { carrier: 3, ...part(0.2, 0.19, 0.3) },
    ],
    byProvince: [
      { province: 44, provinceName: '广东', ...part(0.4, 0.41, 0.3) },
      { province: 31, provinceName: '上海', ...part(0.35, 0.35, 0.4) },
      { province: 32, provinceName: '江苏', ...part(0.25, 0.24, 0.3) },
    ],
    reasons: [
      { code: 'UNDELIV', meaning: '无法送达（空号、停机或关机）', count: Math.round(total.fail * 0.5) },
      { code: '001', meaning: '用户不存在或已停机', count: Math.round(total.fail * 0.3) },
      { code: 'EXPIRED', meaning: '超时未送达（关机或不在服务区）', count: Math.round(total.fail * 0.15) },
      {
        code: 'X9',
        meaning: '',
        count: total.fail - Math.round(total.fail * 0.5) - Math.round(total.fail * 0.3) - Math.round(total.fail * 0.15),
      },
    ],
  };
};
export const noDelivery = (days = 7): DeliveryStats => ({
  ...deliveryStats(days),
  total: fig(0, 0, 0),
  byDay: deliveryStats(days).byDay.map((d) => ({ day: d.day, ...fig(0, 0, 0) })),
  byCarrier: [],
  byProvince: [],
  reasons: [],
});

export interface ReportsApiOptions {
  /** /client/report/delivery: the answer by days (default deliveryStats), or a failure */
  delivery?: ((days: number) => DeliveryStats) | 'fail';
  calls?: Calls;
  today?: TodayStats;
  week?: WeekData;
  index?: IndexData;
  /** GET /index/agentOverview (default: nothing consumed, nothing to remind of) */
  overview?: AgentOverview;
  pre?: ReportRow[];
  post?: ReportRow[];
  days?: ReportRow[];
  remain?: RemainRow[];
}

/** Every call of the dashboard, reports and remaining pools; each call's parameters logged by name. */
export function reportsApi(opts: ReportsApiOptions = {}): HttpHandler[] {
  const { get, post } = answering(opts.calls);
  const page = (rows: ReportRow[]) => (p: Record<string, any>) =>
    reportPage(rows, Number(p.currentPage ?? 1), Number(p.pageRowCount ?? 15));
  return [
    get('/index/dataoftoday', 'dataoftoday', () => opts.today ?? todayStats),
    post('/WeekSubmitNumber', 'week', () => opts.week ?? weekData()),
    http.get('/api/index/data', () => ok(opts.index ?? indexData())),
    http.post('/api/account/getAccountInfo', () => ok(accountInfo)),
    http.get('/api/index/agentOverview', () =>
      ok(
        opts.overview ?? {
          days: 30,
          expiringDays: 7,
          lowBalanceDefault: '10.00',
          topConsumers: [],
          lowBalance: [],
          expiringPools: [],
        },
      ),
    ),
    post('/client/report/consume/pretotal', 'pretotal', page(opts.pre ?? preRows)),
    post('/client/report/consume/suftotal', 'suftotal', page(opts.post ?? postRows)),
    get('/client/report/consume/preday', 'preday', page(opts.days ?? dayRows())),
    get('/client/report/consume/sufday', 'sufday', page(opts.days ?? dayRows())),
    get('/client/report/delivery', 'delivery', (p) =>
      opts.delivery === 'fail' ? fail(500, BUSY) : (opts.delivery ?? deliveryStats)(Number(p.days ?? 7)),
    ),
    post('/client/report/consume/consumeReportTotalExport', 'totalExport', () =>
      fail(500, '当前条件没有数据，无法导出'),
    ),
    get('/index/clientsmsdetail', 'remain', (p) => {
      const rows = (opts.remain ?? remainRows).filter(
        (r) =>
          (p.product_type === undefined || String(r.product_type) === p.product_type) &&
          (p.operator_code === undefined || String(r.operator_code) === p.operator_code),
      );
      return { list: rows, totalCount: rows.length, total: null } satisfies RemainList;
    }),
    http.get('/api/client/consume/user', () =>
      ok<ReportAccount[]>([{ clientid: 'b20001', name: '上海优品电商有限公司' }]),
    ),
  ];
}
