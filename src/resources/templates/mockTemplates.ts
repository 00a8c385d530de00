/** Story fixtures and MSW handlers for the template screens (never imported by the app). */
import { http, HttpResponse, type HttpHandler } from 'msw';
import { SmsType, TemplateCategory, TemplateType, type SmsTemplate } from '@/generated/schemas';
import { ok, fail } from '@/stories/mockApi';

/**
 * A template as the server keeps it: its category from its kind (营销: 会员营销, else 行业), fixed
 * or variable by its content's {variables}, approved unless it says otherwise.
 */
const template = (t: Pick<SmsTemplate, 'templateId' | 'smstype' | 'content'> & Partial<SmsTemplate>): SmsTemplate => {
  const vars = t.content.match(/\{\w+\}/g)?.length ?? 0;
  return {
    smsType: t.smstype === SmsType.Marketing ? TemplateCategory.MemberMarketing : TemplateCategory.Industry,
    templateType: vars ? TemplateType.Variable : TemplateType.Fixed,
    varibleCount: vars,
    business: 0,
    state: 1,
    remark: '',
    orderNo: 0,
    isCreateor: 0,
    ...t,
  };
};
/** a sub-account's own template */
const own = (
  templateId: number,
  clientId: string,
  sign: string,
  smstype: SmsType,
  content: string,
  createTimeStr: string,
  t: Partial<SmsTemplate> = {},
) => template({ templateId, clientId, userName: clientId, sign, smstype, content, createTimeStr, ...t });
/** the platform's general template number `orderNo` */
const general = (orderNo: number, smstype: SmsType, content: string) =>
  template({
    templateId: 100000 + orderNo,
    orderNo,
    clientId: '',
    userName: '',
    sign: '云讯通',
    smstype,
    content,
    createTimeStr: '2026-01-01 09:00:00',
  });

export const smartTemplates: SmsTemplate[] = [
  // made by the agent a10001 for b20001
  own(100012, 'b20001', '优品商城', 4, '您的登录验证码为{code}，5分钟内有效，请勿泄露。', '2026-11-20 10:12:00', {
    userName: 'a10001',
    isCreateor: 1,
  }),
  own(100011, 'b20001', '优品商城', 5, '双十二全场满200减30，活动仅限3天，回T退订。', '2026-11-19 16:40:00', {
    userName: 'a10001',
    isCreateor: 1,
    state: 0,
  }),
  own(100010, 'b20001', '优品商城', 5, '{name}您好，会员日全场5折起，快来抢购吧！', '2026-11-18 09:05:00', {
    state: 3,
    remark: '营销内容缺少退订方式，请补充“回T退订”',
  }),
  own(100009, 'b20002', '鲜果到家', 0, '您的订单{orderNo}已送达，感谢您的惠顾。', '2026-11-15 14:22:00'),
];

export const generalTemplates: SmsTemplate[] = [
  general(1, 4, '您的验证码为{code}，5分钟内有效，请勿泄露给他人。'),
  general(2, 0, '您的订单{orderNo}已发货，{express}运单号{trackingNo}，请注意查收。'),
  general(3, 5, '新店开业，凭此短信到店消费享8.8折优惠，回T退订。'),
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
