import { expect, userEvent, within } from 'storybook/test';
/** MSW fixtures of the sub-account area, for stories only (the app never imports this file). */
import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import { consoleApi, fail, ok, agentDirectChargeMode, agentPackageMode } from '@/stories/mockApi';
import { accountInfo, indexData } from '@/stories/reportsApi';
import type { SubAccountRow } from '@/generated/schemas';
import { rowOf } from '@/stories/rows';
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
/** the same price for every carrier */
const priced = (p: string) => ({ unifiedPrice: p, mobilePrice: p, unicomPrice: p, telecomPrice: p });
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

export const rows: SubAccountRow[] = [
  subAccount({
    client_id: 'c7k2mq',
    client_name: '苏州好易购电子商务有限公司',
    email: 'ops@haoyigou.example',
    mobile: '13900139001',
    create_time: '2026-11-02 10:15:00',
    balance: '1200.00',
    smstype: 4,
    remarks: 'VIP 客户',
    priceType: 1,
    unifiedPrice: '0.0450',
    mobilePrice: '0.0400',
    unicomPrice: '0.0420',
    telecomPrice: '0.0450',
    balanceAlarm: '100.00',
    alarmMobile: '13900139001',
  }),
  subAccount({
    client_id: 'n4tb8w',
    client_name: '南京甜心烘焙坊',
    status: 5,
    email: 'tianxin@example.com',
    mobile: '13900139002',
    create_time: '2026-10-21 09:00:00',
    balance: '300.50',
    smstype: 0,
    remarks: '欠费冻结',
    ...priced('0.0450'),
    expireDate: '2027-06-30',
  }),
  subAccount({
    ...monthly,
    client_id: 'w9hx3p',
    client_name: '宁波港航物流有限公司',
    oauth_status: 2,
    agent_owned: 0,
    email: 'it@ganghang.example',
    mobile: '13900139003',
  }),
  subAccount({
    ...monthly,
    client_id: 'u3nd7e',
    client_name: '绍兴越城茶业有限公司',
    oauth_status: 1,
    agent_owned: 0,
    email: 'tea@yuecheng.example',
    mobile: '13900139004',
  }),
];

/** issue 27: the list's alerts — 余额不足 (below its 余额提醒) and a pool that expires soon (with the date) */
export const alertRows: SubAccountRow[] = [
  { ...rows[0], balance: '35.20', lowBalance: true, lowBalanceThreshold: '100.00', poolExpireDate: '' },
  subAccount({
    ...rows[1],
    client_id: 'p5ke2r',
    client_name: '杭州西湖茶庄',
    status: 1,
    remarks: '',
    lowBalance: false,
    lowBalanceThreshold: '10.00',
    poolExpireDate: '2026-12-03',
  }),
  { ...rows[2], lowBalance: false, lowBalanceThreshold: '10.00', poolExpireDate: '' },
];

export const stat = {
  total: 3,
  thisMonth: 1,
  frozen: 1,
  certified: 2,
  pending: 1,
  subBalance: '1500.50',
  agentBalance: '48499.50',
};

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
export const testRow: SubAccountRow = {
  ...rows[0],
  client_id: 't6qv2n',
  client_name: '测试账户甲',
  balance: '0.00',
  remarks: '测试账户',
  mobile: '',
  email: '',
  test_expire_time: '2026-12-04 10:00:00',
};
export const testAccountTerms = { giftPieces: 20, days: 7, perAgent: 3 };

/** an open door of the platform's (CMPP, SMGP and SGIP log in with the account's short name) */
const door = (protocol: string, port: number, login = 'cli001') => ({
  protocol,
  enabled: true,
  host: 'sms.yunxun.example',
  port,
  url: '',
  login,
});

