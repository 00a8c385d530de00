import { describe, expect, it } from 'vitest';
import { runCommand } from '../../server/cli/operator-channel';
import { hashPassword } from '../../server/lib/crypto';
import { backends, sha256, useServer, type Client, type TestServer } from './harness';
import { png } from '../fixtures/images';

/** A minimal BMP (1x1, 24-bit). */
function bmp(): Buffer {
  const b = Buffer.alloc(58);
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(58, 2);
  b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(1, 18);
  b.writeInt32LE(1, 22);
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(24, 28);
  b.writeUInt32LE(4, 34);
  return b;
}

async function upload(
  c: Client,
  data: Buffer,
  filename = 'licence.png',
  opts: { field?: string; query?: string } = {},
) {
  const boundary = '----smsp' + Math.random().toString(16).slice(2);
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${opts.field ?? 'photoFile'}"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const headers: Record<string, string> = {
    host: 'localhost:8080',
    'content-type': `multipart/form-data; boundary=${boundary}`,
    cookie: [...c.jar].map(([k, v]) => `${k}=${v}`).join('; '),
  };
  if (c.jar.has('XSRF-TOKEN')) headers['x-xsrf-token'] = c.jar.get('XSRF-TOKEN')!;
  const r = await c.server.app.inject({
    method: 'POST',
    url: `/api/file/upload${opts.query ?? ''}`,
    headers,
    payload: body,
    remoteAddress: c.ip,
  });
  return r.json();
}

let seq = 0;
/** A fresh account for one test (agent, or a sub-account of `agent`). */
async function makeAccount(
  s: TestServer,
  p: {
    user_type: '1' | '2';
    agent?: string;
    oauth_status?: number;
    needreport?: number;
    needmo?: number;
    agent_owned?: number;
  },
) {
  seq++;
  const clientid =
    `${p.user_type === '1' ? 't' : 'c'}${process.pid % 1000}${seq}${Math.floor(Math.random() * 100)}`.slice(0, 12);
  const agentId = p.agent
    ? (await s.handle.db.selectFrom('accounts').select('id').where('clientid', '=', p.agent).executeTakeFirstOrThrow())
        .id
    : null;
  const mobile = `135${String(10_000_000 + Math.floor(Math.random() * 89_999_999)).slice(0, 8)}`;
  await s.handle.db
    .insertInto('accounts')
    .values({
      clientid,
      user_type: p.user_type,
      agent_id: agentId,
      name: p.user_type === '1' ? '测试代理商' : '测试企业',
      email: `${clientid}@test.local`,
      mobile,
      password_hash: await hashPassword('Demo1234'),
      oauth_status: p.oauth_status ?? 1,
      needreport: p.needreport ?? 0,
      needmo: p.needmo ?? 0,
      ...(p.agent_owned !== undefined ? { agent_owned: p.agent_owned } : {}),
    })
    .execute();
  return { clientid, mobile, email: `${clientid}@test.local` };
}

async function loggedIn(s: TestServer, clientid: string, password = 'Demo1234', extra: Record<string, unknown> = {}) {
  const c = await s.client().init();
  const r = await c.login(clientid, password, extra);
  if (r.body.code !== 0) throw new Error(`login ${clientid}: ${r.body.msg}`);
  return c;
}

const cli = (s: TestServer, ...argv: string[]) => runCommand({ db: s.handle.db, now: s.clock.now }, argv);

