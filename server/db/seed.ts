/**
 * Demo data, inserted once (idempotent: rows that exist are left alone). Every password is
 * Demo1234. Logins are the clientids below, their e-mails or their mobiles.
 */
import type { Db } from './index';
import type { NewAccount } from './types';
import { hashPassword } from '../lib/crypto';
import { seedNotices } from '../modules/notice/seed';
import { seedSigns } from '../modules/sign/seed';
import { seedCertifications } from '../modules/account';
import { seedTemplates } from '../modules/template/seed';
import { seedSubaccounts } from '../modules/subaccount';
import { seedSending } from '../modules/send/seed';
import { seedPurchase } from '../modules/purchase';
import { deriveApiSecret, DEMO_INTERFACE_PASSWORD } from '../modules/openapi/signing';

export const DEMO_PASSWORD = 'Demo1234';

type SeedAccount = Omit<NewAccount, 'password_hash' | 'agent_id'> & { agent?: string };

export const DEMO_ACCOUNTS: SeedAccount[] = [
  {
    clientid: 'agent1',
    user_type: '1',
    operation_mode: '1',
    name: '上海云讯通信科技有限公司',
    realname: '王建国',
    email: 'agent1@demo.smsp.local',
    mobile: '13800138001',
    province: '上海市',
    city: '上海市',
    area: '浦东新区',
    address: '张江高科技园区碧波路690号',
    status: 1,
    oauth_status: 3,
    oauth_date: '2026-01-15T10:30:00+08:00',
    id_type: 6,
    id_nbr: '91310115MA1K4ABCD1',
    auto_template_callback_url: 'https://agent1.demo.smsp.local/template/callback',
  },
  {
    clientid: 'agent0',
    user_type: '1',
    operation_mode: '0',
    name: '杭州讯达网络有限公司',
    realname: '李秀英',
    email: 'agent0@demo.smsp.local',
    mobile: '13800138000',
    province: '浙江省',
    city: '杭州市',
    area: '西湖区',
    address: '文三路478号华星时代广场A座12楼',
    status: 1,
    oauth_status: 3,
    oauth_date: '2026-02-03T14:00:00+08:00',
    id_type: 6,
    id_nbr: '91330106MA2B7EFGH2',
  },
  {
    clientid: 'newagent',
    user_type: '1',
    operation_mode: '1',
    name: '张伟',
    realname: '张伟',
    email: 'newagent@demo.smsp.local',
    mobile: '13800138002',
    province: '广东省',
    city: '深圳市',
    area: '南山区',
    address: '科技园南区高新南七道',
    status: 1,
    oauth_status: 1,
  },
  {
    clientid: 'client1',
    user_type: '2',
    agent: 'agent1',
    operation_mode: '1',
    name: '苏州好易购电子商务有限公司',
    realname: '陈静',
    email: 'client1@demo.smsp.local',
    mobile: '13900139001',
    province: '江苏省',
    city: '苏州市',
    area: '工业园区',
    address: '星湖街328号创意产业园5栋',
    status: 1,
    oauth_status: 3,
    oauth_date: '2026-03-01T09:00:00+08:00',
    needreport: 1,
    needmo: 0,
    deliveryurl: 'https://client1.demo.smsp.local/sms/report',
    // 0029_api_secret: the HTTP API's key, derived from the interface password Demo2468
    api_secret: deriveApiSecret('client1', DEMO_INTERFACE_PASSWORD),
    // 0044_interface_login: client1 is 7 characters, CMPP's Source_Addr 6 at most (README demo table)
    interface_login: 'cli001',
    // 0017_varintl: domestic and international sends (the international page's demo)
    phone_inout_type: 2,
  },
  {
    // an unfinished registration: registering again with this e-mail or mobile answers 501
    clientid: 'a10000',
    user_type: '1',
    operation_mode: '1',
    name: '刘洋',
    realname: '刘洋',
    email: 'pending@demo.smsp.local',
    mobile: '13700137000',
    status: 0,
    oauth_status: 1,
  },
];

export const DEFAULT_BRANDING = {
  copyright_text: '© 2026 云讯通短信平台 版权所有',
  company_name: '云讯通短信平台',
  company_logo_url: '',
  icp_text: '沪ICP备2026000001号-1',
  demo_file_path: '',
  // help documents (spec 02: https, cmpp, sgip, smgp, smpp, template SMS, http demo): none published yet
  system_info_show: { https: 0, cmpp: 0, sgip: 0, smgp: 0, smpp: 0, template: 0, httpDemo: 0 },
};