/** 接口信息 of c7k2mq: the home page's, with its own host, doors and settings */
export const interfaceInfo = {
  ...accountInfo,
  clientid: 'c7k2mq',
  ipAddress: 'sms.yunxun.example',
  smstype: 4,
  smstype_str: '验证码',
  nodenum: '3',
  doors: [
    door('SMPP', 2775, 'client1'),
    door('CMPP', 7890),
    door('SMGP', 8890),
    door('SGIP', 8801),
    { ...door('HTTP', 443, 'client1'), url: 'https://sms.yunxun.example/openapi/v1' },
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
  const listed = () => list.map((r) => (converted.has(r.client_id) ? { ...r, test_expire_time: '' } : r));
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
            {
              clientid: 't8wz4k',
              password: 'Tq4mZ8vR2n',
              mobile: '',
              email: '',
              expireTime: '2026-12-04 10:00:00',
              giftPieces: 20,
            },
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
        : ok({ clientId: 'c7k2mq', amount: '100.00', balance: '1300.00', agentBalance: '48399.50' }, '充值成功'),
    ),
    http.post('/api/client/rollback', () =>
      ok({ clientId: 'c7k2mq', amount: '100.00', balance: '1100.00', agentBalance: '48599.50' }, '回退成功'),
    ),
    http.post('/api/client/account/freeze', () => ok({ status: 5, status_str: '冻结' }, '冻结成功')),
    http.post('/api/client/account/unfreeze', () => ok({ status: 1, status_str: '注册完成' }, '解冻成功')),
    http.post('/api/client/account/remark', () => ok({ remarks: 'x' }, '备注已保存')),
    http.post('/api/account/getAccountInfo', () =>
      o.interfaceInfo === 'error'
        ? fail(500, '服务器繁忙，请稍后再试')
        : ok(
            o.smppOff
              ? {
                  ...interfaceInfo,
                  doors: interfaceInfo.doors.map((d) =>
                    d.protocol === 'HTTP' ? d : { ...d, enabled: false, port: 0 },
                  ),
                }
              : interfaceInfo,
          ),
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
      return ok(
        {
          ...interfaceInfo,
          ip: f.get('ip') ?? '',
          accessSpeed: Number(f.get('accessSpeed')),
          nodenum: f.get('nodenum') ?? '',
          needextend: Number(f.get('needextend')),
          needextend_str: f.get('needextend') === '1' ? '支持' : '不支持',
        },
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
      return ok({
        clientid: r.client_id,
        name: r.client_name,
        status: r.status,
        oauth_status: r.oauth_status,
        oauth_date: '2026-11-02 11:00:00',
        mobile: r.mobile,
        email: r.email,
        realname: '陈静',
        address: '苏州工业园区星湖街328号',
        needreport: 1,
        needmo: 0,
        deliveryurl: 'https://client.example.com/report',
        mourl: '',
        remarks: r.remarks,
        create_time: r.create_time,
        balance: r.balance,
        paytype: r.paytype,
        agentOwned: r.agent_owned,
        idType: r.agent_owned ? null : 5,
        idNbr: r.agent_owned ? '' : '91330206MA2C8QWER3',
        imgUrl: '',
      });
    }),
    http.post('/api/account/updateClient', async ({ request }) => {
      const f = new URLSearchParams(await request.text());
      const text = ['clientid', 'name', 'mobile', 'email', 'realname', 'address', 'deliveryurl', 'mourl'];
      return ok(
        {
          ...Object.fromEntries(text.map((k) => [k, f.get(k)])),
          status: 1,
          oauth_status: 3,
          needreport: Number(f.get('needreport')),
          needmo: Number(f.get('needmo')),
          remarks: '',
          create_time: '2026-11-02 10:15:00',
          balance: '1200.00',
          paytype: 0,
          agentOwned: 1,
        },
        '修改成功',
      );
    }),
    http.get('/api/client/ledger', () =>
      ok({
        clientid: 'client1',
        name: '苏州好易购电子商务有限公司',
        balance: '1200.00',
        paytype: 0,
        paytype_str: '预付费',
        list: [
          {
            id: 3,
            amount: '1200.00',
            balance_after: '1200.00',
            kind: 12,
            kind_str: '子账户充值',
            remark: '首次充值',
            created_at: '2026-11-02 10:20:00',
          },
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
