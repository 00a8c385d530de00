/**
 * Demo signs, inserted once per account that has none: client1's one in each state; client0's two
 * approved ones (the platform's public templates carry 云讯通, so client0 can send with them).
 */
import type { Db } from '../../db';

const CLIENT1_SIGNS = [
  { sign: '好易购', remarks: '公司简称，用于订单及物流通知', state: 1, cause: '', daysAgo: 40 },
  { sign: '好易购商城', remarks: '商城会员营销短信', state: 1, cause: '', daysAgo: 21 },
  {
    sign: '易购优选',
    remarks: '新品牌，商标注册中',
    state: 2,
    cause: '签名与企业名称不符，请补充商标注册证或授权书',
    daysAgo: 12,
  },
  { sign: '苏州好易购', remarks: '验证码短信', state: 0, cause: '', daysAgo: 2 },
  { sign: '好易购测试', remarks: '测试用，已停用', state: 4, cause: '', daysAgo: 30 },
];

const CLIENT0_SIGNS = [
  { sign: '瓯越鞋业', remarks: '公司简称，用于订单通知', state: 1, cause: '', daysAgo: 30 },
  { sign: '云讯通', remarks: '平台公共模板的签名，已获授权使用', state: 1, cause: '', daysAgo: 25 },
];

const DEMO_SIGNS: Record<string, typeof CLIENT1_SIGNS> = { client1: CLIENT1_SIGNS, client0: CLIENT0_SIGNS };

export async function seedSigns(db: Db): Promise<void> {
  for (const [clientid, signs] of Object.entries(DEMO_SIGNS)) await seedSignsOf(db, clientid, signs);
}

async function seedSignsOf(db: Db, clientid: string, signs: typeof CLIENT1_SIGNS): Promise<void> {
  const client = await db
    .selectFrom('accounts')
    .select(['id', 'clientid', 'agent_id'])
    .where('clientid', '=', clientid)
    .executeTakeFirst();
  if (!client) return;
  const any = await db.selectFrom('signs').select('id').where('account_id', '=', client.id).limit(1).executeTakeFirst();
  if (any) return;
  const agent = client.agent_id
    ? await db.selectFrom('accounts').select(['id', 'clientid']).where('id', '=', client.agent_id).executeTakeFirst()
    : undefined;
  const now = Date.now();
  await db
    .insertInto('signs')
    .values(
      signs.map((s, i) => {
        const t = new Date(now - s.daysAgo * 86_400_000 - i * 3_600_000);
        const byAgent = i % 2 === 0 && agent;
        return {
          account_id: client.id,
          clientid: client.clientid,
          sign: s.sign,
          remarks: s.remarks,
          state: s.state,
          cause: s.cause,
          creator_id: byAgent ? agent.id : client.id,
          creator_name: byAgent ? agent.clientid : client.clientid,
          create_time: t,
          update_time: t,
        };
      }),
    )
    .execute();
}
