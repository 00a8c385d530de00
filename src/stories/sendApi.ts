/**
 * MSW handlers and story data for the sending screens (send page, tasks, timed tasks, records,
 * uplink), answering with the shapes of the sending contract. Stories only; the app never imports this.
 */
import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import type { Dayjs } from 'dayjs';
import { businessNow } from '@/lib/businessTime';
import {
  ChargeMode,
  type MoRecord,
  type RecordRetention,
  type SendRecord,
  type SendTask,
  type SmsTemplate,
  type TimedTask,
} from '@/generated/schemas';
import { fail, ok, type Calls } from './mockApi';
import { answering } from './pageRows';
import { numbered, positional, rowOf } from './rows';

export const sendClients = [
  { clientid: 'b20001', name: '上海优品电商有限公司' },
  { clientid: 'b20002', name: '苏州好易购电子商务有限公司' },
];

export const smsTypes = [
  { value: 0, label: '通知', accountExtAttr: '' },
  { value: 4, label: '验证码', accountExtAttr: '' },
  { value: 5, label: '营销', accountExtAttr: '' },
];

const template = rowOf<SmsTemplate>('template')({
  clientId: 'b20001',
  smsType: 10,
  templateType: 0,
  smstype: 0,
  sign: '优品生活',
  state: 1,
  userName: 'b20001',
});
export const templates: SmsTemplate[] = [
  template({ templateId: 3001, content: '您的订单已发货，请注意查收。', createTimeStr: '2026-11-01 10:00:00' }),
  template({
    templateId: 3002,
    smstype: 4,
    content: '您的验证码为123456，5分钟内有效。',
    createTimeStr: '2026-11-02 10:00:00',
  }),
];
export const generalTemplates: SmsTemplate[] = [
  {
    templateId: 1,
    clientId: '',
    smsType: 10,
    templateType: 0,
    smstype: 0,
    sign: '',
    content: '尊敬的客户，您的快递已到达驿站，请及时取件。',
    state: 1,
    createTimeStr: '2026-01-01 00:00:00',
  },
];

const longContent =
  '【优品生活】双十二大促提前购！全场满300减50，会员再享9折，点击 https://y.example/s/8Kq 立即抢购，数量有限先到先得。回T退订';

const shipped = '【优品生活】您的订单已发货，请注意查收。';
const task = rowOf<SendTask>('send-task')({
  clientId: 'b20001',
  content: shipped,
  sign: '优品生活',
  smstype: 0,
  templateType: 0,
  fileType: 0,
  errNum: 0,
  repeatNum: 0,
  creator: 'b20001',
});
/** a task's figures: submitted, charged, its status and progress, when it was sent (and created) */
const figured = positional(task)('id', 'uid', 'submitTotal', 'chargeNumTotal', 'status', 'taskSchedule', 'sendtime');
const sentAt = (t: SendTask) => ({ ...t, createTimeStr: t.sendtime });
export const taskRows: SendTask[] = numbered(
  [
    figured(9003, 'T202611230003', 3, 6, 2, 33, '2026-11-23 10:20:00', { content: longContent, smstype: 5 }),
    figured(9002, 'T202611230002', 1200, 1200, 3, 100, '2026-11-23 09:00:00', {
      errNum: 3,
      repeatNum: 2,
      creator: 'a10001',
    }),
    figured(9001, 'T202611220001', 50, 50, 0, 0, '2026-11-22 18:00:00', {
      clientId: 'b20002',
      content: '【好易购】您的验证码为 482913，5分钟内有效。',
      sign: '好易购',
      smstype: 4,
      fileType: 1,
      fileName: '会员.xlsx',
      creator: 'b20002',
    }),
  ].map(sentAt),
);

export const taskDetail = (t: SendTask): SendTask => ({
  ...t,
  sentNum: 1,
  successNum: 1,
  failNum: 1,
  unknownNum: 0,
  interceptNum: 0,
});