export const DEFAULT_SUPPORT_CONTACTS = [
  { name: '客服经理', qq: '800012345', mobile: '13816880001', email: 'service@demo.smsp.local', sort: 1 },
  { name: '技术支持', qq: '800012346', mobile: '13816880002', email: 'tech@demo.smsp.local', sort: 2 },
  { name: '商务合作', qq: '800012347', mobile: '13816880003', email: 'sales@demo.smsp.local', sort: 3 },
];

/** Inserts what is missing; returns the clientids it created. */
/** the demo operators (issue 39): 审核员 and 运营, password DEMO_PASSWORD */
export const DEMO_OPERATORS = [
  { name: 'reviewer1', role: 1 },
  { name: 'operator1', role: 2 },
] as const;

export async function seed(db: Db): Promise<string[]> {
  const created: string[] = [];
  const existing = new Set(
    (
      await db
        .selectFrom('accounts')
        .select('clientid')
        .where(
          'clientid',
          'in',
          DEMO_ACCOUNTS.map((a) => a.clientid),
        )
        .execute()
    ).map((r) => r.clientid),
  );
  const missing = DEMO_ACCOUNTS.filter((a) => !existing.has(a.clientid));
  if (missing.length) {
    const hash = await hashPassword(DEMO_PASSWORD);
    for (const { agent, ...a } of missing) {
      const agentId = agent
        ? (await db.selectFrom('accounts').select('id').where('clientid', '=', agent).executeTakeFirstOrThrow()).id
        : null;
      const r = await db
        .insertInto('accounts')
        .values({ ...a, agent_id: agentId, password_hash: hash })
        .onConflict((oc) => oc.doNothing())
        .returning('clientid')
        .executeTakeFirst();
      if (r) created.push(r.clientid);
    }
  }
  // issue 24: client1's SMPP interface password (README demo table), set once
  const noInterfacePassword = await db
    .selectFrom('accounts')
    .select('id')
    .where('clientid', '=', 'client1')
    .where('interface_password_hash', '=', '')
    .executeTakeFirst();
  if (noInterfacePassword)
    await db
      .updateTable('accounts')
      .set({ interface_password_hash: await hashPassword(DEMO_INTERFACE_PASSWORD) })
      .where('id', '=', noInterfacePassword.id)
      .execute();
  // 0044_interface_login: a demo database seeded before the migration gets client1's CMPP login too
  await db
    .updateTable('accounts')
    .set({ interface_login: 'cli001' })
    .where('clientid', '=', 'client1')
    .where('interface_login', 'is', null)
    .execute();
  // 0029_api_secret: a demo database seeded before the migration gets client1's API secret too
  await db
    .updateTable('accounts')
    .set({ api_secret: deriveApiSecret('client1', DEMO_INTERFACE_PASSWORD) })
    .where('clientid', '=', 'client1')
    .where('api_secret', '=', '')
    .execute();
  const branding = await db.selectFrom('branding').select('id').where('host_pattern', 'is', null).executeTakeFirst();
  if (!branding) {
    await db
      .insertInto('branding')
      .values({
        ...DEFAULT_BRANDING,
        host_pattern: null,
        system_info_show: JSON.stringify(DEFAULT_BRANDING.system_info_show),
      })
      .execute();
    const anyContact = await db.selectFrom('support_contacts').select('id').limit(1).executeTakeFirst();
    if (!anyContact)
      await db
        .insertInto('support_contacts')
        .values(DEFAULT_SUPPORT_CONTACTS.map((c) => ({ ...c, branding_id: null })))
        .execute();
  }
  // issue 39: demo operators (README demo table), without a second factor; a 管理员 is added with
  // `npm run cli -- operator-add` (its TOTP secret printed once)
  const operators = await db
    .selectFrom('operators')
    .select('name')
    .where(
      'name',
      'in',
      DEMO_OPERATORS.map((o) => o.name),
    )
    .execute();
  for (const o of DEMO_OPERATORS.filter((x) => !operators.some((r) => r.name === x.name))) {
    await db
      .insertInto('operators')
      .values({ ...o, password_hash: await hashPassword(DEMO_PASSWORD), created_at: new Date() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }
  await seedNotices(db);
  await seedCertifications(db);
  await seedTemplates(db);
  await seedSubaccounts(db);
  // after the sub-accounts: client0 is one of them
  await seedSigns(db);
  await seedSending(db);
  await seedPurchase(db);
  return created;
}
