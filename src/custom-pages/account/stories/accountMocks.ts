/** MSW handlers and fixtures for the account area's stories (story data only). */
import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import type { AgentBaseInfo, CertificationInfo, CurrentUser, EnterpriseBaseInfo } from '@/generated/schemas';
import { agentPackageMode, consoleApi, fail, ok, subAccount } from '@/stories/mockApi';
import { answering } from '@/stories/pageRows';

/** a 1x1 PNG, served for every stored file */
export const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC'),
  (c) => c.charCodeAt(0),
);

export const agentUser: CurrentUser = { ...agentPackageMode, email: 'wanglei@yunxun.example', mobile: '13800138000' };
export const subUser: CurrentUser = { ...subAccount, email: 'lina@youpin.example', mobile: '13900139001' };

export const agentBase: AgentBaseInfo = {
  agent_id: 'a10001',
  agent_name: '深圳市云讯通信有限公司',
  status: 1,
  oauth_status: 3,
  oauth_date: '2026-01-15 10:30:00',
  oauth_remark: '',
  address: '深圳市南山区科技园南区高新南七道',
  mobile: '13800138000',
  email: 'wanglei@yunxun.example',
  create_time: '2025-12-01 09:00:00',
  update_time: '2026-01-15 10:30:00',
  auto_template_callback_url: 'https://yunxun.example/template/callback',
};

export const enterpriseBase: EnterpriseBaseInfo = {
  clientid: 'b20001',
  name: '上海优品电商有限公司',
  status: 1,
  createtime: '2026-02-01 14:20:00',
  oauth_status: 3,
  oauth_date: '2026-02-03 10:00:00',
  oauth_remark: '',
  mobile: '13900139001',
  email: 'lina@youpin.example',
  realname: '李娜',
  province: '上海市',
  city: '上海市',
  area: '徐汇区',
  address: '漕溪北路88号圣爱大厦18楼',
  agent_id: 'a10001',
  needreport: 1,
  needaudit: 0,
  needmo: 0,
  ip: '',
  deliveryurl: 'https://youpin.example/sms/report',
  mourl: '',
  needextend: 0,
  remarks: '',
};

export const certNone: CertificationInfo = {
  clientid: 'a10001',
  agent_id: 'a10001',
  cert_type: null,
  id_typeNum: null,
  id_type: '',
  company: '',
  id_nbr: '',
  img_url: '',
  smsp_img_url: '/api/files/',
  oauth_status: 1,
  oauth_date: '',
  remark: '',
  submitted_at: '',
  reviewed_at: '',
};

export const certPending: CertificationInfo = {
  ...certNone,
  cert_type: 2,
  id_typeNum: 6,
  id_type: '三证合一',
  company: '深圳市云讯通信有限公司',
  id_nbr: '91440300MA5FXYZ123',
  img_url: 'a10001/licence0001.png|a10001/licence0002.png',
  oauth_status: 2,
  submitted_at: '2026-03-02 09:12:00',
};
export const certCertified: CertificationInfo = {
  ...certPending,
  oauth_status: 3,
  oauth_date: '2026-03-02 15:00:00',
  reviewed_at: '2026-03-02 15:00:00',
};
export const certRejected: CertificationInfo = {
  ...certPending,
  oauth_status: 4,
  remark: '营业执照照片模糊，请重新上传清晰照片',
  reviewed_at: '2026-03-02 15:00:00',
};

const OAUTH_WORD: Record<number, string | number> = { 1: '未认证', 2: '待认证', 3: 3, 4: 4 };

export interface AccountApiOptions {
  user?: CurrentUser;
  baseInfo?: Partial<AgentBaseInfo>;
  enterprise?: Partial<EnterpriseBaseInfo>;
  cert?: CertificationInfo;
  /** answer of POST /file/upload: 'ok' or a refusal message */
  upload?: 'ok' | string;
  /** never answer the reads (loading state) */
  loading?: boolean;
  /** extra handlers (win over these) */
  extra?: HttpHandler[];
  /** a submitted certification becomes the current one (pending) */
  stateful?: boolean;
  /** records the bodies posted, by path */
  posted?: Record<string, Record<string, string>[]>;
}