const fmt = (d: Dayjs) => d.format('YYYY-MM-DD HH:mm:ss');
const timed = rowOf<TimedTask>('timed-task')({
  clientid: 'b20001',
  templateType: 0,
  smstype: 0,
  sign: '优品生活',
  status: 1,
  creator: 'b20001',
  getAllPhoneFlag: 1,
  cancelFlag: 1,
});
/** a timed task: its id, pieces, send time, submit time and content */
const timedTask = positional(timed)('taskId', 'chargeNumTotal', 'setSendTimeStr', 'submitTimeStr', 'content');
/** the business time `n` `unit`s from now, formatted */
const from = (n: number, unit: 'minute' | 'hour' | 'day') => fmt(businessNow().add(n, unit));
/** timed tasks: one due in two hours (can be cancelled), one whose time has passed, a cancelled one, a scheduled international send (never cancelled) */
export const timedRows = (): TimedTask[] =>
  numbered([
    timedTask('T202611230010', 2, from(2, 'hour'), from(-1, 'hour'), shipped),
    timedTask('T202611230009', 4, from(-1, 'minute'), from(-1, 'day'), '【优品生活】周末特卖，全场五折。回T退订', {
      smstype: 5,
    }),
    timedTask('T202611200001', 1, '2026-11-20 08:00:00', '2026-11-19 20:00:00', '【优品生活】会员日提醒。', {
      status: 4,
      getAllPhoneFlag: 0,
      cancelFlag: 0,
    }),
    timedTask('T202611230011', 3, from(3, 'hour'), from(-1, 'hour'), '【ACME】Your parcel ships today.', {
      sign: 'ACME',
      cancelFlag: 0,
    }),
  ]);

const record = rowOf<SendRecord>('send-record')({
  clientid: 'b20001',
  taskId: 'T202611230003',
  content: shipped,
  errorcode: '',
  report: '',
  dateStr: '2026-11-23 09:00:06',
  smsNum: 1,
});
/** a record: its id, number, carrier, province, city and state */
const recorded = positional(record)('id', 'phone', 'operatorstype', 'provinceName', 'cityName', 'state');
export const recordRows: SendRecord[] = [
  recorded(1, '13800138000', 1, '广东', '广州市', 3, {
    taskId: 'T202611230002',
    errorcode: 'DELIVRD',
    report: 'DELIVRD',
    dateStr: '2026-11-23 09:00:05',
  }),
  recorded(2, '13012345678', 2, '上海', '上海市', 6, {
    taskId: 'T202611230002',
    errorcode: 'UNDELIV',
    report: 'UNDELIV',
  }),
  recorded(3, '18912345678', 3, '江苏', '南京市', 0),
  recorded(4, '15912345678', 1, '云南', '昆明市', 11, {
    content: '【优品生活】赌博网站',
    dateStr: '2026-11-23 09:00:07',
  }),
];

export const moRows: MoRecord[] = [
  { rowNum: 1, clientid: 'b20001', phone: '13800138000', content: '收到，谢谢', receivedateStr: '2026-11-23 09:05:00' },
  { rowNum: 2, clientid: 'b20001', phone: '13012345678', content: 'T', receivedateStr: '2026-11-23 09:07:00' },
];

export const listOf = <T>(list: T[], page = 1, rows = 15) => ({
  list: list.slice((page - 1) * rows, page * rows),
  totalCount: list.length,
  currentPage: page,
  pageRowCount: rows,
});

/** the parameters of a POST (form or JSON) */
export { paramsOf, type Calls } from './mockApi';

export interface SendApiOptions {
  calls?: Calls;
  tasks?: SendTask[];
  timed?: TimedTask[];
  records?: SendRecord[];
  /** the kept months of send records (RECORDS_KEEP_MONTHS): a range starting before `from` is answered with `retention` */
  recordRetention?: RecordRetention;
  mo?: MoRecord[];
  /** what /send/sendTim answers the first time (then code 0) */
  timedAnswer?: { code: number; msg: string };
  /** /send/chargeInfo mode: 0 amount, 1 pieces */
  chargeMode?: 0 | 1;
  /** the account's approved signs (/sign/list; default 优品生活) */
  signs?: string[];
  /** the task detail's 失败 count (default 1) */
  failNum?: number;
  /** /send/resendFailed refused with this message (else accepted as task T202611230100) */
  resendRefusal?: string;
}

