import { describe, expect, it } from 'vitest';
import { backends, countRows, DEMO_PASSWORD, humanTrack, sha256, useServer } from './harness';

describe.each(backends)('session, slider, login (%s)', (backend) => {
  const t = useServer(backend);

  describe('CSRF (double submit)', () => {
    it('sets a readable XSRF-TOKEN cookie on the first answer', async () => {
      const r = await t.server.client().get('/api/login/timeout');
      expect(r.body).toEqual({ code: 0, msg: '成功', data: false });
      const c = (r.raw.cookies as any[]).find((x) => x.name === 'XSRF-TOKEN');
      expect(c?.value).toMatch(/^[\w-]{20,}$/);
      expect(c?.httpOnly).toBeFalsy();
    });

    it('refuses a POST without the header, with a wrong header, or without the cookie', async () => {
      const c = await t.server.client().init();
      const before = await countRows(t.server, 'sessions');
      for (const r of [
        await c.post('/api/login', { username: 'agent1', password: sha256(DEMO_PASSWORD) }, { csrf: false }),
        await c.post('/api/login', { username: 'agent1' }, { headers: { 'x-xsrf-token': 'forged' } }),
        await t.server.client().post('/api/logout'),
      ]) {
        expect(r.status).toBe(200);
        expect(r.body).toEqual({ code: 403, msg: '非法请求，请刷新页面后重试' });
      }
      expect(await countRows(t.server, 'sessions')).toBe(before);
    });
  });

  describe('slider captcha', () => {
    it('issues a challenge and a token for a human-looking track', async () => {
      const c = await t.server.client().init();
      const { server, token } = await c.slider();
      expect(server).toBeTruthy();
      expect(token).toBeTruthy();
    });

    it('accepts the track as a JSON string in a form post', async () => {
      const c = await t.server.client().init();
      const { body: ch } = await c.get('/api/captcha/slider');
      const r = await c.post('/api/captcha/slider/verify', {
        server: ch.data.server,
        width: 300,
        track: JSON.stringify(humanTrack(300)),
      });
      expect(r.body.code).toBe(0);
      expect(r.body.msg).toBe('验证通过');
    });

    it.each([
      ['does not reach the end', humanTrack(260).map(([x, ms]) => [x * 0.8, ms])],
      ['is too fast', humanTrack(260, { ms: 120 })],
      [
        'has too few points',
        [
          [0, 0],
          [130, 200],
          [260, 400],
        ],
      ],
      [
        'jumps',
        [
          [0, 0],
          [1, 100],
          [2, 200],
          [3, 300],
          [260, 400],
        ],
      ],
      ['goes back and forth', Array.from({ length: 20 }, (_, i) => [i === 19 ? 260 : (i % 2) * 100 + i, i * 40])],
      ['runs time backwards', humanTrack(260).map(([x, ms], i) => [x, i === 5 ? 0 : ms])],
    ])('refuses a track that %s', async (_name, track) => {
      const c = await t.server.client().init();
      const { body: ch } = await c.get('/api/captcha/slider');
      const r = await c.post(
        '/api/captcha/slider/verify',
        { server: ch.data.server, width: 260, track },
        { json: true },
      );
      expect(r.body).toEqual({ code: 400, msg: '请按住滑块，拖到最右边' });
    });

    it('refuses malformed payloads with the slider message', async () => {
      const c = await t.server.client().init();
      for (const payload of [
        {},
        { server: 'x', width: 260 },
        { server: 'x', width: 'wide', track: [[0, 0]] },
        {
          server: 'x',
          width: 260,
          track: [
            ['a', 'b'],
            [1, 2],
          ],
        },
      ]) {
        const r = await c.post('/api/captcha/slider/verify', payload, { json: true });
        expect(r.body.code).toBe(400);
        expect(r.body.msg).toBe('请按住滑块，拖到最右边');
      }
    });

    it('uses a challenge once, even after a failed try', async () => {
      const c = await t.server.client().init();
      const { body: ch } = await c.get('/api/captcha/slider');
      const bad = await c.post(
        '/api/captcha/slider/verify',
        {
          server: ch.data.server,
          width: 260,
          track: [
            [0, 0],
            [1, 1],
          ],
        },
        { json: true },
      );
      expect(bad.body.code).toBe(400);
      const again = await c.post(
        '/api/captcha/slider/verify',
        { server: ch.data.server, width: 260, track: humanTrack(260) },
        { json: true },
      );
      expect(again.body).toEqual({ code: 400, msg: '验证已失效，请重新拖动滑块' });
    });

    it('expires a challenge after 2 minutes', async () => {
      const c = await t.server.client().init();
      const { body: ch } = await c.get('/api/captcha/slider');
      t.server.clock.advance(121_000);
      const r = await c.post(
        '/api/captcha/slider/verify',
        { server: ch.data.server, width: 260, track: humanTrack(260) },
        { json: true },
      );
      expect(r.body.msg).toBe('验证已失效，请重新拖动滑块');
    });
  });

  describe('login', () => {
    it('needs a slider token, which works once and only with its challenge', async () => {
      const c = await t.server.client().init();
      const creds = { username: 'agent1', password: sha256(DEMO_PASSWORD) };
      expect((await c.post('/api/login', creds)).body).toEqual({ code: 402, msg: '请先完成滑块验证' });
      const s1 = await c.slider();
      const s2 = await c.slider();
      expect((await c.post('/api/login', { ...creds, server: s2.server, token: s1.token })).body.code).toBe(402);
      const ok = await c.post('/api/login', { ...creds, ...s2 });
      expect(ok.body.code).toBe(0);
      const reused = await t.server.client().init();
      expect((await reused.post('/api/login', { ...creds, ...s2 })).body.code).toBe(402);
      // s1's token was used up by the mismatched try above
      expect((await reused.post('/api/login', { ...creds, ...s1 })).body.code).toBe(402);
    });

    it('refuses an expired slider token', async () => {
      const c = await t.server.client().init();
      const s = await c.slider();
      t.server.clock.advance(121_000);
      const r = await c.post('/api/login', { username: 'agent1', password: sha256(DEMO_PASSWORD), ...s });
      expect(r.body.code).toBe(402);
    });

    it('logs in with the clientid and answers the current user', async () => {
      const c = await t.server.client().init();
      const r = await c.login('agent1');
      expect(r.body.code).toBe(0);
      expect(r.body.msg).toBe('登录成功');
      expect(r.body.data).toMatchObject({
        userType: '1',
        clientid: 'agent1',
        agent_id: 'agent1',
        operation_mode: '1',
        email: 'agent1@demo.smsp.local',
        oauth_status: 3,
        status: 1,
      });
      const sid = (r.raw.cookies as any[]).find((x) => x.name === 'sid');
      expect(sid.httpOnly).toBe(true);
      expect(sid.sameSite).toBe('Lax');
      expect((await c.get('/api/login/timeout')).body.data).toBe(true);
    });

    it('logs in with the e-mail (any case, trimmed) and with the mobile', async () => {
      expect((await (await t.server.client().init()).login('  AGENT0@demo.smsp.local ')).body.data.clientid).toBe(
        'agent0',
      );
      expect((await (await t.server.client().init()).login('13800138002')).body.data.clientid).toBe('newagent');
    });

    it('answers a sub-account with its agent and operation mode', async () => {
      const r = await (await t.server.client().init()).login('client1');
      expect(r.body.data).toMatchObject({
        userType: '2',
        clientid: 'client1',
        agent_id: 'agent1',
        operation_mode: '1',
      });
    });

    it('gives the schema messages for bad payloads and does not use the slider token', async () => {
      const c = await t.server.client().init();
      const s = await c.slider();
      const cases: [Record<string, unknown>, string][] = [
        [{ password: 'x' }, '请输入帐户名'],
        [{ username: '   ', password: 'x' }, '请输入帐户名'],
        [{ username: 'agent1' }, '请输入密码'],
        [{ username: 'bad@mail', password: 'x' }, '邮箱格式不正确'],
      ];
      for (const [payload, msg] of cases) {
        const r = await c.post('/api/login', { ...payload, ...s });
        expect(r.body.code).toBe(400);
        expect(r.body.msg).toBe(msg);
        expect(r.body.data.errors[0].message).toBe(msg);
      }
      expect(
        (await c.post('/api/login', { username: 'agent1', password: sha256(DEMO_PASSWORD), ...s })).body.code,
      ).toBe(0);
    });

    it('refuses a wrong password or an unknown user with one message', async () => {
      const c = await t.server.client().init();
      expect((await c.login('agent0', 'Wrong1234')).body).toEqual({ code: 500, msg: '用户名或密码错误' });
      expect((await c.login('nobody')).body).toEqual({ code: 500, msg: '用户名或密码错误' });
      expect((await c.login('nobody@demo.smsp.local')).body).toEqual({ code: 500, msg: '用户名或密码错误' });
      // a plain (undigested) password does not work either
      const s = await c.slider();
      expect((await c.post('/api/login', { username: 'agent0', password: DEMO_PASSWORD, ...s })).body.code).toBe(500);
    });

    // the policy changed with issue 9 (finding 7): the lock is per (login name, client address), not per account
    it('locks the name for that address after 5 failures for 15 minutes, then lets it in again', async () => {
      const c = await t.server.client().init();
      for (let i = 1; i <= 4; i++) expect((await c.login('newagent', 'Wrong1234')).body.msg).toBe('用户名或密码错误');
      expect((await c.login('newagent', 'Wrong1234')).body).toEqual({ code: 423, msg: '账户已锁定，请15分钟后再试' });
      // even the right password is refused while locked, from this address
      expect((await c.login('newagent')).body).toEqual({ code: 423, msg: '账户已锁定，请15分钟后再试' });
      const row = await t.server.handle.db
        .selectFrom('accounts')
        .select(['status'])
        .where('clientid', '=', 'newagent')
        .executeTakeFirstOrThrow();
      expect(row.status).toBe(1);
      t.server.clock.advance(15 * 60_000 + 1000);
      const r = await c.login('newagent');
      expect(r.body.code).toBe(0);
      expect(r.body.data.status).toBe(1);
    });

    it('a successful login resets the failure count', async () => {
      await t.server.handle.db
        .updateTable('accounts')
        .set({ failed_logins: 0 })
        .where('clientid', '=', 'agent0')
        .execute();
      const c = await t.server.client().init();
      for (let i = 0; i < 4; i++) await c.login('agent0', 'Wrong1234');
      expect((await c.login('agent0')).body.code).toBe(0);
      for (let i = 0; i < 4; i++) expect((await c.login('agent0', 'Wrong1234')).body.code).toBe(500);
      expect((await c.login('agent0')).body.code).toBe(0);
    });

    it('refuses frozen, cancelled and unfinished accounts with their messages', async () => {
      const db = t.server.handle.db;
      await db.updateTable('accounts').set({ status: 5 }).where('clientid', '=', 'client1').execute();
      const c = await t.server.client().init();
      expect((await c.login('client1')).body).toEqual({ code: 423, msg: '账户已冻结，请联系客服' });
      await db.updateTable('accounts').set({ status: 6 }).where('clientid', '=', 'client1').execute();
      expect((await c.login('client1')).body).toEqual({ code: 423, msg: '账户已注销' });
      await db.updateTable('accounts').set({ status: 1 }).where('clientid', '=', 'client1').execute();
      expect((await c.login('a10000')).body).toEqual({ code: 500, msg: '账户未激活，请重新注册' });
      // a wrong password on a frozen account says nothing about its state
      await db.updateTable('accounts').set({ status: 5 }).where('clientid', '=', 'client1').execute();
      expect((await c.login('client1', 'Wrong1234')).body.msg).toBe('用户名或密码错误');
      await db.updateTable('accounts').set({ status: 1 }).where('clientid', '=', 'client1').execute();
    });

    it('ends the session of an account that gets frozen', async () => {
      const db = t.server.handle.db;
      const c = await t.server.client().init();
      await c.login('client1');
      await db.updateTable('accounts').set({ status: 5 }).where('clientid', '=', 'client1').execute();
      expect((await c.get('/api/login/timeout')).body.data).toBe(false);
      await db.updateTable('accounts').set({ status: 1 }).where('clientid', '=', 'client1').execute();
    });
  });

  describe('sessions and remember-me', () => {
    it('answers 401 登录超时 with the timeout header without a session', async () => {
      const c = await t.server.client().init();
      for (const url of ['/api/admin/info', '/api/admin/baseinfo', '/api/client/oauth']) {
        const r = await c.get(url);
        expect(r.body).toEqual({ code: 401, msg: '登录超时' });
        expect(r.headers['x-session-timeout']).toBe('1');
      }
      const r = await c.post('/api/userCenter/sendNoPicCode', { mobile: '13912345678', countryCode: '86' });
      expect(r.body.code).toBe(401);
      expect(r.headers['x-session-timeout']).toBe('1');
    });

    it('slides the idle expiry and times out after 2 idle hours', async () => {
      const c = await t.server.client().init();
      await c.login('agent0');
      t.server.clock.advance(90 * 60_000);
      expect((await c.get('/api/login/timeout')).body.data).toBe(true);
      t.server.clock.advance(90 * 60_000);
      expect((await c.get('/api/login/timeout')).body.data).toBe(true);
      t.server.clock.advance(2 * 3600_000 + 1000);
      expect((await c.get('/api/login/timeout')).body.data).toBe(false);
      expect((await c.get('/api/admin/info')).body.code).toBe(401);
    });

    it('never puts a password into a cookie', async () => {
      const c = await t.server.client().init();
      const r = await c.login('agent1', DEMO_PASSWORD, { remember: '1' });
      const values = (r.raw.cookies as any[]).map((x) => `${x.name}=${x.value}`).join(';');
      expect(values).not.toContain(DEMO_PASSWORD);
      expect(values).not.toContain(sha256(DEMO_PASSWORD));
      expect(values.toLowerCase()).not.toContain('password');
      const remember = (r.raw.cookies as any[]).find((x) => x.name === 'remember');
      expect(remember.httpOnly).toBe(true);
      expect(remember.maxAge).toBe(7 * 86400);
      expect(JSON.stringify(c.jar.get('remember'))).not.toContain(DEMO_PASSWORD);
    });

    it('renews a session from the remember token after the session row is gone, until logout', async () => {
      const c = await t.server.client().init();
      await c.login('agent1', DEMO_PASSWORD, { remember: 'true' });
      await t.server.handle.db.deleteFrom('sessions').execute();
      const oldSid = c.jar.get('sid');
      const r = await c.get('/api/login/timeout');
      expect(r.body.data).toBe(true);
      expect(c.jar.get('sid')).toBeTruthy();
      expect(c.jar.get('sid')).not.toBe(oldSid);
      expect((await c.get('/api/admin/info')).body.data.clientid).toBe('agent1');
      // also when the session cookie is missing altogether (browser restarted)
      c.jar.delete('sid');
      expect((await c.get('/api/admin/info')).body.data.clientid).toBe('agent1');
      const remember = c.jar.get('remember')!;
      expect((await c.post('/api/logout')).body.code).toBe(0);
      expect((await c.get('/api/login/timeout')).body.data).toBe(false);
      // a copy of the old remember cookie is useless after logout
      const thief = await t.server.client().init();
      thief.jar.set('remember', remember);
      expect((await thief.get('/api/login/timeout')).body.data).toBe(false);
    });

    it('does not remember without the checkbox, and the remember token expires after 7 days', async () => {
      const c = await t.server.client().init();
      const r = await c.login('agent0');
      expect(r.setCookies.remember).toBeUndefined();
      const d = await t.server.client().init();
      await d.login('agent0', DEMO_PASSWORD, { remember: '1' });
      t.server.clock.advance(7 * 86_400_000 + 1000);
      expect((await d.get('/api/login/timeout')).body.data).toBe(false);
    });

    it('logout ends the session and is harmless without one', async () => {
      const c = await t.server.client().init();
      await c.login('agent0');
      const sid = c.jar.get('sid')!;
      expect((await c.post('/api/logout')).body.code).toBe(0);
      const replay = await t.server.client().init();
      replay.jar.set('sid', sid);
      expect((await replay.get('/api/login/timeout')).body.data).toBe(false);
      expect((await (await t.server.client().init()).post('/api/logout')).body.code).toBe(0);
    });
  });

  describe('profile', () => {
    it('GET /admin/info answers the current user', async () => {
      const c = await t.server.client().init();
      await c.login('agent0');
      const r = await c.get('/api/admin/info');
      expect(r.body.code).toBe(0);
      expect(r.body.data).toEqual({
        userType: '1',
        clientid: 'agent0',
        agent_id: 'agent0',
        operation_mode: '0',
        email: 'agent0@demo.smsp.local',
        realname: '李秀英',
        mobile: '13800138000',
        name: '杭州讯达网络有限公司',
        province: '浙江省',
        city: '杭州市',
        area: '西湖区',
        address: '文三路478号华星时代广场A座12楼',
        deliveryurl: '',
        mourl: '',
        oauth_status: 3,
        status: 1,
        phone_inout_type: 0,
        paytype: 0,
      });
    });

    it('GET /admin/baseinfo and /client/oauth encode oauth_status as the console expects', async () => {
      const db = t.server.handle.db;
      const c = await t.server.client().init();
      await c.login('newagent');
      const base = await c.get('/api/admin/baseinfo');
      expect(base.body.data).toMatchObject({
        agent_id: 'newagent',
        agent_name: '张伟',
        oauth_status: '未认证',
        mobile: '13800138002',
        auto_template_callback_url: '',
      });
      expect(base.body.data.create_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect((await c.get('/api/client/oauth')).body.data).toEqual({ oauth_status: '未认证' });
      await db.updateTable('accounts').set({ oauth_status: 2 }).where('clientid', '=', 'newagent').execute();
      expect((await c.get('/api/client/oauth')).body.data).toEqual({ oauth_status: '待认证' });
      await db
        .updateTable('accounts')
        .set({ oauth_status: 4, oauth_remark: '营业执照不清晰' })
        .where('clientid', '=', 'newagent')
        .execute();
      expect((await c.get('/api/admin/baseinfo')).body.data).toMatchObject({
        oauth_status: 4,
        oauth_remark: '营业执照不清晰',
      });
      await db
        .updateTable('accounts')
        .set({ oauth_status: 1, oauth_remark: '' })
        .where('clientid', '=', 'newagent')
        .execute();
      const certified = await t.server.client().init();
      await certified.login('agent1');
      const info = (await certified.get('/api/admin/baseinfo')).body.data;
      expect(info).toMatchObject({ oauth_status: 3, oauth_date: '2026-01-15 10:30:00', id_type: 6 });
    });
  });
});
