/**
 * Issue 9 finding 8: callback URLs (deliveryurl, mourl, auto_template_callback_url) are http(s)
 * to public addresses only — at save time (every form that saves one, with the field's message)
 * and at push time (resolveForPush + pinnedLookup against DNS rebinding). No internet needed:
 * literal addresses, and an injected resolver for names (tests/fixtures/resolver.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  callbackUrlProblem,
  isPublicAddress,
  pinnedLookup,
  resolveForPush,
  systemResolver,
  type HostResolver,
} from '../../server/lib/safe-url';
import { PUBLIC_TEST_ADDRESS, testResolver } from '../fixtures/resolver';
import { backends, useServer } from './harness';

const REFUSED = [
  'javascript:alert(1)',
  'ftp://example.com/x',
  'file:///etc/passwd',
  'data:text/html,hi',
  'not a url',
  'http://127.0.0.1/report',
  'http://127.1/',
  'http://2130706433/',
  'http://0x7f000001/',
  'http://0.0.0.0/',
  'http://10.1.2.3/',
  'http://172.16.0.1/',
  'http://192.168.1.1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://100.64.0.1/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
  'http://192.0.2.1/',
  'http://[::1]/',
  'http://[::]/',
  'http://[fe80::1]/',
  'http://[fc00::1]/',
  'http://[fd12:3456::1]/',
  'http://[ff02::1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:a9fe:a9fe]/',
  'http://[64:ff9b::7f00:1]/',
  'http://localhost:8080/',
  'http://db.internal.test/',
  'http://mixed.test/',
  'http://nowhere.invalid/',
  'http://user:pw@example.com/',
];

describe('lib/safe-url', () => {
  it('accepts http(s) to public addresses, literal or resolved', async () => {
    for (const u of [
      'https://cb.example.com/tpl',
      'http://example.com:8080/r?x=1',
      `http://${PUBLIC_TEST_ADDRESS}/r`,
      'https://[2606:4700::1111]/r',
      'HTTPS://CB.EXAMPLE.COM/x',
    ]) {
      expect(await callbackUrlProblem(u, testResolver), u).toBeNull();
    }
    const t = await resolveForPush('https://cb.example.com/tpl', testResolver);
    expect(t).toMatchObject({ address: PUBLIC_TEST_ADDRESS, family: 4 });
    expect(t.url.hostname).toBe('cb.example.com');
  });

  it.each(REFUSED)('refuses %s', async (u) => {
    expect(await callbackUrlProblem(u, testResolver)).not.toBeNull();
    await expect(resolveForPush(u, testResolver)).rejects.toThrow();
  });

  it('classifies addresses (IPv4-mapped IPv6 as its IPv4 address)', () => {
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('::ffff:8.8.8.8')).toBe(true);
    expect(isPublicAddress('::ffff:10.0.0.1')).toBe(false);
    expect(isPublicAddress('not-an-ip')).toBe(false);
  });

  it('the system resolver answers localhost with loopback, which is refused', async () => {
    expect(await callbackUrlProblem('http://localhost/', systemResolver)).toBe('address');
  });

  it('push time: a name that re-resolves to a private address after the check is refused; the connection goes to the checked address only', async () => {
    // DNS rebinding: public at save time, loopback at push time
    let calls = 0;
    const rebinding: HostResolver = async () => (++calls === 1 ? [PUBLIC_TEST_ADDRESS] : ['127.0.0.1']);
    expect(await callbackUrlProblem('http://rebind.test/', rebinding)).toBeNull();
    await expect(resolveForPush('http://rebind.test/', rebinding)).rejects.toMatchObject({ problem: 'address' });

    // the pinned lookup sends the request to the checked address whatever the name resolves to
    const server = http.createServer((req, res) => res.end(`host=${req.headers.host}`));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const target = { url: new URL(`http://pinned.test:${port}/cb`), address: '127.0.0.1', family: 4 as const };
      const body = await new Promise<string>((resolve, reject) => {
        const req = http.request(target.url, { lookup: pinnedLookup(target) }, (res) => {
          let b = '';
          res.on('data', (c) => (b += c));
          res.on('end', () => resolve(b));
        });
        req.on('error', reject);
        req.end();
      });
      expect(body).toBe(`host=pinned.test:${port}`);
    } finally {
      server.close();
    }
  });
});

describe.each(backends)('callback URLs at save time (%s)', (backend) => {
  const t = useServer(backend);
  const as = async (name: string) => {
    const c = await t.server.client().init();
    expect((await c.login(name)).body.code).toBe(0);
    return c;
  };

  it('agent base info: auto_template_callback_url', async () => {
    const c = await as('agent1');
    const info = (await c.get('/api/admin/baseinfo')).body.data;
    const base = { agent_name: info.agent_name, address: info.address || '上海', mobile: info.mobile };
    // the form's own rule first; then the address the server would call, refused with why (issue 41 item 5)
    const PRIVATE = '智能模板审核回调地址不能使用内网地址';
    const cases: [string, string][] = [
      ['javascript:alert(1)', '请输入正确的回调地址'],
      ['http://169.254.169.254/', PRIVATE],
      ['http://127.0.0.1:8080/', PRIVATE],
      ['http://[::ffff:127.0.0.1]/', PRIVATE],
      ['http://localhost/', PRIVATE],
      ['http://db.internal.test/', PRIVATE],
      ['http://no-such-host.invalid/', '智能模板审核回调地址无法解析，请检查域名是否正确'],
    ];
    for (const [u, msg] of cases) {
      const body = (await c.post('/api/admin/baseinfo/edit', { ...base, auto_template_callback_url: u })).body;
      expect(body, u).toMatchObject({ code: 400, msg });
      if (msg !== '请输入正确的回调地址')
        expect(body.data.errors, u).toEqual([{ field: 'auto_template_callback_url', message: msg }]);
    }
    expect(
      (await c.post('/api/admin/baseinfo/edit', { ...base, auto_template_callback_url: 'https://cb.example.com/tpl' }))
        .body.code,
    ).toBe(0);
  });

  it('a sub-account editing itself: deliveryurl and mourl', async () => {
    const c = await as('client1');
    const info = (await c.get('/api/account/clientinfo')).body.data;
    await t.server.handle.db
      .updateTable('accounts')
      .set({ needmo: 1, needreport: 1 })
      .where('clientid', '=', 'client1')
      .execute();
    const base = {
      name: info.name,
      mobile: info.mobile,
      email: info.email,
      address: info.address || '地址',
      deliveryurl: 'https://r.example.com/r',
      mourl: 'https://r.example.com/mo',
    };
    const post = async (p: Record<string, string>) => (await c.post('/api/account/updateClient', p)).body;
    expect(await post({ ...base, deliveryurl: 'http://10.0.0.1/r' })).toMatchObject({
      code: 400,
      msg: '状态报告回调地址不能使用内网地址',
      data: { errors: [{ field: 'deliveryurl', message: '状态报告回调地址不能使用内网地址' }] },
    });
    expect(await post({ ...base, mourl: 'javascript:alert(1)' })).toMatchObject({
      code: 400,
      msg: '上行回调地址须以 http:// 或 https:// 开头',
    });
    expect(await post(base)).toEqual({ code: 0, msg: '保存成功' });
  });

  it('an agent opening and editing a sub-account', async () => {
    const c = await as('agent1');
    const open = (p: Record<string, unknown>) =>
      c.post('/api/client/account/addUser', { name: '回调测试', agentOwned: 1, needreport: 0, needmo: 0, ...p });
    expect((await open({ needreport: 1, deliveryurl: 'http://169.254.169.254/' })).body).toMatchObject({
      code: 400,
      msg: '状态报告回调地址不能使用内网地址',
    });
    expect((await open({ needmo: 1, mourl: 'http://[::1]/mo' })).body).toMatchObject({
      code: 400,
      msg: '上行回调地址不能使用内网地址',
    });
    const edit = (p: Record<string, unknown>) =>
      c.post('/api/account/updateClient', { clientid: 'client1', name: '苏州好易购', needreport: 0, needmo: 0, ...p });
    expect((await edit({ needreport: 1, deliveryurl: 'http://192.168.0.1/' })).body).toMatchObject({
      code: 400,
      msg: '状态报告回调地址不能使用内网地址',
    });
    expect((await edit({ needmo: 1, mourl: 'gopher://x.example.com/' })).body).toMatchObject({
      code: 400,
      msg: '上行回调地址须以 http:// 或 https:// 开头',
    });
    // a URL that is not saved (push off) is not checked
    expect((await edit({ needreport: 0, deliveryurl: 'http://127.0.0.1/' })).body.code).toBe(0);
    expect((await edit({ needmo: 1, mourl: 'https://mo.example.com/' })).body.code).toBe(0);
  });
});