const textFile = (text: string, name: string) =>
  new HttpResponse(text, {
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
    },
  });

/** Every sending call, answering from the options' rows; each call's parameters logged by its name. */
export function sendApi(opts: SendApiOptions = {}): HttpHandler[] {
  const { post } = answering(opts.calls);
  let timedAnswered = false;
  const page = <T>(list: T[], p: Record<string, any>) => listOf(list, Number(p.page ?? 1), Number(p.rows ?? 15));
  const count = (numbers: unknown) =>
    String(numbers ?? '')
      .split(',')
      .filter(Boolean).length;
  const entities = <T>(entityList: T[], totalCount = entityList.length) => ({
    entityList,
    totalCount,
    currentPage: 1,
    pageRowCount: 15,
  });
  return [
    post('/send/getclients', 'getclients', () => sendClients),
    // the account's approved signs (the send pages' 签名 offers them)
    post('/sign/list', 'signs', () => {
      const signs = opts.signs ?? ['优品生活'];
      return listOf(
        signs.map((sign, i) => ({ id: i + 1, clientid: 'b20001', sign, state: 1 })),
        1,
        100,
      );
    }),
    post('/send/getsmstypes', 'getsmstypes', () => smsTypes),
    post('/autoTemplate/list', 'templates', (p) =>
      entities(
        templates.filter((t) => !p.clientId || t.clientId === p.clientId),
        templates.length,
      ),
    ),
    post('/autoTemplate/commonlist', 'generalTemplates', () => entities(generalTemplates)),
    post('/send/checkMobileOperater', 'checkMobileOperater', (p) => {
      const n = count(p.mobiles);
      return {
        mobileNum: n,
        unicomNum: 0,
        telecomNum: 0,
        internationalPhoneNum: 0,
        parseMobilesInfo: { submitTotal: n, errNum: 0, repeatNum: 0 },
      };
    }),
    http.post('/api/send/importMobiles', () => {
      if (opts.calls) (opts.calls.importMobiles ??= []).push({});
      return ok({
        fileName: '号码.txt',
        submitTotal: 3,
        errNum: 1,
        repeatNum: 0,
        mobiles: '13700137000,13600136000',
        mobileNum: 2,
        unicomNum: 0,
        telecomNum: 0,
      });
    }),
    post('/send/chargeInfo', 'chargeInfo', (p) => {
      const n = count(p.mobile);
      const charge = { smsNum: 1, chargeNum: n, submitTotal: n };
      return opts.chargeMode === ChargeMode.Pool
        ? { ...charge, chargeMode: ChargeMode.Pool, remainPieces: 9000 }
        : { ...charge, chargeMode: ChargeMode.Money, amount: (n * 0.045).toFixed(3), balance: '1000.000' };
    }),
    post('/send/checkSubmitTime', 'checkSubmitTime', () => null),
    post('/send/sending', 'sending', () =>
      ok({ taskId: 'T202611230099', smsNum: 1, chargeNum: 2, amount: '0.090' }, '提交成功'),
    ),
    post('/send/sendTim', 'sendTim', () => {
      if (opts.timedAnswer && !timedAnswered) {
        timedAnswered = true;
        return HttpResponse.json(opts.timedAnswer);
      }
      return ok(null, '提交成功');
    }),
    post('/send/edit', 'edit', (p) => ({
      clientId: 'b20001',
      content: '您的订单已发货，请注意查收。',
      sign: '优品生活',
      smstype: 0,
      templateId: 3001,
      templateType: 0,
      mobile: '13800138000,13012345678',
      sendtime: fmt(businessNow().add(2, 'hour')),
      taskId: p.taskID,
    })),
    post('/send/sendTask', 'sendTask', (p) => {
      const list = opts.tasks ?? taskRows;
      return page(
        p.status !== undefined && p.status !== '' ? list.filter((t) => String(t.status) === p.status) : list,
        p,
      );
    }),
    post('/send/queryTaskInfo', 'queryTaskInfo', (p) => {
      const t = (opts.tasks ?? taskRows).find((x) => String(x.id) === String(p.id)) ?? taskRows[0];
      return { ...taskDetail(t), ...(opts.failNum !== undefined ? { failNum: opts.failNum } : {}) };
    }),
    post('/send/resendFailed', 'resendFailed', () =>
      opts.resendRefusal
        ? fail(500, opts.resendRefusal)
        : ok({ taskId: 'T202611230100', smsNum: 1, chargeNum: 1, submitTotal: 1, amount: '0.00' }, '提交成功'),
    ),
    post('/send/exportTaskInfoPhones', 'exportTaskInfoPhones', (p) =>
      p.sendTypes ? textFile('13800138000\n', `${p.id}.txt`) : fail(400, '请选择需要导出号码状态！'),
    ),
    post('/send/importRrrorPhones', 'importRrrorPhones', (p) => {
      const bad = String(p.phones ?? '')
        .split(',')
        .filter((t) => t && !/^1[3-9][0-9]{9}$/.test(t));
      return textFile(bad.map((t) => `${t}\r\n`).join(''), '错误号码.txt');
    }),
    post('/send/smsTimerSend/list', 'timedList', (p) => page(opts.timed ?? timedRows(), p)),
    post('/send/getAllPhone/list', 'getAllPhone', (p) => page([{ phone: '13800138000' }, { phone: '13012345678' }], p)),
    post('/send/undoSend', 'undoSend', () => ok(null, '取消成功，已退还费用')),
    post('/send/getrecords', 'getrecords', (p) => {
      let list = opts.records ?? recordRows;
      if (p.stateList) list = list.filter((r) => String(p.stateList).split(',').includes(String(r.state)));
      if (p.taskId) list = list.filter((r) => r.taskId === p.taskId);
      if (p.phone) list = list.filter((r) => r.phone === p.phone);
      const kept = opts.recordRetention;
      return { ...page(list, p), ...(kept && String(p.beginDate) < kept.from ? { retention: kept } : {}) };
    }),
    http.post('/api/send/provinceList', () =>
      ok([
        { provinceId: 31, provinceName: '上海' },
        { provinceId: 44, provinceName: '广东' },
      ]),
    ),
    post('/send/cityList', 'cityList', (p) =>
      p.provinceId === '44'
        ? [{ cityId: 443750, cityName: '广州市', label: '广州市' }]
        : [{ cityId: 310000, cityName: '上海市', label: '上海市' }],
    ),
    post('/send/exportrecords', 'exportrecords', () => ({ filePath: 'exports/send-records-1.xlsx' })),
    http.get('/api/send/downloadExportSendRecords', ({ request }) => {
      if (opts.calls)
        (opts.calls.downloadExport ??= []).push({ filePath: new URL(request.url).searchParams.get('filePath') });
      return new HttpResponse(new Uint8Array([0x50, 0x4b, 3, 4]), {
        headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
      });
    }),
    post('/send/exportRecordsTxt', 'exportRecordsTxt', () =>
      textFile('13800138000\n13012345678\n', '发送记录号码.txt'),
    ),
    post('/send/getmologs', 'getmologs', (p) => page(opts.mo ?? moRows, p)),
    post('/send/exportmologs', 'exportmologs', () => fail(500, '当前条件没有数据，无法导出')),
  ];
}

/** a list call that never answers (the loading state) */
export const never = (path: string) =>
  http.post(`/api/${path}`, async () => {
    await delay('infinite');
    return ok(listOf([]));
  });
export const refuse = (path: string, code: number, msg: string) => http.post(`/api/${path}`, () => fail(code, msg));
