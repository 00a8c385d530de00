/** Demo templates: client1's (by agent1 and by client1, in every state) and the platform's general ones. */
import type { Db } from '../../db';
import { countVariables } from '../../../common/template/rules';

/** The platform's general templates (owner null, approved): [smsType, templateType, smstype, sign, content] */
export const GENERAL_TEMPLATES: [number, number, number, string, string][] = [
  [10, 1, 4, '云讯通', '您的验证码为{code}，5分钟内有效，请勿泄露给他人。'],
  [10, 1, 4, '云讯通', '您正在进行登录操作，验证码{code}，如非本人操作请忽略本短信。'],
  [10, 1, 4, '云讯通', '您正在修改账户密码，验证码为{code}，10分钟内有效。若非本人操作，请及时联系客服。'],
  [10, 1, 0, '云讯通', '您的订单{orderNo}已发货，{express}运单号{trackingNo}，请注意查收。'],
  [10, 1, 0, '云讯通', '您的快递已到达{station}，取件码{pickupCode}，请于今日21:00前取件。'],
  [10, 1, 0, '云讯通', '尊敬的{name}，您预约的{service}将于{time}开始，请提前15分钟到场。'],
  [10, 0, 0, '云讯通', '您的账户余额已不足，为避免影响正常使用，请及时充值。'],
  [10, 1, 0, '云讯通', '您尾号{cardNo}的会员卡于{date}消费{amount}元，当前积分{points}。'],
  [11, 0, 5, '云讯通', '双十一狂欢节，全场商品满300减50，活动仅限3天，回T退订。'],
  [11, 1, 5, '云讯通', '亲爱的{name}，您有一张{amount}元优惠券即将过期，点击{url}立即使用，回T退订。'],
  [11, 0, 5, '云讯通', '新店开业，凭此短信到店消费享8.8折优惠，活动截至本月底，回T退订。'],
];

/** client1's templates: [creator, smsType, templateType, smstype, state, remark, sign, content] */
const CLIENT_TEMPLATES: [string, number, number, number, number, string, string, string][] = [
  ['agent1', 10, 1, 4, 1, '', '好易购', '您的好易购登录验证码为{code}，5分钟内有效，请勿告诉他人。'],
  ['agent1', 10, 1, 0, 1, '', '好易购', '您在好易购购买的{goods}已发货，快递单号{expressNo}，请留意查收。'],
  ['agent1', 11, 0, 5, 0, '', '好易购', '好易购年终大促，全场满199减30，12月31日截止，回T退订。'],
  ['client1', 10, 1, 0, 0, '', '好易购', '尊敬的会员{name}，您的积分{points}将于{date}到期，请及时使用。'],
  [
    'client1',
    11,
    1,
    5,
    3,
    '营销内容缺少退订方式，请补充“回T退订”后重新提交',
    '好易购',
    '{name}您好，好易购会员日全场5折起，快来抢购吧！',
  ],
  [
    'client1',
    10,
    0,
    0,
    3,
    '签名与企业名称不符，请使用已报备的签名',
    '易购',
    '您的退款已原路退回，预计1-3个工作日到账，请注意查收。',
  ],
];

export async function seedTemplates(db: Db): Promise<void> {
  const general = await db
    .selectFrom('templates')
    .select('id')
    .where('owner_id', 'is', null)
    .limit(1)
    .executeTakeFirst();
  if (!general) {
    await db
      .insertInto('templates')
      .values(
        GENERAL_TEMPLATES.map(([sms_type, template_type, smstype, sign, content], i) => ({
          owner_id: null,
          sms_type,
          template_type,
          smstype,
          business: 0,
          sign,
          content,
          variable_count: countVariables(content),
          state: 1,
          order_no: i + 1,
          create_time: '2026-01-01T09:00:00+08:00',
          update_time: '2026-01-01T09:00:00+08:00',
        })),
      )
      .execute();
  }
  const accounts = await db
    .selectFrom('accounts')
    .select(['id', 'clientid'])
    .where('clientid', 'in', ['agent1', 'client1'])
    .execute();
  const id = Object.fromEntries(accounts.map((a) => [a.clientid, a.id]));
  if (!id.client1 || !id.agent1) return;
  const mine = await db
    .selectFrom('templates')
    .select('id')
    .where('owner_id', '=', id.client1)
    .limit(1)
    .executeTakeFirst();
  if (mine) return;
  await db
    .insertInto('templates')
    .values(
      CLIENT_TEMPLATES.map(([creator, sms_type, template_type, smstype, state, remark, sign, content], i) => {
        const t = new Date(Date.parse('2026-03-02T10:00:00+08:00') + i * 86_400_000 + i * 1_234_000);
        return {
          owner_id: id.client1,
          creator_id: id[creator],
          sms_type,
          template_type,
          smstype,
          business: 0,
          sign,
          content,
          variable_count: countVariables(content),
          state,
          remark,
          create_time: t,
          update_time: t,
        };
      }),
    )
    .execute();
}