describe.each(backends)('account area (%s)', (backend) => {
  const t = useServer(backend);

  describe('POST /admin/baseinfo/edit', () => {
    it('validates with forms/agent-base-info and saves the agent info', async () => {
      const a = await makeAccount(t.server, { user_type: '1' });
      const c = await loggedIn(t.server, a.clientid);
      const bad = async (p: Record<string, string>) => (await c.post('/api/admin/baseinfo/edit', p)).body;
      expect(await bad({ agent_name: '', address: '上海', mobile: '13512345678' })).toMatchObject({
        code: 400,
        msg: '请完善输入内容之后再提交',
      });
      expect(await bad({ agent_name: '公司', address: '上海' })).toMatchObject({
        code: 400,
        msg: '请完善输入内容之后再提交',
      });
      expect(await bad({ agent_name: '公司', address: '上海', mobile: '2351234567' })).toMatchObject({
        code: 400,
        msg: '手机号码错误',
      });
      expect(await bad({ agent_name: '公司', address: '上海', mobile: '13800138001' })).toEqual({
        code: 500,
        msg: '手机号码已存在',
      });
      expect(
        await bad({ agent_name: '公司', address: '上海', mobile: a.mobile, auto_template_callback_url: 'ftp://x' }),
      ).toMatchObject({ code: 400, msg: '请输入正确的回调地址' });
      const r = await c.post('/api/admin/baseinfo/edit', {
        agent_name: ' 深圳市新代理科技有限公司 ',
        address: '深圳市南山区科技园',
        mobile: a.mobile,
        auto_template_callback_url: 'https://cb.example.com/tpl',
      });
      expect(r.body).toEqual({ code: 0, msg: '保存成功' });
      const info = (await c.get('/api/admin/baseinfo')).body.data;
      expect(info).toMatchObject({
        agent_name: '深圳市新代理科技有限公司',
        address: '深圳市南山区科技园',
        auto_template_callback_url: 'https://cb.example.com/tpl',
        oauth_status: '未认证',
      });
      // the callback URL may be empty
      expect(
        (
          await c.post('/api/admin/baseinfo/edit', {
            agent_name: '公司',
            address: '上海',
            mobile: a.mobile,
            auto_template_callback_url: '',
          })
        ).body.code,
      ).toBe(0);
    });

    it('refuses sub-accounts and anonymous callers', async () => {
      const c = await loggedIn(t.server, 'client1');
      expect(
        (await c.post('/api/admin/baseinfo/edit', { agent_name: 'x', address: 'y', mobile: '13512345678' })).body,
      ).toEqual({ code: 403, msg: '无权访问' });
      const anon = await t.server.client().init();
      expect((await anon.post('/api/admin/baseinfo/edit', {})).body.code).toBe(401);
    });
  });

  describe('GET /account/clientinfo and POST /account/updateClient (a sub-account itself)', () => {
    it('answers the enterprise base info; agents are refused', async () => {
      const c = await loggedIn(t.server, 'client1');
      const r = await c.get('/api/account/clientinfo');
      expect(r.body.code).toBe(0);
      expect(r.body.data).toMatchObject({
        clientid: 'client1',
        name: '苏州好易购电子商务有限公司',
        agent_id: 'agent1',
        oauth_status: 3,
        needreport: 1,
        deliveryurl: 'https://client1.demo.smsp.local/sms/report',
      });
      expect(r.body.data.createtime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      const agent = await loggedIn(t.server, 'agent0');
      expect((await agent.get('/api/account/clientinfo')).body).toEqual({ code: 403, msg: '无权访问' });
      expect((await agent.post('/api/account/updateClient', { name: 'x' })).body).toEqual({
        code: 403,
        msg: '无权访问',
      });
    });

    it('validates, checks uniqueness and the callback rules, saves', async () => {
      const s = await makeAccount(t.server, { user_type: '2', agent: 'agent1', needreport: 1 });
      const c = await loggedIn(t.server, s.clientid);
      const base = {
        name: '宁波好货电子商务有限公司',
        realName: '周敏',
        mobile: s.mobile,
        email: s.email,
        address: '宁波市鄞州区天童南路588号',
        deliveryurl: 'https://nb.example.com/report',
        mourl: 'https://nb.example.com/mo',
      };
      const post = async (p: Record<string, string>) => (await c.post('/api/account/updateClient', p)).body;
      expect(await post({ ...base, name: '' })).toMatchObject({ code: 400, msg: '请完善输入内容之后再提交' });
      expect(await post({ ...base, email: 'not-mail' })).toMatchObject({ code: 400, msg: '邮箱格式不正确' });
      expect(await post({ ...base, mobile: '1234' })).toMatchObject({ code: 400, msg: '手机号码错误' });
      expect(await post({ ...base, mobile: '13900139001' })).toEqual({ code: 500, msg: '手机号码已存在' });
      expect(await post({ ...base, email: 'AGENT1@demo.smsp.local' })).toEqual({ code: 500, msg: '邮箱已存在' });
      expect(await post({ ...base, deliveryurl: '' })).toEqual({ code: 400, msg: '请填写状态报告回调地址' });
      expect(await post(base)).toEqual({ code: 0, msg: '保存成功' });
      const info = (await c.get('/api/account/clientinfo')).body.data;
      // needmo is 0: the uplink URL is cleared
      expect(info).toMatchObject({
        name: base.name,
        realname: '周敏',
        address: base.address,
        deliveryurl: base.deliveryurl,
        mourl: '',
      });
    });

    it('requires the uplink URL when needmo is 1', async () => {
      const s = await makeAccount(t.server, { user_type: '2', agent: 'agent1', needmo: 1 });
      const c = await loggedIn(t.server, s.clientid);
      const r = await c.post('/api/account/updateClient', {
        name: '企业',
        mobile: s.mobile,
        email: s.email,
        address: '地址',
        mourl: '',
      });
      expect(r.body).toEqual({ code: 400, msg: '请填写上行回调地址' });
    });
  });

  describe('POST /admin/info/save', () => {
    it('changes e-mail and mobile with the code sent to the new mobile', async () => {
      const a = await makeAccount(t.server, { user_type: '1' });
      const c = await loggedIn(t.server, a.clientid);
      const post = async (p: Record<string, string>) => (await c.post('/api/admin/info/save', p)).body;
      expect(await post({ countryCode: '86', mobile: '13566660001' })).toMatchObject({
        code: 400,
        msg: '验证码不为空',
      });
      expect(await post({ countryCode: '', mobile: '13566660001', valcode: '1' })).toMatchObject({
        code: 400,
        msg: '请输入正确的国家代码',
      });
      expect(await post({ countryCode: '86', mobile: '', valcode: '1' })).toMatchObject({
        code: 400,
        msg: '请输入正确的手机号',
      });
      expect(await post({ countryCode: '86', mobile: '135abc', valcode: '1' })).toMatchObject({
        code: 400,
        msg: '请输入有效的手机号',
      });
      expect(await post({ countryCode: '86', mobile: '13800138001', valcode: '123456' })).toEqual({
        code: 500,
        msg: '手机号码已存在',
      });
      expect(
        await post({ countryCode: '86', mobile: '13566660001', valcode: '123456', email: 'bad-mail' }),
      ).toMatchObject({ code: 400, msg: '邮箱格式不正确' });
      expect(
        await post({ countryCode: '86', mobile: '13566660001', valcode: '123456', email: 'agent0@demo.smsp.local' }),
      ).toEqual({ code: 500, msg: '邮箱已存在' });
      expect(await post({ countryCode: '999', mobile: '13566660001', valcode: '123456' })).toMatchObject({
        code: 400,
        msg: '请输入正确的国家代码',
      });
      expect(await post({ countryCode: '86', mobile: '13566660001', valcode: '123456' })).toEqual({
        code: 500,
        msg: '验证码错误或已过期',
      });
      expect(
        (await c.post('/api/userCenter/sendNoPicCode', { mobile: '13566660001', countryCode: '86' })).body.code,
      ).toBe(0);
      const code = t.server.smsCode('13566660001', 'mobile')!;
      const wrong = code === '000000' ? '111111' : '000000';
      expect(await post({ countryCode: '86', mobile: '13566660001', valcode: wrong })).toEqual({
        code: 500,
        msg: '验证码错误或已过期',
      });
      expect(
        await post({
          countryCode: '86',
          mobile: '13566660001',
          valcode: code,
          email: 'New.Mail@Example.com',
          realName: '赵敏',
        }),
      ).toEqual({ code: 0, msg: '保存成功' });
      const me = (await c.get('/api/admin/info')).body.data;
      expect(me).toMatchObject({ mobile: '13566660001', email: 'new.mail@example.com', realname: '赵敏' });
      // the code is used up
      expect(await post({ countryCode: '86', mobile: '13566660001', valcode: code })).toEqual({
        code: 500,
        msg: '验证码错误或已过期',
      });
      // and the new mobile logs in
      expect(
        (
          await t.server
            .client()
            .init()
            .then((x) => x.login('13566660001'))
        ).body.code,
      ).toBe(0);
    });
  });

  describe('POST /password/save', () => {
    it('agents send digests; a wrong old password is told; success ends the other sessions and remember tokens', async () => {
      const a = await makeAccount(t.server, { user_type: '1' });
      const c = await loggedIn(t.server, a.clientid);
      const other = await loggedIn(t.server, a.clientid, 'Demo1234', { remember: '1' });
      expect(other.jar.has('remember')).toBe(true);
      const post = async (p: Record<string, string>) => (await c.post('/api/password/save', p)).body;
      expect(await post({ oldPassword: '', newPassword: sha256('Newpass12') })).toMatchObject({
        code: 400,
        msg: '请输入原密码',
      });
      expect(await post({ oldPassword: sha256('Demo1234'), newPassword: 'Newpass12' })).toMatchObject({
        code: 400,
        msg: '密码格式为8-12为数字字母组合',
      });
      expect(await post({ oldPassword: sha256('Wrong1234'), newPassword: sha256('Newpass12') })).toEqual({
        code: 500,
        msg: '原密码错误',
      });
      expect(await post({ oldPassword: sha256('Demo1234'), newPassword: sha256('Demo1234') })).toEqual({
        code: 500,
        msg: '新密码不能与原密码相同',
      });
      expect(await post({ oldPassword: sha256('Demo1234'), newPassword: sha256('Newpass12') })).toEqual({
        code: 0,
        msg: '密码修改成功',
      });
      // this session lives on; the other one and its remember token are gone
      expect((await c.get('/api/login/timeout')).body.data).toBe(true);
      expect((await other.get('/api/login/timeout')).body.data).toBe(false);
      expect(
        (
          await t.server
            .client()
            .init()
            .then((x) => x.login(a.clientid, 'Demo1234'))
        ).body.msg,
      ).toBe('用户名或密码错误');
      expect(
        (
          await t.server
            .client()
            .init()
            .then((x) => x.login(a.clientid, 'Newpass12'))
        ).body.code,
      ).toBe(0);
    });

    it('sub-accounts send plain passwords checked by forms/password-change', async () => {
      const s = await makeAccount(t.server, { user_type: '2', agent: 'agent1' });
      const c = await loggedIn(t.server, s.clientid);
      const post = async (p: Record<string, string>) => (await c.post('/api/password/save', p)).body;
      expect(await post({ oldPassword: 'Demo1234', newPassword: 'Ab12' })).toMatchObject({
        code: 400,
        msg: '密码长度为8-12位之间',
      });
      expect(await post({ oldPassword: 'Demo1234', newPassword: 'Abcdefgh12345' })).toMatchObject({
        code: 400,
        msg: '密码长度为8-12位之间',
      });
      expect(await post({ oldPassword: 'Demo1234', newPassword: 'Abc_12345' })).toMatchObject({
        code: 400,
        msg: '密码格式为8-12为数字字母组合',
      });
      expect(
        await post({ oldPassword: 'Demo1234', newPassword: 'Abc12345', confirmPassword: 'Abc12346' }),
      ).toMatchObject({ code: 400, msg: '两次输入密码不一致' });
      expect(await post({ oldPassword: 'Nope12345', newPassword: 'Abc12345' })).toEqual({
        code: 500,
        msg: '原密码错误',
      });
      expect(await post({ oldPassword: 'Demo1234', newPassword: 'Abc12345', confirmPassword: 'Abc12345' })).toEqual({
        code: 0,
        msg: '密码修改成功',
      });
      expect(
        (
          await t.server
            .client()
            .init()
            .then((x) => x.login(s.clientid, 'Abc12345'))
        ).body.code,
      ).toBe(0);
    });
  });

  describe('POST /file/upload and GET /files/*', () => {
    it('stores images checked by content and serves them to the owner and its agent only', async () => {
      const s = await makeAccount(t.server, { user_type: '2', agent: 'agent1' });
      const c = await loggedIn(t.server, s.clientid);
      const r = await upload(c, png(), 'id-card.PNG');
      expect(r).toMatchObject({ code: 0, msg: '上传成功', data: { type: 'image/png' } });
      expect(r.data.path).toMatch(new RegExp(`^${s.clientid}/[A-Za-z0-9_-]+\\.png$`));
      expect(r.data.url).toBe(`/api/files/${r.data.path}`);
      const own = await c.get(`/api/files/${r.data.path}`);
      expect(own.status).toBe(200);
      expect(own.headers['content-type']).toBe('image/png');
      expect(own.raw.rawPayload.equals(png())).toBe(true);
      // the owner's agent may read it; another agent and another sub-account may not
      expect((await (await loggedIn(t.server, 'agent1')).get(`/api/files/${r.data.path}`)).status).toBe(200);
      expect((await (await loggedIn(t.server, 'agent0')).get(`/api/files/${r.data.path}`)).body).toEqual({
        code: 403,
        msg: '无权访问',
      });
      expect((await (await loggedIn(t.server, 'client1')).get(`/api/files/${r.data.path}`)).body).toEqual({
        code: 403,
        msg: '无权访问',
      });
      expect((await c.get(`/api/files/${s.clientid}/..%2F..%2Foperator.json`)).body.code).toBe(403);
      expect((await c.get(`/api/files/${s.clientid}/missingfile01.png`)).body).toEqual({
        code: 404,
        msg: '文件不存在',
      });
      const anon = await t.server.client().init();
      expect((await anon.get(`/api/files/${r.data.path}`)).body.code).toBe(401);
    });

    it('refuses a text file named .png, a BMP (unless open-account), over 2 MB, a wrong field, no session', async () => {
      const c = await loggedIn(t.server, 'agent0');
      expect(await upload(c, Buffer.from('this is not an image at all'), 'fake.png')).toEqual({
        code: 500,
        msg: '图片上传失败：仅支持 gif、jpg、jpeg、png 格式的图片',
      });
      expect(await upload(c, bmp(), 'scan.bmp')).toEqual({
        code: 500,
        msg: '图片上传失败：仅支持 gif、jpg、jpeg、png 格式的图片',
      });
      expect((await upload(c, bmp(), 'scan.bmp', { query: '?scene=open-account' })).data.path).toMatch(
        /^agent0\/.+\.bmp$/,
      );
      expect(await upload(c, png(2, 2, 2 * 1024 * 1024 + 10), 'big.png')).toEqual({
        code: 500,
        msg: '图片上传失败：图片大小不能超过2M',
      });
      expect((await upload(c, png(2, 2, 2 * 1024 * 1024 - 100), 'nearly.png')).code).toBe(0);
      expect(await upload(c, png(), 'a.png', { field: 'other' })).toEqual({
        code: 500,
        msg: '图片上传失败：请选择要上传的图片',
      });
      expect(await upload(c, Buffer.alloc(0), 'empty.png')).toEqual({ code: 500, msg: '图片上传失败：图片内容为空' });
      const anon = await t.server.client().init();
      expect((await upload(anon, png())).code).toBe(401);
    });
  });

  describe('certification', () => {
    it('submits, is refused while pending, is rejected with a reason, re-certifies, is approved', async () => {
      const a = await makeAccount(t.server, { user_type: '1' });
      const c = await loggedIn(t.server, a.clientid);
      const info0 = (await c.get('/api/admin/cer/info')).body.data;
      expect(info0).toMatchObject({
        clientid: a.clientid,
        agent_id: a.clientid,
        oauth_status: 1,
        img_url: '',
        smsp_img_url: '/api/files/',
        id_typeNum: null,
      });
      const imgs = [];
      for (let i = 0; i < 6; i++) imgs.push((await upload(c, png(i + 1, 1))).data.path);
      const form = {
        id_type: '6',
        company: '深圳市新代理科技有限公司',
        id_nbr: '91440300MA5FXYZ123',
        imgUrl: imgs.slice(0, 2).join('|'),
      };
      const post = async (p: Record<string, string>, url = '/api/admin/cer/add') => (await c.post(url, p)).body;
      expect(await post({ ...form, id_nbr: '' })).toMatchObject({ code: 400, msg: '证件号码不能为空' });
      expect(await post({ ...form, id_nbr: '1'.repeat(21) })).toMatchObject({
        code: 400,
        msg: '证件号码长度不能大于20个字符',
      });
      expect(await post({ ...form, company: '' })).toMatchObject({ code: 400, msg: '公司名称不能为空' });
      expect(await post({ ...form, company: '公'.repeat(61) })).toMatchObject({
        code: 400,
        msg: '公司长度不能大于60个字符',
      });
      expect(await post({ ...form, imgUrl: '' })).toMatchObject({ code: 400, msg: '请上传至少一张证件图片' });
      expect(await post({ ...form, imgUrl: imgs.join('|') })).toMatchObject({ code: 400, msg: '最多五张图片' });
      expect(await post({ ...form, id_type: '5' })).toMatchObject({ code: 400, msg: '请选择证件类型' });
      expect(await post({ ...form, imgUrl: 'client1/demo-business-licence.png' })).toEqual({
        code: 400,
        msg: '证件图片不存在，请重新上传',
      });
      expect(await post({ ...form, imgUrl: `${a.clientid}/nosuchfile0001.png` })).toEqual({
        code: 400,
        msg: '证件图片不存在，请重新上传',
      });
      expect((await c.get('/api/admin/baseinfo')).body.data.oauth_status).toBe('未认证');

      expect(await post(form)).toEqual({ code: 0, msg: '提交成功，请等待审核', data: { oauth_status: 2 } });
      expect((await c.get('/api/admin/baseinfo')).body.data.oauth_status).toBe('待认证');
      expect((await c.get('/api/client/oauth')).body.data.oauth_status).toBe('待认证');
      expect(await post(form)).toEqual({ code: 500, msg: '您的认证资料正在审核中，请勿重复提交' });
      expect(await post(form, '/api/admin/cer/edit')).toEqual({
        code: 500,
        msg: '您的认证资料正在审核中，请勿重复提交',
      });
      const pendingInfo = (await c.get('/api/admin/cer/info')).body.data;
      expect(pendingInfo).toMatchObject({
        cert_type: 2,
        id_typeNum: 6,
        id_type: '三证合一',
        company: form.company,
        id_nbr: form.id_nbr,
        img_url: form.imgUrl,
        oauth_status: 2,
      });

      const list = await cli(t.server, 'cert-list', 'pending');
      expect(list.code).toBe(0);
      expect(list.lines.join('\n')).toContain(a.clientid);
      // labels from schemas/enums, as the CLI printed them before: account kind, certification kind, id type, 待认证
      const row = list.lines
        .join('\n')
        .split('\n')
        .find((l) => l.startsWith(a.clientid))!;
      for (const label of ['代理商', '企业认证', '三证合一', '待认证']) expect(row).toContain(label);
      expect((await cli(t.server, 'cert-reject', a.clientid)).code).toBe(2);
      expect(await cli(t.server, 'cert-reject', a.clientid, '营业执照照片模糊，请重新上传清晰照片')).toMatchObject({
        code: 0,
      });
      expect((await c.get('/api/client/oauth')).body.data).toEqual({
        oauth_status: 4,
        oauth_remark: '营业执照照片模糊，请重新上传清晰照片',
      });
      const rejected = (await c.get('/api/admin/baseinfo')).body.data;
      expect(rejected).toMatchObject({ oauth_status: 4, oauth_remark: '营业执照照片模糊，请重新上传清晰照片' });
      expect((await c.get('/api/admin/cer/info')).body.data).toMatchObject({
        oauth_status: 4,
        remark: '营业执照照片模糊，请重新上传清晰照片',
      });
      expect((await cli(t.server, 'cert-approve', a.clientid)).code).toBe(1);

      // re-certification, as a personal certification this time
      const re = { id_type: '1', company: '李雷', id_nbr: '440301199001011234', imgUrl: imgs.slice(2, 5).join('|') };
      expect(await post(re, '/api/admin/cer/edit')).toEqual({
        code: 0,
        msg: '提交成功，请等待审核',
        data: { oauth_status: 2 },
      });
      expect((await c.get('/api/admin/cer/info')).body.data).toMatchObject({
        cert_type: 1,
        id_typeNum: 1,
        id_type: '个人身份证',
        remark: '',
        oauth_status: 2,
      });
      expect(await cli(t.server, 'cert-approve', a.clientid)).toMatchObject({ code: 0 });
      expect((await c.get('/api/admin/baseinfo')).body.data.oauth_status).toBe(3);
      expect((await c.get('/api/admin/baseinfo')).body.data.oauth_date).toMatch(/^\d{4}-/);
      expect(await post(re)).toEqual({ code: 500, msg: '您已通过认证，无需重复提交' });
      expect((await cli(t.server, 'cert-list')).lines.join('\n')).toContain('认证不通过');
      expect((await cli(t.server, 'cert-approve', 'nobody')).lines.join('')).toContain('账户 nobody 不存在');
    });

    it('auto review (AUTO_REVIEW=1) approves on submit', async () => {
      const s = await makeAccount(t.server, { user_type: '2', agent: 'agent1' });
      const c = await loggedIn(t.server, s.clientid);
      const img = (await upload(c, png())).data.path;
      t.server.app.services.account.autoReview = true;
      try {
        const r = await c.post('/api/admin/cer/add', {
          id_type: '7',
          company: '测试企业',
          id_nbr: 'ABC123',
          imgUrl: img,
        });
        expect(r.body).toEqual({ code: 0, msg: '认证已通过', data: { oauth_status: 3 } });
        expect((await c.get('/api/client/oauth')).body.data.oauth_status).toBe(3);
      } finally {
        t.server.app.services.account.autoReview = false;
      }
    });

    it('GET /client/cer/info: a sub-account reads itself only; an agent its own sub-accounts only', async () => {
      const sub = await loggedIn(t.server, 'client1');
      expect((await sub.get('/api/client/cer/info')).body.data).toMatchObject({
        clientid: 'client1',
        agent_id: 'agent1',
        oauth_status: 3,
        company: '苏州好易购电子商务有限公司',
      });
      expect((await sub.get('/api/client/cer/info?clientId=client1')).body.data.clientid).toBe('client1');
      expect((await sub.get('/api/client/cer/info?clientId=agent1')).body).toEqual({ code: 403, msg: '无权访问' });
      const agent1 = await loggedIn(t.server, 'agent1');
      expect((await agent1.get('/api/client/cer/info?clientId=client1')).body.data).toMatchObject({
        clientid: 'client1',
        id_typeNum: 6,
        id_type: '三证合一',
      });
      const agent0 = await loggedIn(t.server, 'agent0');
      expect((await agent0.get('/api/client/cer/info?clientId=client1')).body).toEqual({ code: 403, msg: '无权访问' });
      expect((await agent0.get('/api/client/cer/info?clientId=nobody')).body).toEqual({ code: 403, msg: '无权访问' });
      // a sub-account reads its own certification through /admin/cer/info too
      expect((await sub.get('/api/admin/cer/info')).body.data).toMatchObject({
        clientid: 'client1',
        agent_id: 'agent1',
        cert_type: 2,
        img_url: 'client1/demo-business-licence.png',
      });
      const anon = await t.server.client().init();
      expect((await anon.get('/api/admin/cer/info')).body.code).toBe(401);
    });
  });

  describe('an agent certifies its sub-account (POST /client/cer/edit, issue 26 item 1)', () => {
    it("submits with the agent's uploads, ownership checked; the review flows as for the account's own", async () => {
      const sub = await makeAccount(t.server, { user_type: '2', agent: 'agent1', agent_owned: 0 });
      const agent1 = await loggedIn(t.server, 'agent1');
      const img = (await upload(agent1, png(3, 3))).data.path;
      const form = { id_type: '6', company: '宁波测试贸易有限公司', id_nbr: '91330206MA2C8QWE11', imgUrl: img };
      const post = async (c: Client, q: string, body: Record<string, string> = form) =>
        (await c.post(`/api/client/cer/edit${q}`, body)).body;
      // the form's own rules
      expect(await post(agent1, `?clientId=${sub.clientid}`, { ...form, id_nbr: '' })).toMatchObject({
        code: 400,
        msg: '证件号码不能为空',
      });
      // no sub-account named, another agent's, not the agent's upload
      expect(await post(agent1, '')).toMatchObject({ code: 400, msg: '请选择子账号' });
      const agent0 = await loggedIn(t.server, 'agent0');
      expect(
        await post(agent0, `?clientId=${sub.clientid}`, {
          ...form,
          imgUrl: (await upload(agent0, png(4, 4))).data.path,
        }),
      ).toEqual({ code: 403, msg: '无权访问' });
      expect(
        await post(agent1, `?clientId=${sub.clientid}`, { ...form, imgUrl: 'client1/demo-business-licence.png' }),
      ).toEqual({ code: 400, msg: '证件图片不存在，请重新上传' });
      // a sub-account cannot use it (agents only)
      const self = await loggedIn(t.server, sub.clientid);
      expect((await self.post(`/api/client/cer/edit?clientId=${sub.clientid}`, form)).body.code).toBe(403);
      // submitted: 待认证, then rejected by the operator, re-submitted by the agent, approved
      expect(await post(agent1, `?clientId=${sub.clientid}`)).toEqual({
        code: 0,
        msg: '提交成功，请等待审核',
        data: { oauth_status: 2 },
      });
      expect((await agent1.get(`/api/client/cer/info?clientId=${sub.clientid}`)).body.data).toMatchObject({
        oauth_status: 2,
        company: form.company,
        img_url: img,
      });
      expect(await post(agent1, `?clientId=${sub.clientid}`)).toEqual({
        code: 500,
        msg: '您的认证资料正在审核中，请勿重复提交',
      });
      expect(await cli(t.server, 'cert-reject', sub.clientid, '照片不清晰')).toMatchObject({ code: 0 });
      expect(await post(agent1, `?clientid=${sub.clientid}`, { ...form, id_nbr: '91330206MA2C8QWE12' })).toMatchObject({
        code: 0,
        data: { oauth_status: 2 },
      });
      expect(await cli(t.server, 'cert-approve', sub.clientid)).toMatchObject({ code: 0 });
      expect((await self.get('/api/client/oauth')).body.data.oauth_status).toBe(3);
      // an agent-owned sub-account needs none
      const owned = await makeAccount(t.server, { user_type: '2', agent: 'agent1', agent_owned: 1, oauth_status: 1 });
      expect(await post(agent1, `?clientId=${owned.clientid}`)).toEqual({
        code: 500,
        msg: '代理商自有账户，无需上传资质',
      });
    });
  });

  describe('the account module (server/modules/account)', () => {
    it('declares every route from a named schema and its answer (OpenAPI), one service on app.services', async () => {
      const c = await loggedIn(t.server, 'agent1');
      const spec = (await c.get('/api/help/openapi.json')).body;
      const bodyOf = (p: string) => spec.paths[p].post.requestBody.content['application/x-www-form-urlencoded'].schema;
      expect(bodyOf('/api/password/save').title).toBe('PasswordSaveParams');
      expect(bodyOf('/api/admin/baseinfo/edit').title).toBe('AgentBaseInfoForm');
      expect(bodyOf('/api/admin/info/save').title).toBe('UserInfoForm');
      expect(bodyOf('/api/admin/cer/add').title).toBe('CertificationForm');
      expect(bodyOf('/api/admin/cer/edit').title).toBe('CertificationForm');
      const cerInfo = spec.paths['/api/client/cer/info'].get;
      expect(cerInfo.parameters.find((p: any) => p.name === 'clientId').schema.maxLength).toBe(32);
      const data = (p: string, m = 'get') =>
        spec.paths[p][m].responses['200'].content['application/json'].schema.properties.data;
      expect(data('/api/client/cer/info').properties.id_typeNum.title).toBe('证件类型');
      expect(data('/api/admin/cer/info').properties.img_url.title).toBe('证件图片');
      expect(data('/api/account/clientinfo').properties.deliveryurl.title).toBe('状态报告回调地址');
      expect(data('/api/admin/cer/add', 'post').properties.oauth_status.type).toBe('integer');
      expect(t.server.app.services.account.constructor.name).toBe('AccountService');
      // a too long parameter is refused by the schema, not read
      expect((await c.get(`/api/client/cer/info?clientId=${'x'.repeat(33)}`)).body).toMatchObject({
        code: 400,
        msg: '参数错误',
      });
      expect((await c.post('/api/password/save', { oldPassword: 'x'.repeat(201) })).body).toMatchObject({
        code: 400,
        msg: '参数错误',
      });
    });
  });
});
