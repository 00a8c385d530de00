import { expect, userEvent, within } from 'storybook/test';
/** MSW fixtures of the sub-account area, for stories only (the app never imports this file). */
import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import { consoleApi, fail, ok, agentDirectChargeMode, agentPackageMode } from '@/stories/mockApi';
import { accountInfo, indexData } from '@/stories/reportsApi';
import type { SubAccountRow } from '@/generated/schemas';
import { rowOf, table } from '@/stories/rows';
import { listReply } from '@/stories/listStates';
import { subAccountFinance, subAccounts } from './data';

/** a customer account of the agent's, prepaid (each row below says how it differs) */
const subAccount = rowOf<SubAccountRow>(subAccounts.entity)({
  status: 1,
  oauth_status: 3,
  client_type: 2,
  agent_owned: 1,
  balance: '0.00',
  paytype: 0,
  agentBalance: '48499.50',
  balanceOfAgent: 0,
  priceType: 0,
  gjSmsDiscount: '100.00',
  expireDate: '',
});
/** the prices: unified and telecom `p`, mobile and unicom theirs (default `p`) */
const priced = (p: string, m = p, u = p) => ({ unifiedPrice: p, mobilePrice: m, unicomPrice: u, telecomPrice: p });
/** a postpaid account billed monthly against the agent's balance */
const monthly: Partial<SubAccountRow> = {
  smstype: 5,
  paytype: 1,
  remarks: '月结客户',
  balanceOfAgent: 1,
  ...priced('0.0380'),
  gjSmsDiscount: '90.00',
  create_time: '2026-09-30 16:42:10',
};

/** the four accounts: c7k2mq prepaid with its own prices, n4tb8w frozen, w9hx3p and u3nd7e monthly, not the agent's own */
export const rows: SubAccountRow[] = table<SubAccountRow>()(
  'client_id client_name email mobile create_time',
  ['c7k2mq', '苏州好易购电子商务有限公司', 'ops@haoyigou.example', '13900139001', '2026-11-02 10:15:00'],
  ['n4tb8w', '南京甜心烘焙坊', 'tianxin@example.com', '13900139002', '2026-10-21 09:00:00'],
  ['w9hx3p', '宁波港航物流有限公司', 'it@ganghang.example', '13900139003'],
  ['u3nd7e', '绍兴越城茶业有限公司', 'tea@yuecheng.example', '13900139004'],
).map((r, i) =>
  subAccount({
    ...(<Partial<SubAccountRow>[]>[
      { balance: '1200.00', smstype: 4, remarks: 'VIP 客户', priceType: 1, ...priced('0.0450', '0.0400', '0.0420') },
      { status: 5, balance: '300.50', smstype: 0, remarks: '欠费冻结', ...priced('0.0450'), expireDate: '2027-06-30' },
      { ...monthly, oauth_status: 2, agent_owned: 0 },
      { ...monthly, oauth_status: 1, agent_owned: 0 },
    ])[i],
    ...r,
  }),
);
Object.assign(rows[0], { balanceAlarm: '100.00', alarmMobile: '13900139001' });

/** no low balance (below 10.00) and a pool that expires `poolExpireDate` */
const alert = (poolExpireDate: string) => ({ lowBalance: false, lowBalanceThreshold: '10.00', poolExpireDate });
/** issue 27: the list's alerts — 余额不足 (below its 余额提醒) and a pool that expires soon (with the date) */
export const alertRows: SubAccountRow[] = [
  { ...rows[0], balance: '35.20', lowBalance: true, lowBalanceThreshold: '100.00', poolExpireDate: '' },
  subAccount({
    ...rows[1],
    client_id: 'p5ke2r',
    client_name: '杭州西湖茶庄',
    status: 1,
    remarks: '',
    ...alert('2026-12-03'),
  }),
  { ...rows[2], ...alert('') },
];

const balances = { subBalance: '1500.50', agentBalance: '48499.50' };
export const stat = { total: 3, thisMonth: 1, frozen: 1, certified: 2, pending: 1, ...balances };

export interface SubAccountMockOptions {
  mode?: '0' | '1';
  list?: SubAccountRow[];
  recharge?: 'ok' | 'insufficient';
  /** the password-reset mail cannot be sent */
  resetMail?: 'ok' | 'fail';
  certified?: boolean;
  detail?: 'loading';
  /** 接口信息 cannot be read */
  interfaceInfo?: 'error';
  /** the SMPP listener is off (SMPP_SERVER_PORT 0) */
  smppOff?: boolean;
  /** the interface settings' save is refused */
  interfaceSave?: 'refused' | 'privateUrl';
  /** test accounts: `canCreateTestAccount` false ('hidden'), creation refused, a test account in the list ('listed'), whose conversion is refused ('convertRefused') */
  testAccount?: 'hidden' | 'refused' | 'listed' | 'convertRefused';
}

