import { describe, expect, it } from 'vitest';
import { backends, countRows, startServer, useServer, type Client } from './harness';

const form = (over: Record<string, unknown> = {}) => ({
  realName: '杭州明远贸易有限公司',
  email: 'mingyuan@example.cn',
  countryCode: '86',
  mobile: '13612345678',
  validateCode: '000000',
  password: 'Secret88',
  confirmPassword: 'Secret88',
  province: '浙江省',
  city: '杭州市',
  area: '滨江区',
  address: '江南大道3850号',
  ...over,
});

describe.each(backends)('registration and verification codes (%s)', (backend) => {
  const t = useServer(backend);

  async function codeFor(c: Client, mobile: string) {
    const r = await c.sendCode({ mobile, countryCode: '86' });
    expect(r.body).toEqual({ code: 0, msg: '发送成功' });
    const code = t.server.smsCode(mobile, 'register');
    expect(code).toMatch(/^\d{6}$/);
    return code!;
  }

  describe('country codes', () => {
    it('lists calling codes with Chinese names, 中国 +86 first', async () => {
      const r = await (await t.server.client().init()).post('/api/userCenter/getCountryCodeList');
      expect(r.body.code).toBe(0);
      const list = r.body.data as { countryCode: string; countryName: string }[];
      expect(list[0]).toEqual({ countryCode: '86', countryName: '中国' });
      expect(list.length).toBeGreaterThan(200);
      expect(list).toContainEqual({ countryCode: '852', countryName: '香港' });
      expect(list).toContainEqual({ countryCode: '1', countryName: '美国' });
      expect(list).toContainEqual({ countryCode: '81', countryName: '日本' });
    });
  });

  describe('POST /userCenter/sendCode', () => {
    it('writes the SMS to the outbox with a 6-digit code', async () => {
      const c = await t.server.client().init();
      const code = await codeFor(c, '13611110001');
      const fs = await import('node:fs');
      const line = fs
        .readFileSync(`${t.server.dataDir}/outbox/sms.jsonl`, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .at(-1);
      expect(line).toMatchObject({ countryCode: '86', mobile: '13611110001', code, purpose: 'register' });
      expect(line.text).toContain(code);
      expect(line.text).toContain('5分钟');
      expect(new Date(line.time).getTime()).toBeGreaterThan(0);
    });

    it('validates the mobile and the country code', async () => {
      const c = await t.server.client().init();
      const before = await countRows(t.server, 'verification_codes');
      const cases: [Record<string, unknown>, string][] = [
        [{}, '请输入手机号'],
        [{ mobile: '' }, '请输入手机号'],
        [{ mobile: '138-0013' }, '请输入正确的手机号'],
        [{ mobile: '1234567' }, '请输入正确的手机号'],
        [{ mobile: '23800138000' }, '请输入正确的手机号'],
        [{ mobile: '13800138009', countryCode: 'x86' }, '请输入正确的国家代码'],
        [{ mobile: '13800138009', countryCode: '999' }, '请输入正确的国家代码'],
        [{ mobile: '123', countryCode: '852' }, '请输入正确的手机号'],
      ];
      for (const [payload, msg] of cases) {
        const r = await c.sendCode(payload);
        expect([r.body.code, r.body.msg]).toEqual([400, msg]);
      }
      expect(await countRows(t.server, 'verification_codes')).toBe(before);
    });

    it('sends to an international number', async () => {
      const c = await t.server.client().init();
      const r = await c.sendCode({ mobile: '61234567', countryCode: '852' });
      expect(r.body.code).toBe(0);
      expect(t.server.smsCode('61234567')).toMatch(/^\d{6}$/);
    });

    it('refuses a mobile that already has an account', async () => {
      const c = await t.server.client().init();
      const r = await c.sendCode({ mobile: '13800138001', countryCode: '86' });
      expect(r.body).toEqual({ code: 500, msg: '手机号码已存在' });
    });

    it('allows one code per mobile per 60 s', async () => {
      const c = await t.server.client().init();
      await codeFor(c, '13611110002');
      const again = await c.sendCode({ mobile: '13611110002', countryCode: '86' });
      expect(again.body).toEqual({ code: 500, msg: '验证码发送过于频繁，请60秒后再试' });
      // another browser, another IP: still per mobile
      const other = await t.server.client().init();
      expect((await other.sendCode({ mobile: '13611110002', countryCode: '86' })).body.code).toBe(500);
      t.server.clock.advance(61_000);
      expect((await c.sendCode({ mobile: '13611110002', countryCode: '86' })).body.code).toBe(0);
    });

    it('allows 10 codes per mobile a day', async () => {
      t.server.clock.toNextBusinessMorning();
      const c = await t.server.client().init();
      for (let i = 0; i < 10; i++) {
        expect((await c.sendCode({ mobile: '13611110003', countryCode: '86' })).body.code).toBe(0);
        t.server.clock.advance(61_000);
      }
      expect((await c.sendCode({ mobile: '13611110003', countryCode: '86' })).body).toEqual({
        code: 500,
        msg: '今日发送次数已达上限',
      });
      t.server.clock.advance(86_400_000);
      expect((await c.sendCode({ mobile: '13611110003', countryCode: '86' })).body.code).toBe(0);
    });

    it('allows 20 codes per IP a day', async () => {
      t.server.clock.toNextBusinessMorning();
      const c = await t.server.client('192.0.2.77').init();
      for (let i = 0; i < 20; i++) {
        expect(
          (await c.sendCode({ mobile: `1350000${String(i).padStart(4, '0')}`, countryCode: '86' })).body.code,
        ).toBe(0);
      }
      expect((await c.sendCode({ mobile: '13500009999', countryCode: '86' })).body).toEqual({
        code: 500,
        msg: '今日发送次数已达上限',
      });
      expect(
        (
          await t.server
            .client('192.0.2.78')
            .init()
            .then((o) => o.sendCode({ mobile: '13500009999', countryCode: '86' }))
        ).body.code,
      ).toBe(0);
      t.server.clock.advance(86_400_000);
    });
  });

  describe('POST /userCenter/agentRegister', () => {
    it('registers an agent end to end who can then log in; auto-login opens a session', async () => {
      const c = await t.server.client().init();
      const validateCode = await codeFor(c, '13612345678');
      const before = await countRows(t.server, 'accounts');
      const r = await c.post('/api/userCenter/agentRegister', form({ validateCode }));
      expect(r.body.code).toBe(0);
      expect(r.body.msg).toBe('注册成功');
      expect(r.body.data.autoLogin).toBe(true);
      expect(r.body.data.clientid).toMatch(/^a\d{5}$/);
      expect(await countRows(t.server, 'accounts')).toBe(before + 1);
      // the session opened by registration: the console shows the certification view
      const me = await c.get('/api/admin/info');
      expect(me.body.data).toMatchObject({
        userType: '1',
        clientid: r.body.data.clientid,
        operation_mode: '1',
        oauth_status: 1,
        status: 1,
        email: 'mingyuan@example.cn',
        mobile: '13612345678',
        realname: '杭州明远贸易有限公司',
        province: '浙江省',
      });
      expect((await c.get('/api/client/oauth')).body.data.oauth_status).toBe('未认证');
      // the stored hash is argon2id of the SHA-256 of the password
      const row = await t.server.handle.db
        .selectFrom('accounts')
        .select('password_hash')
        .where('clientid', '=', r.body.data.clientid)
        .executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      // log in with each login name
      for (const username of [r.body.data.clientid, 'mingyuan@example.cn', '13612345678']) {
        const l = await (await t.server.client().init()).login(username, 'Secret88');
        expect(l.body.code).toBe(0);
        expect(l.body.data.clientid).toBe(r.body.data.clientid);
      }
      // the code was used up
      const again = await (
        await t.server.client().init()
      ).post('/api/userCenter/agentRegister', form({ validateCode, email: 'x@example.cn' }));
      expect(again.body).toEqual({ code: 500, msg: '验证码错误或已过期' });
    });

    it('refuses a duplicate mobile or e-mail (any case)', async () => {
      const c = await t.server.client().init();
      const v1 = await codeFor(c, '13622220001');
      const dupMail = await c.post(
        '/api/userCenter/agentRegister',
        form({ mobile: '13622220001', email: 'AGENT1@demo.smsp.local', validateCode: v1 }),
      );
      expect(dupMail.body).toEqual({ code: 500, msg: '邮箱已存在' });
      // the code survives a refused try: fix the e-mail and submit again
      const ok = await c.post(
        '/api/userCenter/agentRegister',
        form({ mobile: '13622220001', email: 'new.one@example.cn', validateCode: v1 }),
      );
      expect(ok.body.code).toBe(0);
      // the mobile is now taken: a code cannot even be sent
      const d = await t.server.client().init();
      expect((await d.sendCode({ mobile: '13622220001' })).body).toEqual({ code: 500, msg: '手机号码已存在' });
    });

    it('answers 501 for an unfinished registration, then replaces it with flag 1', async () => {
      const c = await t.server.client().init();
      const code = await codeFor(c, '13633330001');
      const payload = form({ mobile: '13633330001', email: 'pending@demo.smsp.local', validateCode: code });
      const before = await countRows(t.server, 'accounts');
      const r = await c.post('/api/userCenter/agentRegister', payload);
      expect(r.body).toEqual({ code: 501, msg: '该手机号或邮箱有一个未完成的注册，是否继续注册并替换它？' });
      expect(await countRows(t.server, 'accounts')).toBe(before);
      const confirmed = await c.post('/api/userCenter/agentRegister', { ...payload, flag: '1' });
      expect(confirmed.body.code).toBe(0);
      expect(await countRows(t.server, 'accounts')).toBe(before); // one replaced by one
      const old = await t.server.handle.db
        .selectFrom('accounts')
        .select('id')
        .where('clientid', '=', 'a10000')
        .executeTakeFirst();
      expect(old).toBeUndefined();
      expect((await (await t.server.client().init()).login('pending@demo.smsp.local', 'Secret88')).body.code).toBe(0);
    });

    it('refuses a wrong code, counts tries, and kills the code after 5 wrong ones', async () => {
      const c = await t.server.client().init();
      const code = await codeFor(c, '13644440001');
      const wrong = code === '111111' ? '222222' : '111111';
      for (let i = 0; i < 5; i++) {
        const r = await c.post(
          '/api/userCenter/agentRegister',
          form({ mobile: '13644440001', email: 'tries@example.cn', validateCode: wrong }),
        );
        expect(r.body).toEqual({ code: 500, msg: '验证码错误或已过期' });
      }
      const r = await c.post(
        '/api/userCenter/agentRegister',
        form({ mobile: '13644440001', email: 'tries@example.cn', validateCode: code }),
      );
      expect(r.body).toEqual({ code: 500, msg: '验证码错误或已过期' });
    });

    it('refuses an expired code (5 minutes) and a code of another mobile', async () => {
      const c = await t.server.client().init();
      const code = await codeFor(c, '13655550001');
      expect(
        (
          await c.post(
            '/api/userCenter/agentRegister',
            form({ mobile: '13655550002', email: 'other@example.cn', validateCode: code }),
          )
        ).body.msg,
      ).toBe('验证码错误或已过期');
      t.server.clock.advance(5 * 60_000 + 1000);
      expect(
        (
          await c.post(
            '/api/userCenter/agentRegister',
            form({ mobile: '13655550001', email: 'late@example.cn', validateCode: code }),
          )
        ).body.msg,
      ).toBe('验证码错误或已过期');
    });

    it('only the latest code counts', async () => {
      const c = await t.server.client().init();
      const first = await codeFor(c, '13655550003');
      t.server.clock.advance(61_000);
      const second = await codeFor(c, '13655550003');
      if (first !== second) {
        expect(
          (
            await c.post(
              '/api/userCenter/agentRegister',
              form({ mobile: '13655550003', email: 'first@example.cn', validateCode: first }),
            )
          ).body.msg,
        ).toBe('验证码错误或已过期');
      }
      expect(
        (
          await c.post(
            '/api/userCenter/agentRegister',
            form({ mobile: '13655550003', email: 'first@example.cn', validateCode: second }),
          )
        ).body.code,
      ).toBe(0);
    });

    it('gives the schema messages and changes nothing for bad payloads', async () => {
      const c = await t.server.client().init();
      const before = await countRows(t.server, 'accounts');
      const cases: [Record<string, unknown>, string][] = [
        [form({ realName: '  ' }), '请输入个人/公司名称'],
        [form({ realName: 'x'.repeat(61) }), '个人/公司名称不能超过60个字符'],
        [form({ email: '' }), '请输入您的登陆邮箱'],
        [form({ email: 'not-an-email' }), '邮箱格式不正确'],
        [form({ mobile: '' }), '请输入手机号'],
        [form({ mobile: '13a' }), '请输入正确的手机号'],
        [form({ validateCode: '' }), '请输入手机验证码'],
        [form({ password: 'short', confirmPassword: 'short' }), '密码格式为8-12为数字字母组合'],
        [form({ password: 'has space 1', confirmPassword: 'has space 1' }), '密码格式为8-12为数字字母组合'],
        [form({ confirmPassword: 'Other888' }), '两次输入密码不一致'],
        [form({ remark: 'x'.repeat(51) }), '备注最大长度不超过50个字符'],
        [form({ countryCode: '86a' }), '请输入正确的国家代码'],
      ];
      for (const [payload, msg] of cases) {
        const r = await c.post('/api/userCenter/agentRegister', payload);
        expect([r.body.code, r.body.msg]).toEqual([400, msg]);
      }
      const flag = await c.post('/api/userCenter/agentRegister', form({ flag: '2' }));
      expect(flag.body.code).toBe(400);
      expect(await countRows(t.server, 'accounts')).toBe(before);
    });

    it('without auto-login answers autoLogin false and opens no session', async () => {
      const s = await startServer(backend, { config: { registerAutoLogin: false } });
      try {
        const c = await s.client().init();
        await c.sendCode({ mobile: '13666660001' });
        const r = await c.post(
          '/api/userCenter/agentRegister',
          form({ mobile: '13666660001', email: 'noauto@example.cn', validateCode: s.smsCode('13666660001') }),
        );
        expect(r.body.code).toBe(0);
        expect(r.body.data.autoLogin).toBe(false);
        expect((await c.get('/api/login/timeout')).body.data).toBe(false);
        expect((await c.login(r.body.data.clientid, 'Secret88')).body.code).toBe(0);
      } finally {
        await s.close();
      }
    });
  });

  describe('POST /userCenter/sendNoPicCode', () => {
    it('needs a session, then sends a code to a new mobile', async () => {
      const c = await t.server.client().init();
      expect(
        (await c.post('/api/userCenter/sendNoPicCode', { mobile: '13677770001', countryCode: '86' })).body.code,
      ).toBe(401);
      await c.login('agent0');
      const r = await c.post('/api/userCenter/sendNoPicCode', { mobile: '13677770001', countryCode: '86' });
      expect(r.body).toEqual({ code: 0, msg: '发送成功' });
      expect(t.server.smsCode('13677770001', 'mobile')).toMatch(/^\d{6}$/);
      expect(
        (await c.post('/api/userCenter/sendNoPicCode', { mobile: '13677770001', countryCode: '86' })).body.msg,
      ).toBe('验证码发送过于频繁，请60秒后再试');
      expect(
        (await c.post('/api/userCenter/sendNoPicCode', { mobile: '13800138001', countryCode: '86' })).body,
      ).toEqual({ code: 500, msg: '手机号码已存在' });
      expect((await c.post('/api/userCenter/sendNoPicCode', { mobile: 'abc' })).body).toMatchObject({
        code: 400,
        msg: '请输入正确的手机号',
      });
      // its own mobile is not "taken"
      expect(
        (await c.post('/api/userCenter/sendNoPicCode', { mobile: '13800138000', countryCode: '86' })).body.code,
      ).toBe(0);
    });
  });

  describe('per-IP request limit (@fastify/rate-limit)', () => {
    it('answers 429 with a Chinese message beyond the per-minute limit', async () => {
      const s = await startServer(backend, { config: { ipRateLimitPerMinute: 3 } });
      try {
        const c = await s.client().init();
        const codes: number[] = [];
        for (let i = 0; i < 4; i++) codes.push((await c.sendCode({ mobile: `1368888000${i}` })).body.code);
        expect(codes).toEqual([0, 0, 0, 429]);
        expect((await c.sendCode({ mobile: '13688880009' })).body).toEqual({
          code: 429,
          msg: '请求过于频繁，请稍后再试',
        });
        // other endpoints and other IPs are not affected
        expect((await c.get('/api/login/timeout')).body.code).toBe(0);
        expect((await (await s.client().init()).sendCode({ mobile: '13688880009' })).body.code).toBe(0);
      } finally {
        await s.close();
      }
    });
  });
});
