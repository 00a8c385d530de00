import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCHEMA_DIR } from '../../server/schemas';
import { backends, countRows, DEMO_PASSWORD, sha256, startServer, useServer } from './harness';

describe.each(backends)('site data, errors, schemas, static console (%s)', (backend) => {
  const t = useServer(backend);

  describe('GET /loginInfo and /supportInfo', () => {
    it('answers the default branding', async () => {
      const r = await t.server.client().get('/api/loginInfo');
      expect(r.body.code).toBe(0);
      expect(r.body.data).toEqual({
        copyright_text: '© 2026 云讯通短信平台 版权所有',
        company_logo_url: '',
        company_name: '云讯通短信平台',
        icp_text: '沪ICP备2026000001号-1',
        demo_file_path: '',
        // computed from the help documents that exist: the generated HTTP API document and the bundled user guide here
        systemInfoShow: { guide: 1, https: 1, cmpp: 0, sgip: 0, smgp: 0, smpp: 0, template: 0, httpDemo: 0, faq: 0 },
      });
    });

    it('answers the support contacts', async () => {
      const r = await t.server.client().get('/api/supportInfo');
      expect(r.body.code).toBe(0);
      expect(r.body.data).toHaveLength(3);
      expect(r.body.data[0]).toEqual({
        name: '客服经理',
        qq: '800012345',
        mobile: '13816880001',
        email: 'service@demo.smsp.local',
      });
    });

    it('picks the branding bound to the host (exact, then wildcard), with its own contacts', async () => {
      const db = t.server.handle.db;
      const { id } = await db
        .insertInto('branding')
        .values({
          host_pattern: '*.reseller.cn',
          copyright_text: '© 2026 优信 版权所有',
          company_name: '优信短信',
          system_info_show: JSON.stringify({ https: 1 }),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('branding')
        .values({ host_pattern: 'vip.reseller.cn', copyright_text: '© VIP', system_info_show: '{}' })
        .execute();
      await db
        .insertInto('support_contacts')
        .values({ branding_id: id, name: '优信客服', qq: '12345', mobile: '13300000000', email: 'kf@reseller.cn' })
        .execute();
      const c = t.server.client();
      const wild = await c.request('GET', '/api/loginInfo', undefined, { headers: { host: 'sms.reseller.cn:8443' } });
      expect(wild.body.data).toMatchObject({
        copyright_text: '© 2026 优信 版权所有',
        company_name: '优信短信',
        systemInfoShow: { https: 1 },
      });
      const exact = await c.request('GET', '/api/loginInfo', undefined, { headers: { host: 'vip.reseller.cn' } });
      expect(exact.body.data.copyright_text).toBe('© VIP');
      const contacts = await c.request('GET', '/api/supportInfo', undefined, { headers: { host: 'sms.reseller.cn' } });
      expect(contacts.body.data).toEqual([
        { name: '优信客服', qq: '12345', mobile: '13300000000', email: 'kf@reseller.cn' },
      ]);
    });

    it('answers 500 域名未绑定代理商 when no branding matches and there is no default', async () => {
      const db = t.server.handle.db;
      const saved = await db
        .selectFrom('branding')
        .selectAll()
        .where('host_pattern', 'is', null)
        .executeTakeFirstOrThrow();
      await db.deleteFrom('branding').where('host_pattern', 'is', null).execute();
      try {
        const r = await t.server.client().get('/api/loginInfo');
        expect(r.body).toEqual({ code: 500, msg: '域名未绑定代理商，请联系运营人员处理' });
        // contacts still answer the shared list
        expect((await t.server.client().get('/api/supportInfo')).body.data).toHaveLength(3);
      } finally {
        const { id: _id, system_info_show, ...rest } = saved;
        await db
          .insertInto('branding')
          .values({ ...rest, system_info_show: JSON.stringify(system_info_show) })
          .execute();
      }
    });
  });

  describe('error answers', () => {
    it('answers 404 JSON for an unknown /api path', async () => {
      const r = await t.server.client().get('/api/no/such/thing');
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ code: 404, msg: '接口不存在' });
    });

    it('answers a Chinese message, never a stack, for malformed bodies', async () => {
      const c = await t.server.client().init();
      const before = await countRows(t.server, 'sessions');
      const bad = await c.post('/api/login', '{"username": "agent1", ', {
        headers: { 'content-type': 'application/json' },
      });
      expect(bad.body).toEqual({ code: 400, msg: '请求格式错误' });
      const xml = await c.post('/api/login', '<login/>', { headers: { 'content-type': 'application/xml' } });
      expect(xml.body).toEqual({ code: 415, msg: '不支持的请求格式' });
      const arr = await c.post('/api/login', [1, 2], { json: true });
      expect(arr.body.code).toBe(400);
      expect(arr.body.msg).toBe('请求格式错误'); // a JSON body must be an object (server/http/guards.ts)
      const huge = await c.post('/api/login', { username: 'x'.repeat(2_000_000) }, { json: true });
      expect(huge.body).toEqual({ code: 413, msg: '请求内容过大' });
      for (const r of [bad, xml, arr, huge]) expect(JSON.stringify(r.body)).not.toMatch(/at .*\.ts|Error:/);
      expect(await countRows(t.server, 'sessions')).toBe(before);
    });

    it('accepts JSON bodies as well as forms', async () => {
      const c = await t.server.client().init();
      const s = await c.slider();
      const r = await c.post(
        '/api/login',
        { username: 'agent1', password: sha256(DEMO_PASSWORD), remember: true, ...s },
        { json: true },
      );
      expect(r.body.code).toBe(0);
      expect(r.setCookies.remember).toBeTruthy();
    });

    it('answers 500 without details when the database fails', async () => {
      const s = await startServer(backend);
      try {
        const c = await s.client().init();
        await s.handle.db.schema.dropTable('support_contacts').execute();
        const r = await c.get('/api/supportInfo');
        expect(r.status).toBe(500);
        expect(r.body).toEqual({ code: 500, msg: '服务器繁忙，请稍后再试' });
      } finally {
        await s.close();
      }
    });
  });

  describe('messages come from schemas/', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'smsp-schemas-'));
    afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

    it('a changed message in forms/login.json is what the server answers, with no code change', async () => {
      fs.cpSync(DEFAULT_SCHEMA_DIR, tmp, { recursive: true });
      const file = path.join(tmp, 'forms/login.json');
      const text = fs.readFileSync(file, 'utf8');
      expect(text).toContain('请输入帐户名');
      fs.writeFileSync(file, text.replaceAll('请输入帐户名', '请填写登录账号'));
      const s = await startServer(backend, { schemaDir: tmp });
      try {
        const c = await s.client().init();
        const r = await c.post('/api/login', { password: 'x' });
        expect(r.body).toMatchObject({ code: 400, msg: '请填写登录账号' });
        // the default schemas still say the original
        const d = await t.server.client().init();
        expect((await d.post('/api/login', { password: 'x' })).body.msg).toBe('请输入帐户名');
      } finally {
        await s.close();
      }
    });
  });

  describe('static console', () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'smsp-dist-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>短信平台</title><div id="root"></div>');
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'assets/app.js'), 'console.log(1)');
    fs.writeFileSync(path.join(dist, 'robots.txt'), 'User-agent: *');
    afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

    it('serves files, answers index.html for client routes, keeps /api JSON', async () => {
      const s = await startServer(backend, { staticDir: dist });
      try {
        const c = s.client();
        const js = await c.get('/assets/app.js');
        expect(js.status).toBe(200);
        expect(js.body).toBe('console.log(1)');
        // built files are named by their hash: kept by the browser for good; the page and the
        // other files are asked again each time
        expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect((await c.get('/robots.txt')).headers['cache-control']).not.toContain('immutable');
        expect((await c.get('/login')).headers['cache-control']).toBe('no-cache');
        for (const url of ['/', '/login', '/customer/manager/abc/info?status=1', '/no-such-page']) {
          const r = await c.get(url);
          expect(r.status).toBe(200);
          expect(r.headers['content-type']).toContain('text/html');
          expect(r.body).toContain('<div id="root">');
        }
        // the first page load already carries the CSRF cookie
        expect((await s.client().get('/login')).setCookies['XSRF-TOKEN']).toBeTruthy();
        const api = await c.get('/api/unknown');
        expect(api.status).toBe(404);
        expect(api.body).toEqual({ code: 404, msg: '接口不存在' });
        expect((await c.get('/api/loginInfo')).body.code).toBe(0);
      } finally {
        await s.close();
      }
    });

    it("writes the host's brand into every page it answers, so the first paint shows no other name (issue 41 item 1)", async () => {
      const s = await startServer(backend, { staticDir: dist });
      try {
        const c = s.client();
        await s.handle.db
          .insertInto('branding')
          .values({
            host_pattern: 'sms.reseller.cn',
            copyright_text: '© 优信',
            company_name: '优信<短信>',
            system_info_show: '{}',
          })
          .execute();
        const seeded = (await c.get('/api/loginInfo')).body.data.company_name;
        expect(seeded).toBeTruthy();
        for (const url of ['/', '/login', '/customer/deliverlayout/deliver?x=1']) {
          const r = await c.get(url);
          expect(r.body).toContain(`<title>${seeded}</title>`);
          expect(r.body).toContain(`<meta name="application-name" content="${seeded}" />`);
          expect(r.body).not.toContain('<title>短信平台</title>');
          expect(r.body).toContain('<div id="root">');
        }
        // another host, another brand (escaped)
        const other = await c.request('GET', '/', undefined, { headers: { host: 'sms.reseller.cn' } });
        expect(other.body).toContain('<title>优信&lt;短信&gt;</title>');
        expect(other.body).toContain('content="优信&lt;短信&gt;"');
        // the file itself is never served unbranded
        const file = await c.get('/index.html');
        expect(file.body).toContain(`<title>${seeded}</title>`);
        // no branding for the host at all: the built page as it is
        await s.handle.db.deleteFrom('branding').execute();
        const bare = await c.get('/login');
        expect(bare.status).toBe(200);
        expect(bare.body).toContain('<title>短信平台</title>');
      } finally {
        await s.close();
      }
    });
  });
});
