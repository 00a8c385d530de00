/**
 * Issue 9 findings 3, 4, 6, 7, 9: CSRF on every unsafe method with a session-bound token, proxy
 * trust only when configured, the slider before anonymous SMS codes and the daily caps,
 * remember-me rotation / revocation, the lockout policy and enumeration, machine tracks, headers.
 */
import { describe, expect, it } from 'vitest';
import { isHumanTrack, type TrackPoint } from '../../server/modules/captcha/service';
import { parseCountryCaps, trustProxyOption } from '../../server/config';
import { runCommand } from '../../server/cli/operator-channel';
import { backends, DEMO_PASSWORD, humanTrack, sha256, useServer, type Client } from './harness';

const CSRF = { code: 403, msg: '非法请求，请刷新页面后重试' };

async function balanceOf(c: Client, clientid: string): Promise<string> {
  const r = await c.server.handle.db
    .selectFrom('accounts')
    .select('balance')
    .where('clientid', '=', clientid)
    .executeTakeFirstOrThrow();
  return String(r.balance);
}

describe.each(backends)('security hardening (%s)', (backend) => {
  const t = useServer(backend);

  describe('CSRF', () => {
    it('checks every unsafe method whatever the path: an encoded /%61pi/ does not dodge it', async () => {
      const c = await t.server.client().init();
      expect((await c.login('agent1')).body.code).toBe(0);
      const before = await balanceOf(c, 'client1');
      for (const url of [
        '/%61pi/client/recharge',
        '/api/client/recharge',
        '/API/client/recharge',
        '//api/client/recharge',
        '/api/client/recharge?x=1',
      ]) {
        const r = await c.post(url, { clientId: 'client1', amount: '1.00', requestId: `csrf-${url}` }, { csrf: false });
        expect(r.body, url).toEqual(CSRF);
      }
      for (const method of ['PUT', 'PATCH', 'DELETE']) {
        const r = await c.request(
          method,
          '/%61pi/client/recharge',
          { clientId: 'client1', amount: '1.00' },
          { csrf: false },
        );
        expect(r.body, method).toEqual(CSRF);
      }
      expect(await balanceOf(c, 'client1')).toBe(before);
      // with the token the same call goes through (the router decodes the path)
      const ok = await c.post('/%61pi/client/recharge', { clientId: 'client1', amount: '0.01', requestId: 'csrf-ok' });
      expect(ok.body.msg).toBe('充值成功');
    });

    it('refuses a token planted in the cookie and echoed in the header', async () => {
      const c = await t.server.client().init();
      expect((await c.login('agent1')).body.code).toBe(0);
      const before = await balanceOf(c, 'client1');
      c.jar.set('XSRF-TOKEN', 'planted-by-attacker-0123456789');
      const r = await c.post('/api/client/recharge', { clientId: 'client1', amount: '1.00', requestId: 'planted' });
      expect(r.body).toEqual(CSRF);
      // a token the server made for another browser's session does not fit this one either
      const other = await t.server.client().init();
      await other.login('agent0');
      c.jar.set('XSRF-TOKEN', other.jar.get('XSRF-TOKEN')!);
      expect(
        (await c.post('/api/client/recharge', { clientId: 'client1', amount: '1.00', requestId: 'foreign' })).body,
      ).toEqual(CSRF);
      expect(await balanceOf(c, 'client1')).toBe(before);
    });

    it('issues the bound token anew when the session changes (login, logout, remember-me renewal)', async () => {
      const c = await t.server.client().init();
      const anonymous = c.jar.get('XSRF-TOKEN');
      expect(c.jar.get('psid')).toBeTruthy();
      const r = await c.login('agent1', DEMO_PASSWORD, { remember: '1' });
      expect(r.setCookies['XSRF-TOKEN']).toBeTruthy();
      expect(c.jar.get('XSRF-TOKEN')).not.toBe(anonymous);
      // the old (pre-login) token no longer works
      expect(
        (
          await c.post(
            '/api/client/recharge',
            { clientId: 'client1', amount: '0.01' },
            { headers: { 'x-xsrf-token': anonymous! } },
          )
        ).body,
      ).toEqual(CSRF);
      // renewal from the remember token: new session, new token, and it works at once
      await t.server.handle.db.deleteFrom('sessions').execute();
      c.jar.delete('sid');
      const loggedIn = c.jar.get('XSRF-TOKEN');
      expect((await c.get('/api/admin/info')).body.data.clientid).toBe('agent1');
      expect(c.jar.get('XSRF-TOKEN')).not.toBe(loggedIn);
      expect(
        (await c.post('/api/client/recharge', { clientId: 'client1', amount: '0.01', requestId: 'after-renew' })).body
          .msg,
      ).toBe('充值成功');
      // logout: back to the pre-session binding, and anonymous calls still work
      expect((await c.post('/api/logout')).body.code).toBe(0);
      expect(c.jar.get('XSRF-TOKEN')).toBe(anonymous);
      expect((await c.login('agent1')).body.code).toBe(0);
    });
  });

  describe('proxies', () => {
    it('ignores X-Forwarded-For by default: a new header per try does not dodge the login lockout', async () => {
      const c = await t.server.client().init();
      for (let i = 1; i <= 5; i++) {
        const s = await c.slider();
        const r = await c.post(
          '/api/login',
          { username: 'agent0', password: sha256('Wrong1234'), ...s },
          { headers: { 'x-forwarded-for': `198.51.100.${i}` } },
        );
        expect(r.body.code).toBe(i < 5 ? 500 : 423);
      }
      const s = await c.slider();
      const r = await c.post(
        '/api/login',
        { username: 'agent0', password: sha256(DEMO_PASSWORD), ...s },
        { headers: { 'x-forwarded-for': '203.0.113.9' } },
      );
      expect(r.body.code).toBe(423);
      t.server.clock.advance(16 * 60_000);
    });

    it('ignores X-Forwarded-For for the per-address code limit', async () => {
      const c = await t.server.client().init();
      const limit = t.server.app.ctx.config.codeDailyPerIp;
      const codes: number[] = [];
      for (let i = 0; i <= limit; i++) {
        const s = await c.slider();
        const r = await c.post(
          '/api/userCenter/sendCode',
          { mobile: `1377700${String(i).padStart(4, '0')}`, ...s },
          { headers: { 'x-forwarded-for': `198.51.100.${i + 1}` } },
        );
        codes.push(r.body.code);
      }
      expect(codes.slice(0, limit).every((x) => x === 0)).toBe(true);
      expect(codes[limit]).toBe(500);
    });

    it('reads TRUST_PROXY as none, a hop count or a list', () => {
      expect(trustProxyOption('')).toBe(false);
      expect(trustProxyOption('none')).toBe(false);
      expect(trustProxyOption('127.0.0.1, 10.0.0.0/8')).toEqual(['127.0.0.1', '10.0.0.0/8']);
      const hops = trustProxyOption('1') as (a: string, i: number) => boolean;
      expect([hops('x', 0), hops('x', 1)]).toEqual([true, false]);
    });
  });

  describe('anonymous SMS codes', () => {
    it('refuses sendCode without a passed slider, and the token works once', async () => {
      const c = await t.server.client().init();
      expect((await c.post('/api/userCenter/sendCode', { mobile: '13744440001' })).body).toEqual({
        code: 402,
        msg: '请先完成滑块验证',
      });
      const s = await c.slider();
      expect(
        (await c.post('/api/userCenter/sendCode', { mobile: '13744440001', server: s.server, token: 'forged' })).body
          .code,
      ).toBe(402);
      const s2 = await c.slider();
      expect((await c.post('/api/userCenter/sendCode', { mobile: '13744440002', ...s2 })).body).toEqual({
        code: 0,
        msg: '发送成功',
      });
      expect((await c.post('/api/userCenter/sendCode', { mobile: '13744440003', ...s2 })).body.code).toBe(402);
    });

    it('reads the per-country caps', () => {
      expect(parseCountryCaps('86=5000, 1=50, *=100')).toEqual({ '86': 5000, '1': 50, '*': 100 });
      expect(parseCountryCaps('30')).toEqual({ '*': 30 });
      expect(() => parseCountryCaps('xx=1')).toThrow();
    });
  });

  describe('remember-me', () => {
    it('rotates the token on each use; a replayed old token revokes the whole family', async () => {
      const c = await t.server.client().init();
      await c.login('agent1', DEMO_PASSWORD, { remember: '1' });
      const first = c.jar.get('remember')!;
      await t.server.handle.db.deleteFrom('sessions').execute();
      c.jar.delete('sid');
      expect((await c.get('/api/login/timeout')).body.data).toBe(true);
      const second = c.jar.get('remember')!;
      expect(second).toBeTruthy();
      expect(second).not.toBe(first);
      // a parallel request of the same page with the old cookie, just after: not a replay
      const sibling = await t.server.client().init();
      sibling.jar.set('remember', first);
      expect((await sibling.get('/api/login/timeout')).body.data).toBe(true);
      // later, the old token again: someone has a copy → the family is revoked, the request refused
      t.server.clock.advance(60_000);
      const thief = await t.server.client().init();
      thief.jar.set('remember', first);
      expect((await thief.get('/api/login/timeout')).body.data).toBe(false);
      // the owner's current token is dead too (he logs in again)
      c.jar.delete('sid');
      expect((await c.get('/api/login/timeout')).body.data).toBe(false);
      const live = await t.server.handle.db
        .selectFrom('remember_tokens')
        .select('id')
        .where('revoked_at', 'is', null)
        .where(
          'account_id',
          '=',
          (
            await c.server.handle.db
              .selectFrom('accounts')
              .select('id')
              .where('clientid', '=', 'agent1')
              .executeTakeFirstOrThrow()
          ).id,
        )
        .execute();
      expect(live).toEqual([]);
    });

    it('a freeze revokes the remember token: it does not come back after the unfreeze', async () => {
      const agent = await t.server.client().init();
      await agent.login('agent1');
      const sub = await t.server.client().init();
      expect((await sub.login('client3', DEMO_PASSWORD, { remember: '1' })).body.code).toBe(0);
      expect((await agent.post('/api/client/account/freeze', { clientId: 'client3' })).body.msg).toBe('冻结成功');
      expect((await agent.post('/api/client/account/unfreeze', { clientId: 'client3' })).body.msg).toBe('解冻成功');
      sub.jar.delete('sid');
      expect((await sub.get('/api/login/timeout')).body.data).toBe(false);
    });

    it('a frozen account cannot renew, and its token stays dead after an unfreeze done elsewhere', async () => {
      const db = t.server.handle.db;
      const sub = await t.server.client().init();
      expect((await sub.login('client1', DEMO_PASSWORD, { remember: '1' })).body.code).toBe(0);
      await db.updateTable('accounts').set({ status: 5 }).where('clientid', '=', 'client1').execute();
      sub.jar.delete('sid');
      const keep = sub.jar.get('remember')!;
      expect((await sub.get('/api/login/timeout')).body.data).toBe(false);
      await db.updateTable('accounts').set({ status: 1 }).where('clientid', '=', 'client1').execute();
      sub.jar.set('remember', keep);
      expect((await sub.get('/api/login/timeout')).body.data).toBe(false);
    });
  });

  describe('lockout and enumeration', () => {
    it('locks a (name, address) pair only: the owner logs in from another address', async () => {
      const stranger = await t.server.client('192.0.2.10').init();
      for (let i = 1; i <= 5; i++) await stranger.login('agent1', 'Wrong1234');
      expect((await stranger.login('agent1')).body).toEqual({ code: 423, msg: '账户已锁定，请15分钟后再试' });
      const owner = await t.server.client('192.0.2.20').init();
      expect((await owner.login('agent1')).body.code).toBe(0);
      t.server.clock.advance(16 * 60_000);
    });

    it('backs off: each failure after a lock doubles it, up to the maximum', async () => {
      const c = await t.server.client('192.0.2.30').init();
      for (let i = 1; i <= 4; i++) await c.login('agent0', 'Wrong1234');
      expect((await c.login('agent0', 'Wrong1234')).body.msg).toBe('账户已锁定，请15分钟后再试');
      t.server.clock.advance(15 * 60_000 + 1000);
      expect((await c.login('agent0', 'Wrong1234')).body.msg).toBe('账户已锁定，请30分钟后再试');
      t.server.clock.advance(30 * 60_000 + 1000);
      expect((await c.login('agent0', 'Wrong1234')).body.msg).toBe('账户已锁定，请60分钟后再试');
      t.server.clock.advance(60 * 60_000 + 1000);
      // the right password ends it and starts the count again
      expect((await c.login('agent0')).body.code).toBe(0);
      expect((await c.login('agent0', 'Wrong1234')).body.msg).toBe('用户名或密码错误');
    });

    it('the operator CLI unlock lifts the per-address locks of every login name of the account', async () => {
      const c = await t.server.client('192.0.2.35').init();
      for (let i = 1; i <= 5; i++) await c.login('agent1@demo.smsp.local', 'Wrong1234');
      expect((await c.login('agent1@demo.smsp.local')).body.code).toBe(423);
      await runCommand({ db: t.server.handle.db, now: t.server.clock.now }, ['unlock', 'agent1']);
      expect((await c.login('agent1@demo.smsp.local')).body.code).toBe(0);
    });

    it('answers unknown names exactly like real ones, lock included', async () => {
      const a = await t.server.client('192.0.2.40').init();
      const b = await t.server.client('192.0.2.41').init();
      const real: unknown[] = [];
      const unknown: unknown[] = [];
      for (let i = 1; i <= 6; i++) {
        real.push((await a.login('newagent', 'Wrong1234')).body);
        unknown.push((await b.login('no-such-agent', 'Wrong1234')).body);
      }
      expect(unknown).toEqual(real);
      expect(real[0]).toEqual({ code: 500, msg: '用户名或密码错误' });
      expect(real[4]).toEqual({ code: 423, msg: '账户已锁定，请15分钟后再试' });
      t.server.clock.advance(16 * 60_000);
    });
  });

  describe('slider tracks', () => {
    const W = 260;
    const machine: [string, TrackPoint[]][] = [
      [
        'constant speed in a straight line',
        Array.from({ length: 30 }, (_, i) => [Math.round((W * (i + 1)) / 30), i * 25] as TrackPoint),
      ],
      [
        'linear with rounding noise',
        Array.from({ length: 30 }, (_, i) => [(W * i) / 29 + (i % 2) * 0.4, i * 25 + (i % 3)] as TrackPoint),
      ],
      ['with y, but not one pixel of vertical movement', humanTrack(W).map(([x, ms]) => [x, ms, 5] as TrackPoint)],
      [
        'with y on some points only',
        humanTrack(W).map(([x, ms, y], i) => (i % 2 ? [x, ms] : [x, ms, y]) as TrackPoint),
      ],
      ['too few points', humanTrack(W, { points: 8 })],
      ['too fast', humanTrack(W, { ms: 350 })],
    ];
    it.each(machine)('refuses a machine track: %s', (_name, track) => {
      expect(isHumanTrack(W, track)).toBe(false);
    });

    it('accepts human-like tracks: the harness drag, a keyboard glide, a drag with pauses', () => {
      expect(isHumanTrack(W, humanTrack(W))).toBe(true);
      expect(isHumanTrack(300, humanTrack(300, { ms: 900, points: 40 }))).toBe(true);
      // the console's keyboard glide: ease-out frames every ~16 ms over 500 ms, no y
      const glide: TrackPoint[] = [[0, 0]];
      for (let f = 1; f <= 31; f++)
        glide.push([W * (1 - (1 - Math.min(1, (f * 16.7) / 500)) ** 2), Math.round(f * 16.7)]);
      expect(isHumanTrack(W, glide)).toBe(true);
      // the track of tests/e2e/helpers.ts apiLogin and bench/lib/login.ts
      const scripted = Array.from(
        { length: 31 },
        (_, i) => [Math.round(300 * (1 - (1 - i / 30) ** 2.2)), i * 25 + (i % 3), [0, 1, 1, 2, 1][i % 5]] as TrackPoint,
      );
      expect(isHumanTrack(300, scripted)).toBe(true);
    });
  });

  describe('headers', () => {
    it('console pages and API answers carry CSP, frame protection, nosniff and the referrer policy; /api is no-store', async () => {
      const c = await t.server.client().init();
      for (const url of ['/api/login/timeout', '/login', '/api/nope']) {
        const r = await c.get(url);
        const csp = String(r.headers['content-security-policy']);
        expect(csp, url).toContain("script-src 'self'");
        expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
        // every console validator is compiled at build time: no eval (issue 28)
        expect(csp).not.toMatch(/'unsafe-eval'/);
        expect(csp).toContain("frame-ancestors 'none'");
        expect(r.headers['x-frame-options']).toBe('DENY');
        expect(r.headers['x-content-type-options']).toBe('nosniff');
        expect(r.headers['referrer-policy']).toBe('same-origin');
      }
      expect((await c.get('/api/login/timeout')).headers['cache-control']).toBe('no-store');
      expect((await c.post('/api/logout')).headers['cache-control']).toBe('no-store');
      expect((await c.get('/api/nope')).headers['cache-control']).toBe('no-store');
    });
  });
});

