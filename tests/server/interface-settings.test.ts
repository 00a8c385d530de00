/**
 * 接口信息 (issue 24, console part): the real doors (the SMPP listener's port or off, the HTTP API's
 * base URL), the masked interface password, and the agent's edit of a sub-account's interface settings
 * (POST /client/account/interface): validated, bounded, owned.
 */
import { describe, expect, it } from 'vitest';
import { backends, useServer, type Client, type TestServer } from './harness';
import { DEFAULT_PAY_CONFIG } from '../../server/modules/pay/config';

async function as(server: TestServer, who: string): Promise<Client> {
  const c = await server.client().init();
  const r = await c.login(who);
  if (r.body.code !== 0) throw new Error(`login ${who}: ${JSON.stringify(r.body)}`);
  return c;
}

const row = (server: TestServer, clientid: string) =>
  server.handle.db
    .selectFrom('accounts')
    .select(['ip', 'access_speed', 'nodenum', 'needreport', 'needmo', 'needextend', 'deliveryurl', 'mourl'])
    .where('clientid', '=', clientid)
    .executeTakeFirstOrThrow();

const good = {
  clientId: 'client1',
  ip: '203.0.113.10, 198.51.100.0/24',
  accessSpeed: 50,
  nodenum: '3',
  needreport: 2,
  needmo: 3,
  needextend: 1,
};

