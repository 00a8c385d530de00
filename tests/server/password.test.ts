import { describe, expect, it } from 'vitest';
import { readMailOutbox } from '../../server/modules/verification/outbox';
import { backends, countRows, DEMO_PASSWORD, useServer } from './harness';

describe.each(backends)('image captcha and password recovery (%s)', (backend) => {
  const t = useServer(backend);

  describe('GET /captcha.jpg', () => {
    it('answers a GIF and an httpOnly cid cookie', async () => {
      const c = await t.server.client().init();
      const r = await c.get('/api/captcha.jpg');
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('image/gif');
      expect(r.raw.rawPayload.subarray(0, 6).toString()).toBe('GIF89a');
      expect(r.headers['cache-control']).toBe('no-store');
      const cid = (r.raw.cookies as any[]).find((x) => x.name === 'cid');
      expect(cid.httpOnly).toBe(true);
      // the answer is not in the cookie
      expect(cid.value.toLowerCase()).not.toContain(t.server.lastCaptchaAnswer);
    });
  });

  describe('POST /password/email', () => {
    it('checks the image captcha: single use, case-insensitive, 5 minutes', async () => {
      const c = await t.server.client().init();
      const payload = { sendType: 1, email: 'agent0@demo.smsp.local' };
      expect((await c.post('/api/password/email', { ...payload, captcha: 'zzzz' })).body).toEqual({
        code: 400,
        msg: '图形验证码错误',
      });
      let answer = await c.imageCaptcha();
      expect(
        (await c.post('/api/password/email', { ...payload, captcha: 'wxyz' === answer ? 'abcd' : 'wxyz' })).body.msg,
      ).toBe('图形验证码错误');
      // the wrong try used the picture up: its right answer no longer works
      expect((await c.post('/api/password/email', { ...payload, captcha: answer })).body.msg).toBe('图形验证码错误');
      answer = await c.imageCaptcha();
      t.server.clock.advance(5 * 60_000 + 1000);
      expect((await c.post('/api/password/email', { ...payload, captcha: answer })).body.msg).toBe('图形验证码错误');
      answer = await c.imageCaptcha();
      expect((await c.post('/api/password/email', { ...payload, captcha: ` ${answer.toUpperCase()} ` })).body).toEqual({
        code: 0,
        msg: '发送成功',
      });
      t.server.clock.advance(61_000);
      expect((await c.post('/api/password/email', { ...payload, captcha: answer })).body.msg).toBe('图形验证码错误');
    });

    it('gives the schema messages and keeps the picture for a bad payload', async () => {
      const c = await t.server.client().init();
      const answer = await c.imageCaptcha();
      const cases: [Record<string, unknown>, string][] = [
        [{ sendType: 1, email: 'nope', captcha: answer }, '请输入有效的邮箱'],
        [{ sendType: 1, captcha: answer }, '请输入有效的邮箱'],
        [{ sendType: 2, email: '138abc', countryCode: '86', captcha: answer }, '请输入有效的手机号'],
        [{ sendType: 2, email: '13800138000', captcha: answer }, '请输入正确的国家代码'],
        [{ sendType: 1, email: 'agent0@demo.smsp.local', captcha: '' }, '验证码不可为空'],
      ];
      const before = await countRows(t.server, 'verification_codes');
      for (const [payload, msg] of cases) {
        const r = await c.post('/api/password/email', payload);
        expect([r.body.code, r.body.msg]).toEqual([400, msg]);
      }
      expect(await countRows(t.server, 'verification_codes')).toBe(before);
      expect((await c.post('/api/password/email', { sendType: 3, email: 'a@b.cn', captcha: answer })).body.code).toBe(
        400,
      );
      expect(
        (await c.post('/api/password/email', { sendType: 1, email: 'agent0@demo.smsp.local', captcha: answer })).body
          .code,
      ).toBe(0);
    });

    it('answers 发送成功 for an unknown account without sending anything', async () => {
      const c = await t.server.client().init();
      const mails = readMailOutbox(t.server.dataDir).length;
      const r = await c.post('/api/password/email', {
        sendType: 1,
        email: 'ghost@example.cn',
        captcha: await c.imageCaptcha(),
      });
      expect(r.body).toEqual({ code: 0, msg: '发送成功' });
      expect(readMailOutbox(t.server.dataDir).length).toBe(mails);
      // but the request counts against the limits like any other
      t.server.clock.advance(1000);
      expect(
        (
          await c.post('/api/password/email', {
            sendType: 1,
            email: 'ghost@example.cn',
            captcha: await c.imageCaptcha(),
          })
        ).body.msg,
      ).toBe('验证码发送过于频繁，请60秒后再试');
    });
  });

  describe('POST /password/change', () => {
    it('resets by e-mail: code from the .eml outbox; old password and sessions die', async () => {
      const owner = await t.server.client().init();
      await owner.login('agent0', DEMO_PASSWORD, { remember: '1' });
      expect((await owner.get('/api/login/timeout')).body.data).toBe(true);

      t.server.clock.advance(61_000);
      const c = await t.server.client().init();
      expect(
        (
          await c.post('/api/password/email', {
            sendType: 1,
            email: 'Agent0@demo.smsp.local',
            captcha: await c.imageCaptcha(),
          })
        ).body.code,
      ).toBe(0);
      const mail = readMailOutbox(t.server.dataDir).at(-1)!;
      expect(mail.to).toContain('Agent0@demo.smsp.local');
      expect(mail.subject).toContain('找回密码验证码');
      const code = t.server.mailCode('agent0@demo.smsp.local');
      expect(code).toMatch(/^\d{6}$/);
      expect(mail.text).toContain(code);

      const payload = {
        sendType: 1,
        email: 'agent0@demo.smsp.local',
        validateCode: code,
        password: 'NewPass2026',
        confirmPassword: 'NewPass2026',
      };
      const r = await c.post('/api/password/change', payload);
      expect(r.body.code).toBe(0);
      expect(r.body.msg).toBe('密码修改成功，请重新登录');
      // the owner's session and remember token are gone
      expect((await owner.get('/api/login/timeout')).body.data).toBe(false);
      expect((await c.login('agent0')).body).toEqual({ code: 500, msg: '用户名或密码错误' });
      expect((await c.login('agent0', 'NewPass2026')).body.code).toBe(0);
      // single use
      expect((await (await t.server.client().init()).post('/api/password/change', payload)).body).toEqual({
        code: 500,
        msg: '验证码错误或已过期',
      });
    });

    it('resets by phone and lifts a lock', async () => {
      const db = t.server.handle.db;
      await db
        .updateTable('accounts')
        .set({ status: 7, locked_until: new Date(t.server.clock.t + 600_000) })
        .where('clientid', '=', 'newagent')
        .execute();
      const c = await t.server.client().init();
      const send = await c.post('/api/password/email', {
        sendType: 2,
        email: '13800138002',
        countryCode: '86',
        captcha: await c.imageCaptcha(),
      });
      expect(send.body.code).toBe(0);
      const code = t.server.smsCode('13800138002', 'reset');
      expect(code).toMatch(/^\d{6}$/);
      const r = await c.post('/api/password/change', {
        sendType: 2,
        email: '13800138002',
        countryCode: '86',
        validateCode: code,
        password: 'Phone2026x',
        confirmPassword: 'Phone2026x',
      });
      expect(r.body.code).toBe(0);
      expect((await c.login('newagent', DEMO_PASSWORD)).body.code).toBe(500);
      const l = await c.login('13800138002', 'Phone2026x');
      expect(l.body.code).toBe(0);
      expect(l.body.data.status).toBe(1);
    });

    it('refuses a wrong or expired code and changes nothing', async () => {
      const c = await t.server.client().init();
      t.server.clock.advance(61_000);
      await c.post('/api/password/email', {
        sendType: 1,
        email: 'client1@demo.smsp.local',
        captcha: await c.imageCaptcha(),
      });
      const code = t.server.mailCode('client1@demo.smsp.local')!;
      const base = {
        sendType: 1,
        email: 'client1@demo.smsp.local',
        password: 'Changed2026',
        confirmPassword: 'Changed2026',
      };
      const before = (
        await t.server.handle.db
          .selectFrom('accounts')
          .select('password_hash')
          .where('clientid', '=', 'client1')
          .executeTakeFirstOrThrow()
      ).password_hash;
      expect(
        (await c.post('/api/password/change', { ...base, validateCode: code === '123456' ? '654321' : '123456' })).body,
      ).toEqual({ code: 500, msg: '验证码错误或已过期' });
      expect(
        (await c.post('/api/password/change', { ...base, email: 'agent1@demo.smsp.local', validateCode: code })).body
          .msg,
      ).toBe('验证码错误或已过期');
      t.server.clock.advance(5 * 60_000 + 1000);
      expect((await c.post('/api/password/change', { ...base, validateCode: code })).body.msg).toBe(
        '验证码错误或已过期',
      );
      const after = (
        await t.server.handle.db
          .selectFrom('accounts')
          .select('password_hash')
          .where('clientid', '=', 'client1')
          .executeTakeFirstOrThrow()
      ).password_hash;
      expect(after).toBe(before);
      expect((await c.login('client1')).body.code).toBe(0);
    });

    it('gives the schema messages for the new password', async () => {
      const c = await t.server.client().init();
      const base = { sendType: 1, email: 'client1@demo.smsp.local', validateCode: '123456' };
      const cases: [Record<string, unknown>, string][] = [
        [{ ...base, password: 'Ab1', confirmPassword: 'Ab1' }, '密码的长度必须是8-16位！'],
        [{ ...base, password: 'Abcdefgh12345678X', confirmPassword: 'Abcdefgh12345678X' }, '密码的长度必须是8-16位！'],
        [{ ...base, password: '12345678', confirmPassword: '12345678' }, '密码不能全为数字'],
        [{ ...base, password: 'abcdefgh', confirmPassword: 'abcdefgh' }, '密码不能全为字母'],
        [{ ...base, password: 'abc_12345', confirmPassword: 'abc_12345' }, '密码只能由字母和数字组成'],
        [{ ...base, password: 'Abcd12345', confirmPassword: 'Abcd12346' }, '两次密码不一致'],
        [{ ...base, validateCode: '', password: 'Abcd12345', confirmPassword: 'Abcd12345' }, '验证码不可为空'],
        [
          { sendType: 1, email: 'nope', validateCode: '1', password: 'Abcd12345', confirmPassword: 'Abcd12345' },
          '请输入有效的邮箱',
        ],
      ];
      for (const [payload, msg] of cases) {
        const r = await c.post('/api/password/change', payload);
        expect([r.body.code, r.body.msg]).toEqual([400, msg]);
      }
    });
  });
});
