/** Story fixtures and MSW handlers for the template screens (never imported by the app). */
import { http, HttpResponse, type HttpHandler } from 'msw';
import type { SmsTemplate } from '@/generated/schemas';
import { ok, fail } from '@/stories/mockApi';

export const smartTemplates: SmsTemplate[] = [
  {
    templateId: 100012,
    clientId: 'b20001',
    smsType: 10,
    templateType: 1,
    business: 0,
    smstype: 4,
    sign: '优品商城',
    content: '您的登录验证码为{code}，5分钟内有效，请勿泄露。',
    varibleCount: 1,
    state: 1,
    remark: '',
    userName: 'a10001',
    createTimeStr: '2026-11-20 10:12:00',
    orderNo: 0,
    isCreateor: 1,
  },
  {
    templateId: 100011,
    clientId: 'b20001',
    smsType: 11,
    templateType: 0,
    business: 0,
    smstype: 5,
    sign: '优品商城',
    content: '双十二全场满200减30，活动仅限3天，回T退订。',
    varibleCount: 0,
    state: 0,
    remark: '',
    userName: 'a10001',
    createTimeStr: '2026-11-19 16:40:00',
    orderNo: 0,
    isCreateor: 1,
  },
  {
    templateId: 100010,
    clientId: 'b20001',
    smsType: 11,
    templateType: 1,
    business: 0,
    smstype: 5,
    sign: '优品商城',
    content: '{name}您好，会员日全场5折起，快来抢购吧！',
    varibleCount: 1,
    state: 3,
    remark: '营销内容缺少退订方式，请补充“回T退订”',
    userName: 'b20001',
    createTimeStr: '2026-11-18 09:05:00',
    orderNo: 0,
    isCreateor: 0,
  },
  {
    templateId: 100009,
    clientId: 'b20002',
    smsType: 10,
    templateType: 1,
    business: 0,
    smstype: 0,
    sign: '鲜果到家',
    content: '您的订单{orderNo}已送达，感谢您的惠顾。',
    varibleCount: 1,
    state: 1,
    remark: '',
    userName: 'b20002',
    createTimeStr: '2026-11-15 14:22:00',
    orderNo: 0,
    isCreateor: 0,
  },
];

export const generalTemplates: SmsTemplate[] = [
  {
    templateId: 100001,
    clientId: '',
    smsType: 10,
    templateType: 1,
    business: 0,
    smstype: 4,
    sign: '云讯通',
    content: '您的验证码为{code}，5分钟内有效，请勿泄露给他人。',
    varibleCount: 1,
    state: 1,
    remark: '',
    userName: '',
    createTimeStr: '2026-01-01 09:00:00',
    orderNo: 1,
    isCreateor: 0,
  },
  {
    templateId: 100002,
    clientId: '',
    smsType: 10,
    templateType: 1,
    business: 0,
    smstype: 0,
    sign: '云讯通',
    content: '您的订单{orderNo}已发货，{express}运单号{trackingNo}，请注意查收。',
    varibleCount: 3,
    state: 1,
    remark: '',
    userName: '',
    createTimeStr: '2026-01-01 09:00:00',
    orderNo: 2,
    isCreateor: 0,
  },
  {
    templateId: 100003,
    clientId: '',
    smsType: 11,
    templateType: 0,
    business: 0,
    smstype: 5,
    sign: '云讯通',
    content: '新店开业，凭此短信到店消费享8.8折优惠，回T退订。',
    varibleCount: 0,
    state: 1,
    remark: '',
    userName: '',
    createTimeStr: '2026-01-01 09:00:00',
    orderNo: 3,
    isCreateor: 0,
  },
];

export const templateAccounts = [
  { clientid: 'b20001', name: '上海优品电商有限公司' },
  { clientid: 'b20002', name: '鲜果到家配送有限公司' },
];

const page = (rows: SmsTemplate[]) =>
  ok({ entityList: rows, totalCount: rows.length, currentPage: 1, pageRowCount: 15, totalPage: 1 });

/** What the template screens call; `calls` records the form bodies posted. */
export function templateApi(
  opts: { smart?: SmsTemplate[]; general?: SmsTemplate[]; calls?: Record<string, URLSearchParams[]> } = {},
): HttpHandler[] {
  const record = async (name: string, req: Request) => {
    const body = new URLSearchParams(await req.text());
    if (opts.calls) (opts.calls[name] ??= []).push(body);
    return body;
  };
  return [
    http.post('/api/autoTemplate/list', async ({ request }) => {
      const b = await record('list', request);
      const state = b.get('state');
      return page((opts.smart ?? smartTemplates).filter((r) => !state || String(r.state) === state));
    }),
    http.post('/api/autoTemplate/commonlist', async ({ request }) => {
      const b = await record('commonlist', request);
      const smsType = b.get('smsType');
      return page((opts.general ?? generalTemplates).filter((r) => !smsType || String(r.smsType) === smsType));
    }),
    http.get('/api/autoTemplate/autoTemplateAccounts', () => ok(templateAccounts)),
    http.post('/api/autoTemplate/add', async ({ request }) => {
      await record('add', request);
      return ok({ ...smartTemplates[0], templateId: 100013, state: 0 }, '新增成功，请等待审核');
    }),
    http.post('/api/autoTemplate/edit', async ({ request }) => {
      await record('edit', request);
      return ok({ ...smartTemplates[0], state: 0 }, '修改成功，请等待审核');
    }),
    http.post('/api/autoTemplate/del', async ({ request }) => {
      await record('del', request);
      return HttpResponse.json({ code: 0, msg: '删除成功' });
    }),
  ];
}

export const sensitiveRefusal = http.post('/api/autoTemplate/add', () =>
  HttpResponse.json({
    code: 400,
    msg: '模板内容包含敏感词：赌博，请修改后再提交',
    data: { errors: [{ field: 'content', message: '模板内容包含敏感词：赌博，请修改后再提交' }], words: ['赌博'] },
  }),
);

export const importResult = {
  importTotal: 5,
  importSuccess: 3,
  importFall: 2,
  errors: [
    { row: 4, msg: '固定模板不能包含变量' },
    { row: 6, msg: '模板内容包含敏感词：赌博，请修改后再提交' },
  ],
};
export const importAnswer = http.post('/api/autoTemplate/addBatch', () => ok(importResult, '共5条，成功3条，失败2条'));
export const importRefusal = http.post('/api/autoTemplate/addBatch', () =>
  fail(400, '文件格式不正确，请使用模板文件（xlsx）'),
);