describe.each(backends)('interface settings (%s)', (backend) => {
  describe('with the SMPP listener on', () => {
    const t = useServer(backend, {
      config: {
        smppServerPort: -1,
        smppServerHost: '127.0.0.1',
        cmppServerPort: -1,
        cmppServerHost: '127.0.0.1',
        smgpServerPort: -1,
        smgpServerHost: '127.0.0.1',
        sgipServerPort: -1,
        sgipServerHost: '127.0.0.1',
      },
    });

    it('shows the listeners’ real ports with the login of each, the HTTP API’s URL and the masked interface password', async () => {
      const c = await as(t.server, 'agent1');
      const r = await c.post('/api/account/getAccountInfo', { clientId: 'client1' });
      expect(r.body.code).toBe(0);
      const port = t.server.app.services.smppServer!.port;
      expect(port).toBeGreaterThan(0);
      const cmpp = t.server.app.services.cmppServer!.port;
      expect(cmpp).toBeGreaterThan(0);
      const sgip = t.server.app.services.sgipServer!.port;
      expect(sgip).toBeGreaterThan(0);
      expect(r.body.data.doors).toEqual([
        { protocol: 'SMPP', enabled: true, host: expect.any(String), port, url: '', login: 'client1' },
        // client1's clientid is longer than CMPP's 6 octets: its own short login
        { protocol: 'CMPP', enabled: true, host: expect.any(String), port: cmpp, url: '', login: 'cli001' },
        // SMGP's ClientID is the same short login
        {
          protocol: 'SMGP',
          enabled: true,
          host: expect.any(String),
          port: t.server.app.services.smgpServer!.port,
          url: '',
          login: 'cli001',
        },
        // SGIP's Login_Name: the interface login too
        { protocol: 'SGIP', enabled: true, host: expect.any(String), port: sgip, url: '', login: 'cli001' },
        {
          protocol: 'HTTP',
          enabled: true,
          host: expect.any(String),
          port: expect.any(Number),
          url: expect.stringMatching(/^http:\/\/[^/]+\/openapi\/v1$/),
          login: 'client1',
        },
      ]);
      expect(r.body.data).toMatchObject({
        clientid: 'client1',
        password: '********',
        passwordSet: true,
        editable: true,
      });
      // the sub-account reads its own, not editable
      const own = await (await as(t.server, 'client1')).post('/api/account/getAccountInfo', {});
      expect(own.body.data).toMatchObject({
        clientid: 'client1',
        editable: false,
        doors: [
          { protocol: 'SMPP', enabled: true, port },
          { protocol: 'CMPP', enabled: true },
          { protocol: 'SMGP', enabled: true },
          { protocol: 'SGIP', enabled: true },
          { protocol: 'HTTP' },
        ],
      });
    });

    it('an account sold CMPP (smsfrom 2) is pointed at the CMPP listener', async () => {
      await t.server.handle.db.updateTable('accounts').set({ smsfrom: 2 }).where('clientid', '=', 'client1').execute();
      try {
        const r = await (await as(t.server, 'agent1')).post('/api/account/getAccountInfo', { clientId: 'client1' });
        expect(r.body.data).toMatchObject({
          smsfrom: 2,
          smsfrom_str: 'CMPP',
          smsfromEnabled: true,
          port: t.server.app.services.cmppServer!.port,
        });
      } finally {
        await t.server.handle.db
          .updateTable('accounts')
          .set({ smsfrom: 6 })
          .where('clientid', '=', 'client1')
          .execute();
      }
    });

    it('an account sold SMGP (smsfrom 3) is pointed at the SMGP listener', async () => {
      await t.server.handle.db.updateTable('accounts').set({ smsfrom: 3 }).where('clientid', '=', 'client1').execute();
      try {
        const r = await (await as(t.server, 'agent1')).post('/api/account/getAccountInfo', { clientId: 'client1' });
        expect(r.body.data).toMatchObject({
          smsfrom: 3,
          smsfrom_str: 'SMGP',
          smsfromEnabled: true,
          port: t.server.app.services.smgpServer!.port,
        });
      } finally {
        await t.server.handle.db
          .updateTable('accounts')
          .set({ smsfrom: 6 })
          .where('clientid', '=', 'client1')
          .execute();
      }
    });

    it('an account sold SGIP (smsfrom 4) is pointed at the SGIP listener; its bind-back listener is saved when public, refused when not', async () => {
      await t.server.handle.db.updateTable('accounts').set({ smsfrom: 4 }).where('clientid', '=', 'client1').execute();
      try {
        const c = await as(t.server, 'agent1');
        const r = await c.post('/api/account/getAccountInfo', { clientId: 'client1' });
        expect(r.body.data).toMatchObject({
          smsfrom: 4,
          smsfrom_str: 'SGIP',
          smsfromEnabled: true,
          port: t.server.app.services.sgipServer!.port,
          sgipCallbackHost: '',
        });
        const cb = {
          sgipCallbackHost: 'sp.example.com',
          sgipCallbackPort: 8802,
          sgipCallbackUser: 'plat',
          sgipCallbackPassword: 'pw',
        };
        const saved = await c.post('/api/client/account/interface', { ...good, ...cb });
        expect(saved.body).toMatchObject({ code: 0, data: cb });
        const stored = await t.server.handle.db
          .selectFrom('accounts')
          .select(['sgip_callback_host', 'sgip_callback_port', 'sgip_callback_user', 'sgip_callback_password'])
          .where('clientid', '=', 'client1')
          .executeTakeFirstOrThrow();
        expect(stored).toEqual({
          sgip_callback_host: 'sp.example.com',
          sgip_callback_port: 8802,
          sgip_callback_user: 'plat',
          sgip_callback_password: 'pw',
        });
        // a private or loopback address, a name that does not resolve, no port: refused on their field
        for (const [host, field] of [
          ['10.0.0.8', 'sgipCallbackHost'],
          ['localhost', 'sgipCallbackHost'],
          ['nowhere.invalid', 'sgipCallbackHost'],
        ]) {
          const bad = await c.post('/api/client/account/interface', { ...good, ...cb, sgipCallbackHost: host });
          expect(bad.body, host).toMatchObject({
            code: 400,
            msg: expect.stringContaining('SGIP回调地址'),
            data: { errors: [{ field }] },
          });
        }
        const noPort = await c.post('/api/client/account/interface', { ...good, ...cb, sgipCallbackPort: 0 });
        expect(noPort.body).toMatchObject({ code: 400, msg: 'SGIP回调端口须为1-65535之间的整数' });
        const tooLong = await c.post('/api/client/account/interface', {
          ...good,
          ...cb,
          sgipCallbackUser: 'x'.repeat(17),
        });
        expect(tooLong.body.code).toBe(400);
        // no host: none, every field cleared
        const off = await c.post('/api/client/account/interface', { ...good, sgipCallbackHost: '' });
        expect(off.body.data).toMatchObject({
          sgipCallbackHost: '',
          sgipCallbackPort: 0,
          sgipCallbackUser: '',
          sgipCallbackPassword: '',
        });
      } finally {
        await t.server.handle.db
          .updateTable('accounts')
          .set({ smsfrom: 6 })
          .where('clientid', '=', 'client1')
          .execute();
      }
    });

    it('the agent edits its sub-account’s settings; the sub-account cannot, another agent cannot', async () => {
      const c = await as(t.server, 'agent1');
      const r = await c.post('/api/client/account/interface', good);
      expect(r.body).toMatchObject({
        code: 0,
        msg: '接口设置已保存',
        data: {
          ip: '203.0.113.10, 198.51.100.0/24',
          accessSpeed: 50,
          nodenum: '3',
          needreport: 2,
          needreport_str: '透传状态报告',
          needmo: 3,
          needextend: 1,
          needextend_str: '支持',
        },
      });
      expect(await row(t.server, 'client1')).toMatchObject({
        ip: '203.0.113.10, 198.51.100.0/24',
        access_speed: 50,
        nodenum: '3',
        needreport: 2,
        needmo: 3,
        needextend: 1,
        deliveryurl: '',
        mourl: '',
      });

      // 不限 (no session limit) is kept: nodenum left out or empty (issue 41 item 5)
      const { nodenum: _n, ...unlimited } = good;
      expect((await c.post('/api/client/account/interface', unlimited)).body).toMatchObject({
        code: 0,
        data: { nodenum: '' },
      });
      expect((await row(t.server, 'client1')).nodenum).toBe('');
      expect((await c.post('/api/client/account/interface', { ...good, nodenum: '' })).body.code).toBe(0);
      expect((await row(t.server, 'client1')).nodenum).toBe('');
      expect((await c.post('/api/client/account/interface', good)).body.code).toBe(0);

      const before = await row(t.server, 'client1');
      const self = await (
        await as(t.server, 'client1')
      ).post('/api/client/account/interface', { ...good, ip: '', accessSpeed: 5000 });
      expect(self.body.code).toBe(403);
      const other = await (await as(t.server, 'agent0')).post('/api/client/account/interface', { ...good, ip: '' });
      expect(other.body).toMatchObject({ code: 403, msg: '无权访问' });
      const unknown = await c.post('/api/client/account/interface', { ...good, clientId: 'nobody' });
      expect(unknown.body.code).toBe(404);
      expect(await row(t.server, 'client1')).toEqual(before);
    });

    it('refuses bad whitelists, speeds, node counts, modes and missing callback URLs with clear 400s', async () => {
      const c = await as(t.server, 'agent1');
      const before = await row(t.server, 'client1');
      const cases: [Record<string, unknown>, string][] = [
        [{ ip: '203.0.113.999' }, 'IP白名单格式不正确：203.0.113.999'],
        [{ ip: '10.0.0.0/4' }, 'IP白名单格式不正确：10.0.0.0/4'],
        [{ ip: '0.0.0.0/0' }, 'IP白名单格式不正确：0.0.0.0/0'],
        [{ ip: 'example.com' }, 'IP白名单格式不正确：example.com'],
        [{ ip: Array.from({ length: 21 }, (_, i) => `10.0.0.${i + 1}`).join(',') }, 'IP白名单最多20个地址'],
        [{ ip: '1'.repeat(801) }, 'IP白名单最多20个地址'],
        [{ accessSpeed: 0 }, '速率须为1-5000之间的整数'],
        [{ accessSpeed: 5001 }, '速率须为1-5000之间的整数'],
        [{ accessSpeed: 1.5 }, '速率须为1-5000之间的整数'],
        [{ nodenum: '0' }, '最大连接数须为1-10之间的整数'],
        [{ nodenum: '11' }, '最大连接数须为1-10之间的整数'],
        [{ needreport: 9 }, ''],
        [{ needextend: 2 }, ''],
        [{ needreport: 1, deliveryurl: '' }, '请填写状态报告回调地址'],
        [{ needmo: 1 }, '请填写上行回调地址'],
        [{ needreport: 1, deliveryurl: 'http://127.0.0.1/hook' }, '状态报告回调地址不能使用内网地址'],
      ];
      for (const [patch, msg] of cases) {
        const r = await c.post('/api/client/account/interface', { ...good, ...patch });
        expect(r.body.code, JSON.stringify(patch)).toBe(400);
        if (msg) expect(r.body.msg, JSON.stringify(patch)).toBe(msg);
      }
      expect(await row(t.server, 'client1')).toEqual(before);
      // duplicates collapse, separators normalize, IPv6 addresses are kept
      const ok = await c.post('/api/client/account/interface', {
        ...good,
        ip: '10.1.1.1；10.1.1.1 2001:DB8::1',
        needreport: 1,
        deliveryurl: 'https://example.com/report',
      });
      expect(ok.body.data).toMatchObject({
        ip: '10.1.1.1, 2001:db8::1',
        needreport: 1,
        deliveryurl: 'https://example.com/report',
      });
    });
  });

  describe('with the SMPP listener off and a public URL', () => {
    const t = useServer(backend, {
      config: { smppServerPort: 0, pay: { ...DEFAULT_PAY_CONFIG, publicUrl: 'https://sms.example.com/api' } },
    });

    it('says the SMPP door is off and advertises the configured public HTTP API', async () => {
      const c = await as(t.server, 'agent1');
      const r = await c.post('/api/account/getAccountInfo', { clientId: 'client1' });
      expect(r.body.data.doors).toEqual([
        { protocol: 'SMPP', enabled: false, host: 'sms.example.com', port: 0, url: '', login: 'client1' },
        { protocol: 'CMPP', enabled: false, host: 'sms.example.com', port: 0, url: '', login: 'cli001' },
        { protocol: 'SMGP', enabled: false, host: 'sms.example.com', port: 0, url: '', login: 'cli001' },
        { protocol: 'SGIP', enabled: false, host: 'sms.example.com', port: 0, url: '', login: 'cli001' },
        {
          protocol: 'HTTP',
          enabled: true,
          host: 'sms.example.com',
          port: 443,
          url: 'https://sms.example.com/openapi/v1',
          login: 'client1',
        },
      ]);
      // client1's protocol is HTTPS: its door is the HTTP API
      expect(r.body.data).toMatchObject({
        smsfrom_str: 'HTTPS',
        ipAddress: 'sms.example.com',
        port: 443,
        smsfromEnabled: true,
      });
    });
  });
});
