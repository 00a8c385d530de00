import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../server/cli/operator-channel';
import { DEMO_NOTICES } from '../../server/modules/notice/seed';
import { backends, useServer } from './harness';

describe.each(backends)('notices, help documents, content test (%s)', (backend) => {
  // a word list and a documents folder of this server's own
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'notices-test-'));
  const wordsFile = path.join(tmp, 'words.txt');
  const docsDir = path.join(tmp, 'docs');
  fs.mkdirSync(docsDir);
  fs.writeFileSync(wordsFile, '# test list\n刷单\n赌博\nVPN\n');
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const t = useServer(backend, { config: { sensitiveWordsFile: wordsFile, docsDir } });
  const agent = async () => {
    const c = await t.server.client().init();
    expect((await c.login('agent1')).body.code).toBe(0);
    return c;
  };
  const sub = async () => {
    const c = await t.server.client().init();
    expect((await c.login('client1')).body.code).toBe(0);
    return c;
  };
  const cli = (...argv: string[]) => runCommand({ db: t.server.handle.db, now: t.server.clock.now }, argv);

  describe('notices', () => {
    it('pages top notices first, then newest, in the {data,totalRecord,page,rows,totalPage} shape', async () => {
      const c = await agent();
      const r = await c.post('/api/agent/noticePage', { page: 1, rows: 5 });
      expect(r.body.code).toBe(0);
      const d = r.body.data;
      expect(d).toMatchObject({
        totalRecord: DEMO_NOTICES.length,
        page: 1,
        rows: 5,
        totalPage: Math.ceil(DEMO_NOTICES.length / 5),
      });
      expect(d.data).toHaveLength(5);
      expect(d.data[0]).toMatchObject({
        noticeName: '2026年12月6日凌晨系统维护公告',
        isTop: 1,
        releaseTimeToStr: '2026-11-20 15:00:00',
      });
      expect(d.data[1]).toMatchObject({ noticeName: '关于营销短信发送时段调整的通知', isTop: 1 });
      expect(d.data[2].isTop).toBe(0);
      const times = d.data.slice(2).map((n: any) => n.releaseTimeToStr);
      expect([...times].sort().reverse()).toEqual(times);
      const last = await c.post('/api/agent/noticePage', { page: 5, rows: 5 });
      expect(last.body.data.data).toHaveLength(DEMO_NOTICES.length - 20);
      const currentPage = await c.post('/api/agent/noticePage', { currentPage: 2, pageRowCount: 10 });
      expect(currentPage.body.data).toMatchObject({ page: 2, rows: 10 });
    });

    it('searches titles and text (not markup), LIKE wildcards taken literally', async () => {
      const c = await agent();
      const r = await c.post('/api/agent/noticePage', { searchContent: '印度尼西亚' });
      expect(r.body.data.data.map((n: any) => n.noticeName)).toEqual(['国际短信部分国家资费调整通知']);
      expect((await c.post('/api/agent/noticePage', { searchContent: '客服值班' })).body.data.totalRecord).toBe(4);
      expect((await c.post('/api/agent/noticePage', { searchContent: 'strong' })).body.data.totalRecord).toBe(0);
      expect((await c.post('/api/agent/noticePage', { searchContent: '%' })).body.data.totalRecord).toBe(0);
    });

    it('GET /agent/notice answers the 10 newest; detail answers one or 公告不存在', async () => {
      const c = await sub();
      const home = await c.get('/api/agent/notice');
      expect(home.body.data).toHaveLength(10);
      expect(home.body.data[0].noticeName).toBe('2026年12月6日凌晨系统维护公告');
      const id = home.body.data[3].id;
      const one = await c.get(`/api/agent/notice/detail?noticeId=${id}`);
      expect(one.body.data).toMatchObject({ id, noticeName: home.body.data[3].noticeName });
      expect(one.body.data.noticeContent).toContain('<p>');
      for (const bad of ['999999', 'abc', '', '-1', '99999999999']) {
        expect((await c.get(`/api/agent/notice/detail?noticeId=${bad}`)).body).toEqual({
          code: 404,
          msg: '公告不存在',
        });
      }
    });

    it('needs a session', async () => {
      const c = await t.server.client().init();
      expect((await c.post('/api/agent/noticePage', {})).body).toEqual({ code: 401, msg: '登录超时' });
      expect((await c.get('/api/agent/notice')).body.code).toBe(401);
      expect((await c.get('/api/agent/notice/detail?noticeId=1')).body.code).toBe(401);
    });

    it('publishes through the CLI with the HTML sanitized, lists and deletes', async () => {
      const evil = `<p onclick="steal()" style="background:url(javascript:x)">维护<script>alert(1)</script><style>p{}</style>
<iframe src="https://evil.example"></iframe><a href="javascript:alert(2)">点我</a><a href="https://ok.example/a">说明</a>
<img src="data:image/png;base64,AAAA"><img src="https://cdn.example/x.png" onerror="alert(3)" alt="图">
<table><tr><td colspan="2">表格</td></tr></table><b>粗体</b></p>`;
      const file = path.join(tmp, 'evil.html');
      fs.writeFileSync(file, evil);
      const pub = await cli('notice-publish', '安全测试公告', file, '--top');
      expect(pub.code).toBe(0);
      const id = Number(/已发布公告 (\d+)/.exec(pub.lines[0])![1]);
      const row = await t.server.handle.db
        .selectFrom('notices')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const html = row.notice_content;
      expect(row.is_top).toBe(1);
      for (const bad of [
        '<script',
        'alert(1)',
        '<style',
        '<iframe',
        'javascript:',
        'data:',
        'onclick',
        'onerror',
        'style=',
      ])
        expect(html).not.toContain(bad);
      for (const good of [
        '维护',
        '<a href="https://ok.example/a"',
        'rel="noopener noreferrer"',
        '<img src="https://cdn.example/x.png" alt="图"',
        '<td colspan="2">表格</td>',
        '<b>粗体</b>',
      ]) {
        expect(html).toContain(good);
      }
      const c = await agent();
      expect((await c.get(`/api/agent/notice/detail?noticeId=${id}`)).body.data.noticeContent).toBe(html);
      const list = await cli('notices');
      expect(list.lines.join('\n')).toContain('安全测试公告');
      expect(await cli('notice-publish', '只有脚本', `--html=<script>x()</script>`)).toMatchObject({
        code: 1,
        lines: ['公告内容不能为空'],
      });
      expect((await cli('notice-publish', '缺文件')).code).toBe(2);
      expect((await cli('notice-delete', String(id))).lines[0]).toBe(`已删除公告 ${id}：安全测试公告`);
      expect(await cli('notice-delete', String(id))).toMatchObject({ code: 1, lines: ['公告不存在'] });
      expect((await c.get(`/api/agent/notice/detail?noticeId=${id}`)).body.msg).toBe('公告不存在');
    });

    it('does not show a notice before its release time', async () => {
      const db = t.server.handle.db;
      const { id } = await db
        .insertInto('notices')
        .values({
          notice_name: '未来公告',
          notice_content: '<p>x</p>',
          release_time: new Date(t.server.clock.t + 86_400_000),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const c = await agent();
      expect((await c.get(`/api/agent/notice/detail?noticeId=${id}`)).body.code).toBe(404);
      expect((await c.post('/api/agent/noticePage', { searchContent: '未来公告' })).body.data.totalRecord).toBe(0);
      await db.deleteFrom('notices').where('id', '=', id).execute();
    });
  });

  describe('content test', () => {
    it('validates with the schema messages', async () => {
      const c = await sub();
      expect((await c.post('/api/content/content/test', {})).body).toMatchObject({ code: 400, msg: '请输入短信内容' });
      expect((await c.post('/api/content/content/test', { content: '' })).body).toMatchObject({
        code: 400,
        msg: '请输入短信内容',
      });
      expect((await c.post('/api/content/content/test', { content: '字'.repeat(501) })).body).toMatchObject({
        code: 400,
        msg: '短信内容不能超过500个字符',
      });
      expect((await c.post('/api/content/content/test', { content: '字'.repeat(500) })).body.code).toBe(0);
    });

    it('answers {"200":"ok"} when clean and keyed UTF-16 ranges otherwise', async () => {
      const c = await agent();
      expect(
        (await c.post('/api/content/content/test', { content: '您的验证码是123456，5分钟内有效。' })).body,
      ).toEqual({ code: 0, msg: '未检测到敏感词', data: { 200: 'ok' } });
      const text = '😀招聘刷单，网络赌博，翻vpn';
      const r = await c.post('/api/content/content/test', { content: text });
      expect(r.body.code).toBe(0);
      expect(r.body.data).toEqual({ 500: '4,6', 501: '9,11', 502: '13,16' });
      const ranges = Object.values<string>(r.body.data).map((v) => v.split(',').map(Number));
      expect(ranges.map(([a, b]) => text.slice(a, b))).toEqual(['刷单', '赌博', 'vpn']);
    });

    it('needs a session', async () => {
      const c = await t.server.client().init();
      expect((await c.post('/api/content/content/test', { content: '刷单' })).body.code).toBe(401);
    });

    it('finds a word added to the list file without a restart', async () => {
      const c = await agent();
      expect((await c.post('/api/content/content/test', { content: '新增违禁词测试' })).body.data).toEqual({
        200: 'ok',
      });
      fs.appendFileSync(wordsFile, '违禁词\n');
      fs.utimesSync(wordsFile, new Date(), new Date(Date.now() + 10_000));
      await new Promise((r) => setTimeout(r, 1100)); // the file is looked at once a second at most
      expect((await c.post('/api/content/content/test', { content: '新增违禁词测试' })).body.data).toEqual({
        500: '2,5',
      });
      expect(t.server.app.ctx.words.contains('违禁词')).toBe(true); // the one shared matcher
    });
  });

  describe('help documents', () => {
    it('systemInfoShow follows the files: only the generated HTTP document and the bundled user guide at first', async () => {
      const c = t.server.client();
      const r = await c.get('/api/loginInfo');
      expect(r.body.data.systemInfoShow).toEqual({
        guide: 1,
        https: 1,
        cmpp: 0,
        sgip: 0,
        smgp: 0,
        smpp: 0,
        template: 0,
        httpDemo: 0,
        faq: 0,
      });
      fs.writeFileSync(path.join(docsDir, 'cmpp.pdf'), '%PDF-1.4 cmpp');
      fs.writeFileSync(path.join(docsDir, 'http-demo.zip'), 'PK demo');
      fs.writeFileSync(path.join(docsDir, 'faq.pdf'), '%PDF-1.4 faq');
      const after = await c.get('/api/loginInfo');
      expect(after.body.data.systemInfoShow).toEqual({
        guide: 1,
        https: 1,
        cmpp: 1,
        sgip: 0,
        smgp: 0,
        smpp: 0,
        template: 0,
        httpDemo: 1,
        faq: 1,
      });
      expect(after.body.data.demo_file_path).toBe('/api/help/demoFilePath');
      fs.rmSync(path.join(docsDir, 'cmpp.pdf'));
      expect((await c.get('/api/loginInfo')).body.data.systemInfoShow.cmpp).toBe(0);
    });

    it('serves a document that exists, refuses one that does not, needs a session', async () => {
      fs.writeFileSync(path.join(docsDir, 'smpp.pdf'), '%PDF-1.4 smpp');
      const c = await sub();
      const r = await c.get('/api/help/smppdoc');
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('application/pdf');
      expect(String(r.headers['content-disposition'])).toContain("filename*=UTF-8''SMPP");
      expect(r.raw.body).toBe('%PDF-1.4 smpp');
      expect((await c.get('/api/help/sgipdoc')).body).toEqual({ code: 404, msg: '文档不存在' });
      expect((await t.server.client().get('/api/help/smppdoc')).body.code).toBe(401);
      expect((await t.server.client().get('/api/help/httpsdoc')).body.code).toBe(401);
    });

    it('the user guide: the bundled docs/user-guide.md as one HTML page, unless the operator placed one (issue 41 item 7)', async () => {
      const c = await sub();
      const r = await c.get('/api/help/userguide');
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
      expect(String(r.headers['content-disposition'])).toContain(
        `filename*=UTF-8''${encodeURIComponent('云讯通用户使用手册.html')}`,
      );
      const html = String(r.raw.body);
      // the Markdown rendered: headings, lists, emphasis; how to send, read the reports, buy
      expect(html).toContain('<h1>用户使用手册</h1>');
      expect(html).toContain('<h2>2. 发送短信</h2>');
      expect(html).toContain('<h2>3. 查看发送结果与报表</h2>');
      expect(html).toContain('<h2>4. 购买套餐与充值</h2>');
      expect(html).toContain('<strong>资质认证通过后才能发送短信和购买短信。</strong>');
      expect(html).not.toMatch(/<script/i);
      expect((await t.server.client().get('/api/help/userguide')).body.code).toBe(401);
      // the operator's own guide wins
      fs.writeFileSync(path.join(docsDir, 'user-guide.pdf'), '%PDF-1.4 guide');
      try {
        const own = await c.get('/api/help/userguide');
        expect(own.headers['content-type']).toBe('application/pdf');
        expect(own.raw.body).toBe('%PDF-1.4 guide');
      } finally {
        fs.rmSync(path.join(docsDir, 'user-guide.pdf'));
      }
    });

    it('faqdoc is for agents only', async () => {
      fs.writeFileSync(path.join(docsDir, 'faq.pdf'), '%PDF-1.4 faq');
      expect((await (await sub()).get('/api/help/faqdoc')).body).toEqual({ code: 403, msg: '无权访问' });
      const r = await (await agent()).get('/api/help/faqdoc');
      expect(r.raw.body).toBe('%PDF-1.4 faq');
    });

    it('the OpenAPI description lists the /api routes with summaries and tags; httpsdoc renders it', async () => {
      const c = await sub();
      const spec = (await c.get('/api/help/openapi.json')).body;
      expect(spec.openapi).toMatch(/^3\./);
      const paths = Object.keys(spec.paths);
      for (const p of [
        '/api/login',
        '/api/loginInfo',
        '/api/agent/noticePage',
        '/api/agent/notice/detail',
        '/api/content/content/test',
        '/api/help/httpsdoc',
        '/api/help/faqdoc',
      ]) {
        expect(paths).toContain(p);
      }
      expect(paths.every((p) => p.startsWith('/api/'))).toBe(true);
      expect(spec.paths['/api/agent/noticePage'].post).toMatchObject({
        summary: expect.stringContaining('公告'),
        tags: ['公告'],
      });
      expect(spec.paths['/api/agent/notice/detail'].get.parameters).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'noticeId', in: 'query' })]),
      );
      const body =
        spec.paths['/api/content/content/test'].post.requestBody.content['application/x-www-form-urlencoded'].schema;
      expect(body.properties.content).toMatchObject({ type: 'string', maxLength: 500 });
      for (const [p, item] of Object.entries<any>(spec.paths))
        for (const op of Object.values<any>(item)) expect(op.summary, p).toBeTruthy();

      const doc = await c.get('/api/help/httpsdoc');
      expect(doc.headers['content-type']).toContain('text/html');
      expect(String(doc.headers['content-disposition'])).toContain('attachment');
      const html = doc.raw.body;
      expect(html).toContain('<code>/api/agent/noticePage</code>');
      expect(html).toContain('<code>noticeId</code>');
      expect(html).not.toContain('<script');
      expect(html).toContain(
        `共 ${Object.values<any>(spec.paths).reduce((n, i) => n + Object.keys(i).length, 0)} 个接口`,
      );
    });
  });
});

describe('demo notices', () => {
  it('are seeded once: deleting them all does not bring them back', async () => {
    const { openDatabase } = await import('../../server/db');
    const { seed } = await import('../../server/db/seed');
    const handle = await openDatabase({ memory: true });
    try {
      await seed(handle.db);
      const count = async () =>
        Number(
          (
            await handle.db
              .selectFrom('notices')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await count()).toBe(DEMO_NOTICES.length);
      await seed(handle.db);
      expect(await count()).toBe(DEMO_NOTICES.length);
      await handle.db.deleteFrom('notices').execute();
      await seed(handle.db);
      expect(await count()).toBe(0);
    } finally {
      await handle.close();
    }
  });
});