/** a test account of the list (docs "Test accounts"): its end in `test_expire_time` */
const TEST_END = '2026-12-04 10:00:00';
export const testRow: SubAccountRow = {
  ...{ ...rows[0], client_id: 't6qv2n', client_name: '测试账户甲', balance: '0.00', remarks: '测试账户' },
  ...{ mobile: '', email: '', test_expire_time: TEST_END },
};
export const testAccountTerms = { giftPieces: 20, days: 7, perAgent: 3 };

/** an open door of the platform's (CMPP, SMGP and SGIP log in with the account's short name) */
const HOST = 'sms.yunxun.example';
const CLI = 'cli001';
const door = (protocol: string, port: number, login = CLI, url = '') => ({
  protocol,
  enabled: true,
  host: HOST,
  port,
  url,
  login,
});

/** a door the platform has not opened */
const off = (d: ReturnType<typeof door>) => ({ ...d, enabled: false, port: 0 });
/** 接口信息 of c7k2mq: the home page's, with its own host, doors and settings */
export const interfaceInfo = {
  ...accountInfo,
  clientid: 'c7k2mq',
  ipAddress: HOST,
  smstype: 4,
  smstype_str: '验证码',
  nodenum: '3',
  doors: [
    ...[door('SMPP', 2775, 'client1'), door('CMPP', 7890), door('SMGP', 8890), door('SGIP', 8801)],
    door('HTTP', 443, 'client1', `https://${HOST}/openapi/v1`),
  ],
  ip: '203.0.113.10',
  needreport: 2,
  needreport_str: '透传状态报告',
  deliveryurl: '',
  editable: true,
};