export function accountApi(o: AccountApiOptions = {}): HttpHandler[] {
  const user = o.user ?? agentUser;
  let cert = o.cert ?? certCertified;
  // each form posted, kept by its path
  const { post } = answering(o.posted);
  const hang = async () => {
    if (o.loading) await delay('infinite');
  };
  let uploads = 0;
  return [
    ...(o.extra ?? []),
    http.get('/api/admin/info', async () => (await hang(), ok(user))),
    http.get(
      '/api/admin/baseinfo',
      async () => (
        await hang(),
        ok({
          ...agentBase,
          oauth_status: OAUTH_WORD[Number(cert.oauth_status)] ?? 3,
          oauth_remark: cert.remark,
          ...o.baseInfo,
        })
      ),
    ),
    http.get('/api/client/oauth', () =>
      ok({ oauth_status: OAUTH_WORD[Number(cert.oauth_status)] ?? 3, oauth_remark: cert.remark }),
    ),
    http.get('/api/account/clientinfo', async () => (await hang(), ok({ ...enterpriseBase, ...o.enterprise }))),
    http.get('/api/admin/cer/info', async () => (await hang(), ok(cert))),
    http.get('/api/client/cer/info', ({ request }) => {
      const id = new URL(request.url).searchParams.get('clientId');
      if (id === 'x99999') return fail(403, '无权访问');
      return ok({
        ...certCertified,
        clientid: id ?? 'b20001',
        agent_id: 'a10001',
        company: '上海优品电商有限公司',
        img_url: 'b20001/licence0001.png',
      });
    }),
    http.get('/api/files/*', () => new HttpResponse(PNG, { headers: { 'content-type': 'image/png' } })),
    http.post('/api/userCenter/getCountryCodeList', () =>
      ok([
        { countryCode: '86', countryName: '中国' },
        { countryCode: '852', countryName: '中国香港' },
        { countryCode: '1', countryName: '美国' },
      ]),
    ),
    post('/userCenter/sendNoPicCode', 'sendNoPicCode', (b) =>
      b.mobile === '13800138001' ? fail(500, '手机号码已存在') : ok(null, '发送成功'),
    ),
    post('/admin/info/save', 'info/save', (b) =>
      b.valcode === '000000' ? fail(500, '验证码错误或已过期') : ok(null, '保存成功'),
    ),
    post('/admin/baseinfo/edit', 'baseinfo/edit', (b) =>
      b.mobile === '13800138001' ? fail(500, '手机号码已存在') : ok(null, '保存成功'),
    ),
    post('/account/updateClient', 'updateClient', (b) =>
      b.email === 'taken@example.com' ? fail(500, '邮箱已存在') : ok(null, '保存成功'),
    ),
    post('/password/save', 'password/save', (b) => {
      const wrong =
        b.oldPassword === 'Wrong1234' ||
        b.oldPassword === 'a6f1bb0d6d5a7f1e8e7a2cfb0a62f4a1b3ec6f7cbd38a4e6b6fa7f7ff2c1d4b9';
      return wrong ? fail(500, '原密码错误') : ok(null, '密码修改成功');
    }),
    http.post('/api/file/upload', async () => {
      if (o.upload && o.upload !== 'ok') return fail(500, o.upload);
      uploads++;
      const path = `${user.clientid}/upload${String(uploads).padStart(4, '0')}.png`;
      return ok({ path, url: `/api/files/${path}`, size: 68, type: 'image/png' }, '上传成功');
    }),
    ...(['cer/add', 'cer/edit'] as const).map((p) =>
      post(`/admin/${p}`, p, (b) => {
        if (o.stateful)
          cert = {
            ...certPending,
            id_typeNum: Number(b.id_type) as CertificationInfo['id_typeNum'],
            company: b.company,
            id_nbr: b.id_nbr,
            img_url: b.imgUrl,
            cert_type: b.id_type === '1' ? 1 : 2,
            id_type: b.id_type === '1' ? '个人身份证' : '三证合一',
          };
        return ok({ oauth_status: 2 }, '提交成功，请等待审核');
      }),
    ),
    ...consoleApi({ user }),
  ];
}