describe.each(backends)('security settings (%s)', (backend) => {
  const t = useServer(backend, {
    config: { codeDailyPerCountry: { '86': 3, '*': 2 }, codeDailyGlobal: 4, trustProxy: '10.9.0.0/16' },
  });

  it('caps SMS codes a day per destination country and for all countries together', async () => {
    t.server.clock.toNextBusinessMorning();
    const c = await t.server.client('192.0.2.50').init();
    const hk = ['61230001', '61230002', '61230003'];
    expect((await c.sendCode({ countryCode: '852', mobile: hk[0] })).body.code).toBe(0);
    expect((await c.sendCode({ countryCode: '852', mobile: hk[1] })).body.code).toBe(0);
    expect((await c.sendCode({ countryCode: '852', mobile: hk[2] })).body).toEqual({
      code: 500,
      msg: '该国家/地区今日验证码发送量已达上限，请明日再试',
    });
    expect((await c.sendCode({ mobile: '13755550001' })).body.code).toBe(0);
    expect((await c.sendCode({ mobile: '13755550002' })).body.code).toBe(0);
    // 4 sent today: the global cap answers before the Chinese one (3) is reached
    expect((await c.sendCode({ mobile: '13755550003' })).body).toEqual({
      code: 500,
      msg: '今日验证码发送量已达上限，请明日再试',
    });
    // a new business day starts the counts again
    t.server.clock.advance(86_400_000);
    expect((await c.sendCode({ mobile: '13755550003' })).body.code).toBe(0);
  });

  it('trusts X-Forwarded-For from a configured proxy only', async () => {
    const viaProxy = (client: string) => ({ headers: { 'x-forwarded-for': client } });
    const proxy = await t.server.client('10.9.0.5').init();
    for (let i = 1; i <= 5; i++) {
      const s = await proxy.slider();
      await proxy.post(
        '/api/login',
        { username: 'agent1', password: sha256('Wrong1234'), ...s },
        viaProxy('198.51.100.7'),
      );
    }
    let s = await proxy.slider();
    expect(
      (
        await proxy.post(
          '/api/login',
          { username: 'agent1', password: sha256(DEMO_PASSWORD), ...s },
          viaProxy('198.51.100.7'),
        )
      ).body.code,
    ).toBe(423);
    // another client behind the same proxy is another address
    s = await proxy.slider();
    expect(
      (
        await proxy.post(
          '/api/login',
          { username: 'agent1', password: sha256(DEMO_PASSWORD), ...s },
          viaProxy('198.51.100.8'),
        )
      ).body.code,
    ).toBe(0);
    // a peer that is not a configured proxy cannot choose its address
    const direct = await t.server.client('192.0.2.60').init();
    for (let i = 1; i <= 5; i++) {
      const s2 = await direct.slider();
      await direct.post(
        '/api/login',
        { username: 'agent0', password: sha256('Wrong1234'), ...s2 },
        viaProxy(`198.51.100.${20 + i}`),
      );
    }
    s = await direct.slider();
    expect(
      (
        await direct.post(
          '/api/login',
          { username: 'agent0', password: sha256(DEMO_PASSWORD), ...s },
          viaProxy('198.51.100.99'),
        )
      ).body.code,
    ).toBe(423);
  });
});