export function subAccountHandlers(o: SubAccountMockOptions = {}): HttpHandler[] {
  const list = o.list ?? (o.testAccount === 'listed' || o.testAccount === 'convertRefused' ? [testRow, ...rows] : rows);
  // a converted test account is an ordinary one in the next answer
  const converted = new Set<string>();
  /** 100.00 moved between c7k2mq and its agent: their balances after */
  const moved = (balance: string, agentBalance: string, msg: string) =>
    ok({ clientId: 'c7k2mq', amount: '100.00', balance, agentBalance }, msg);
  const listed = () => list.map((r) => (converted.has(r.client_id) ? { ...r, test_expire_time: '' } : r));
  const firstCharge = { remark: '首次充值', created_at: '2026-11-02 10:20:00' };
  const settings = { deliveryurl: 'https://client.example.com/report', mourl: '' };
  return [
    ...consoleApi({
      user: o.mode === '0' ? agentDirectChargeMode : agentPackageMode,
      baseInfo: { oauth_status: o.certified === false ? '未认证' : 3 },
    }),
    listReply(subAccounts, listed),
    listReply(subAccountFinance, listed),
    http.get('/api/client/stat', () => ok(stat)),
    http.get('/api/index/data', () =>
      ok(indexData({ canCreateTestAccount: o.testAccount !== 'hidden', testAccountTerms })),
    ),
    http.post('/api/client/account/test/add', () =>
      o.testAccount === 'refused'
        ? fail(500, '每个代理商30天内最多创建3个测试账户')
        : ok(
            { clientid: 't8wz4k', password: 'Tq4mZ8vR2n', mobile: '', email: '', expireTime: TEST_END, giftPieces: 20 },
            '测试账户已创建',
          ),
    ),
    http.post('/api/client/account/test/convert', async ({ request }) => {
      const id = new URLSearchParams(await request.text()).get('clientId') ?? '';
      if (o.testAccount === 'convertRefused' || id !== testRow.client_id || converted.has(id))
        return fail(500, '该账户不是测试账户');
      converted.add(id);
      return ok({ clientid: id }, '已转为正式账户');
    }),
    http.post('/api/client/recharge', () =>
      o.recharge === 'insufficient'
        ? fail(500, '可用余额不足，当前可用余额 48499.50 元')
        : moved('1300.00', '48399.50', '充值成功'),
    ),
    http.post('/api/client/rollback', () => moved('1100.00', '48599.50', '回退成功')),
    http.post('/api/client/account/freeze', () => ok({ status: 5, status_str: '冻结' }, '冻结成功')),
    http.post('/api/client/account/unfreeze', () => ok({ status: 1, status_str: '注册完成' }, '解冻成功')),
    http.post('/api/client/account/remark', () => ok({ remarks: 'x' }, '备注已保存')),
    http.post('/api/account/getAccountInfo', () =>
      o.interfaceInfo === 'error'
        ? fail(500, '服务器繁忙，请稍后再试')
        : ok({
            ...interfaceInfo,
            doors: interfaceInfo.doors.map((d) => (o.smppOff && d.protocol !== 'HTTP' ? off(d) : d)),
          }),
    ),
    http.post('/api/client/account/resetInterfacePassword', () =>
      ok({ clientid: 'c7k2mq', password: 'Kp7mW2xa' }, '接口密码已重置，新密码只显示这一次，请妥善保存'),
    ),
    http.post('/api/client/account/interface', async ({ request }) => {
      const f = new URLSearchParams(await request.text());
      if (o.interfaceSave === 'refused') return fail(400, 'IP白名单格式不正确：' + (f.get('ip') ?? ''));
      if (o.interfaceSave === 'privateUrl') {
        const message = '状态报告回调地址不能使用内网地址';
        return HttpResponse.json({ code: 400, msg: message, data: { errors: [{ field: 'deliveryurl', message }] } });
      }
      const [ip, nodenum] = [f.get('ip') ?? '', f.get('nodenum') ?? ''];
      const needextend = {
        needextend: Number(f.get('needextend')),
        needextend_str: f.get('needextend') === '1' ? '支持' : '不支持',
      };
      return ok(
        { ...interfaceInfo, ip, accessSpeed: Number(f.get('accessSpeed')), nodenum, ...needextend },
        '接口设置已保存',
      );
    }),
    http.post('/api/client/account/resetPsd', () =>
      o.resetMail === 'fail' ? fail(409, '发送失败，请稍后再试') : ok({ sent: true }, '发送成功'),
    ),
    http.post('/api/client/loginAs', () => ok({ token: 'one-time-token', clientid: 'c7k2mq' })),
    http.post('/api/client/loginAs/enter', () => ok({ clientid: 'c7k2mq' }, '登录成功')),
    http.post('/api/client/price', () => ok(rows[0], '价格设置成功')),
    http.post('/api/client/remind', () => ok({ balanceAlarm: '100.00', alarmMobile: '' }, '提醒设置成功')),
    http.post('/api/client/expire', () => ok({ expireDate: '2027-12-31' }, '到期时间设置成功')),
    http.get('/api/client/account/validate/mobile', ({ request }) =>
      new URL(request.url).searchParams.get('mobile') === '13900139001'
        ? fail(500, '手机号码已存在')
        : ok(true, '手机号码可用'),
    ),
    http.post('/api/client/account/addUser', () =>
      ok({ clientid: 'q8m3vd', password: 'Xk7pR2mW9a', mobile: '13911112222', email: 'new@example.com' }, '开户成功'),
    ),
    http.get('/api/client/account/detail', async ({ request }) => {
      const id = new URL(request.url).searchParams.get('client_id');
      if (o.detail === 'loading') await delay('infinite');
      if (id === 'missing') return fail(404, '子账户不存在');
      // a customer account whose certification was refused (the agent re-submits it)
      const r =
        id === 'r5qz2k'
          ? { ...rows[2], client_id: 'r5qz2k', oauth_status: 4 }
          : (rows.find((x) => x.client_id === id) ?? rows[0]);
      const { status, oauth_status, mobile, email, remarks, create_time, balance, paytype } = r;
      const owned = r.agent_owned ? { idType: null, idNbr: '' } : { idType: 5, idNbr: '91330206MA2C8QWER3' };
      return ok({
        ...{
          clientid: r.client_id,
          name: r.client_name,
          status,
          oauth_status,
          oauth_date: '2026-11-02 11:00:00',
          mobile,
          email,
        },
        ...{ realname: '陈静', address: '苏州工业园区星湖街328号', needreport: 1, needmo: 0, ...settings },
        ...{ remarks, create_time, balance, paytype, agentOwned: r.agent_owned, ...owned, imgUrl: '' },
      });
    }),
    http.post('/api/account/updateClient', async ({ request }) => {
      const f = new URLSearchParams(await request.text());
      const text = ['clientid', 'name', 'mobile', 'email', 'realname', 'address', 'deliveryurl', 'mourl'];
      const [needreport, needmo] = [Number(f.get('needreport')), Number(f.get('needmo'))];
      const kept = { status: 1, oauth_status: 3, remarks: '', create_time: '2026-11-02 10:15:00', balance: '1200.00' };
      const sent = Object.fromEntries(text.map((k) => [k, f.get(k)]));
      return ok({ ...sent, ...kept, needreport, needmo, paytype: 0, agentOwned: 1 }, '修改成功');
    }),
    http.get('/api/client/ledger', () =>
      ok({
        ...{
          clientid: 'client1',
          name: '苏州好易购电子商务有限公司',
          balance: '1200.00',
          paytype: 0,
          paytype_str: '预付费',
        },
        list: [
          { id: 3, amount: '1200.00', balance_after: '1200.00', kind: 12, kind_str: '子账户充值', ...firstCharge },
        ],
      }),
    ),
  ];
}

/** Answers the confirm a money move asks (子账户充值 / 回退) after checking its question. */
export async function confirmTransfer(question: string | RegExp) {
  const text = await within(document.body).findByTestId('transfer-confirm', {}, { timeout: 10000 });
  await expect(text).toHaveTextContent(question);
  const modal = text.closest('.ant-modal') as HTMLElement;
  await userEvent.click(within(modal).getByRole('button', { name: /确\s*定/ }));
}
