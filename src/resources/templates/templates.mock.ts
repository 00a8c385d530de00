/** Story fixtures and MSW handlers for the template screens (never imported by the app). */
import { http, HttpResponse, type HttpHandler } from 'msw';
import { SmsType, TemplateCategory, TemplateType, type SmsTemplate } from '@/generated/schemas';
import { ok, fail, type Calls } from '@/stories/mockApi';
import { resourceApi } from '@/stories/resourceApi';
import { generalTemplates as generalTemplatesOf, templates } from './data';

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
/** a sub-account's own template (b20001's signed 优品商城, b20002's 鲜果到家) made on 2026-11-`day` */
const own = (templateId: number, clientId: string, smstype: SmsType, content: string, day: string, t = {}) => {
  const sign = clientId === 'b20001' ? '优品商城' : '鲜果到家';
  const createTimeStr = `2026-11-${day}`;
  return template({ templateId, clientId, userName: clientId, sign, smstype, content, createTimeStr, ...t });
};
/** the platform's general template number `orderNo` */
const platform = { clientId: '', userName: '', sign: '云讯通', createTimeStr: '2026-01-01 09:00:00' };
const general = (orderNo: number, smstype: SmsType, content: string) =>
  template({ ...platform, templateId: 100000 + orderNo, orderNo, smstype, content });

const SENSITIVE = '模板内容包含敏感词：赌博，请修改后再提交';
/** made by the agent a10001 (for b20001) */
const byAgent = { userName: 'a10001', isCreateor: 1 };
export const smartTemplates: SmsTemplate[] = [
  own(100012, 'b20001', 4, '您的登录验证码为{code}，5分钟内有效，请勿泄露。', '20 10:12:00', byAgent),
  own(100011, 'b20001', 5, '双十二全场满200减30，活动仅限3天，回T退订。', '19 16:40:00', { ...byAgent, state: 0 }),
  own(100010, 'b20001', 5, '{name}您好，会员日全场5折起，快来抢购吧！', '18 09:05:00', {
    state: 3,
    remark: '营销内容缺少退订方式，请补充“回T退订”',
  }),
  own(100009, 'b20002', 0, '您的订单{orderNo}已送达，感谢您的惠顾。', '15 14:22:00'),
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

/** What the template screens call; `calls` records the parameters of each. */
export const templateApi = (
  opts: { smart?: SmsTemplate[]; general?: SmsTemplate[]; calls?: Calls } = {},
): HttpHandler[] => [
  ...resourceApi(templates, {
    rows: opts.smart ?? smartTemplates,
    calls: opts.calls,
    where: (r, f) => !f.state || String(r.state) === f.state,
    create: () => ok({ ...smartTemplates[0], templateId: 100013, state: 0 }, '新增成功，请等待审核'),
    update: () => ok({ ...smartTemplates[0], state: 0 }, '修改成功，请等待审核'),
    deleteOne: () => ok(undefined, '删除成功'),
  }),
  ...resourceApi(generalTemplatesOf, {
    rows: opts.general ?? generalTemplates,
    calls: opts.calls,
    where: (r, f) => !f.smsType || String(r.smsType) === f.smsType,
  }),
  http.get('/api/autoTemplate/autoTemplateAccounts', () => ok(templateAccounts)),
];

export const sensitiveRefusal = http.post('/api/autoTemplate/add', () =>
  HttpResponse.json({
    code: 400,
    msg: SENSITIVE,
    data: { errors: [{ field: 'content', message: SENSITIVE }], words: ['赌博'] },
  }),
);

const errors = [
  { row: 4, msg: '固定模板不能包含变量' },
  { row: 6, msg: SENSITIVE },
];
export const importResult = { importTotal: 5, importSuccess: 3, importFall: 2, errors };
export const importAnswer = http.post('/api/autoTemplate/addBatch', () => ok(importResult, '共5条，成功3条，失败2条'));
export const importRefusal = http.post('/api/autoTemplate/addBatch', () =>
  fail(400, '文件格式不正确，请使用模板文件（xlsx）'),
);
