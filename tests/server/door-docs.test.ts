/**
 * The doors' interface documents (issue 36: GET /help/cmppdoc, /help/smppdoc): generated from the
 * doors' own descriptions (server/modules/smpp-server/cmpp-doc.ts, smpp-doc.ts) while the door
 * listens, filled in for the account that downloads them; absent (flag 0, 404 文档不存在) when the
 * door is off; an operator's file of the stem still wins. The code tables are tied to the doors'
 * constants: every status / result the door's source answers with is in the document.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backends, useServer } from './harness';
import { CONNECT_STATUS, sourceAuthenticator } from '../../server/lib/cmpp-pdu';
import {
  CMPP_REFUSAL_RESULT,
  CMPP_RESULT,
  SGIP_REFUSAL_RESULT,
  SGIP_RESULT,
  SMGP_REFUSAL_STATUS,
  SMGP_RESULT,
  SMPP_REFUSAL_STATUS,
  SMPP_STATUS,
} from '../../server/modules/smpp-server';
import { clientAuthenticator } from '../../server/lib/smgp-pdu';
import { codeText, DOOR_TOPICS } from '../../server/modules/help';
import { RECEIPT_STATS } from '../../server/modules/smpp-server/receipts';
import { describeSmppDoor } from '../../server/modules/smpp-server/smpp-doc';
import { accountId, db } from './send-helpers';

const SOURCE = path.resolve(import.meta.dirname, '../../server/modules/smpp-server');
/** the values of `table`'s keys named in `file` as `<name>.<KEY>` (what the door's code answers with) */
function usedCodes(file: string, name: string, table: Record<string, number>): number[] {
  const src = fs.readFileSync(path.join(SOURCE, file), 'utf8');
  const keys = [...src.matchAll(new RegExp(`\\b${name}\\.([A-Z0-9_]+)`, 'g'))].map((m) => m[1]);
  expect(keys.length, `${name} in ${file}`).toBeGreaterThan(0);
  return [...new Set(keys)].map((k) => {
    expect(table, `${name}.${k}`).toHaveProperty(k);
    return table[k];
  });
}

/** the codes of a code table in the HTML (first cell of each row) */
const codeCell = (code: number, format: 'hex' | 'decimal') => `<td><code>${codeText(code, format)}</code></td>`;

describe.each(backends)('door documents, doors on (%s)', (backend) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'door-docs-'));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const t = useServer(backend, {
    config: {
      docsDir: tmp,
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
  const login = async (name: string) => {
    const c = await t.server.client().init();
    expect((await c.login(name)).body.code).toBe(0);
    return c;
  };

  it('systemInfoShow says 1 for every door while it listens', async () => {
    const flags = (await t.server.client().get('/api/loginInfo')).body.data.systemInfoShow;
    expect(flags).toMatchObject({ https: 1, cmpp: 1, smpp: 1, sgip: 1, smgp: 1 });
  });

  it('smgpdoc: the account login, the door port, every status the door answers with', async () => {
    const c = await login('client1');
    const r = await c.get('/api/help/smgpdoc');
    expect(r.status).toBe(200);
    expect(String(r.headers['content-disposition'])).toContain(encodeURIComponent('云讯通SMGP接口文档.html'));
    const html: string = r.raw.body;
    expect(html).not.toContain('<script');
    expect(html).toContain(`localhost:${t.server.app.services.smgpServer!.port}`);
    expect(html).toContain('<td>cli001</td>');
    expect(html).toContain(`106900${await accountId(t.server, 'client1')}`);
    for (const heading of Object.values(DOOR_TOPICS)) expect(html).toContain(heading);
    const codes = [...usedCodes('smgp-server.ts', 'SMGP_RESULT', SMGP_RESULT), ...Object.values(SMGP_REFUSAL_STATUS)];
    expect(codes).toEqual(expect.arrayContaining([SMGP_RESULT.BAD_AUTH, SMGP_RESULT.SYSTEM_BUSY, SMGP_RESULT.X_SIGN]));
    for (const code of [0, ...codes]) expect(html, `code ${code}`).toContain(codeCell(code, 'decimal'));
    for (const stat of RECEIPT_STATS) expect(html).toContain(stat);
    expect(html).toContain(clientAuthenticator('cli001', '12345678', '0101120000').toString('hex'));
  });

  it('sgipdoc: the account login, the door port, every result the door answers with, the bind-back', async () => {
    const c = await login('client1');
    const r = await c.get('/api/help/sgipdoc');
    expect(r.status).toBe(200);
    expect(String(r.headers['content-disposition'])).toContain(encodeURIComponent('云讯通SGIP接口文档.html'));
    const html: string = r.raw.body;
    expect(html).not.toContain('<script');
    expect(html).toContain(`localhost:${t.server.app.services.sgipServer!.port}`);
    expect(html).toContain('<td>cli001</td>');
    for (const heading of Object.values(DOOR_TOPICS)) expect(html).toContain(heading);
    const results = [
      ...usedCodes('sgip-server.ts', 'SGIP_RESULT', SGIP_RESULT),
      ...usedCodes('sgip-server.ts', 'RESULT', SGIP_RESULT),
      ...Object.values(SGIP_REFUSAL_RESULT),
    ];
    expect(results).toEqual(expect.arrayContaining([SGIP_RESULT.BAD_LOGIN, SGIP_RESULT.NODE_BUSY, SGIP_RESULT.X_SIGN]));
    for (const code of [0, ...results]) expect(html, `code ${code}`).toContain(codeCell(code, 'decimal'));
    expect(html).toContain('SGIP_REPORT');
    expect(html).toContain('尚未设置 SGIP 回调地址');
    expect(html).not.toContain('Demo2468');
  });

  it('cmppdoc: an HTML attachment with the account login, the door port, every status and result the door answers with', async () => {
    const c = await login('client1');
    const r = await c.get('/api/help/cmppdoc');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(String(r.headers['content-disposition'])).toContain(
      `filename*=UTF-8''${encodeURIComponent('云讯通CMPP接口文档.html')}`,
    );
    expect(r.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(r.headers['cache-control']).toBe('no-store');
    const html: string = r.raw.body;
    expect(html).not.toContain('<script');
    const port = t.server.app.services.cmppServer!.port;
    expect(html).toContain(`localhost:${port}`);
    expect(html).toContain('<td>cli001</td>');
    expect(html).toContain(`106900${await accountId(t.server, 'client1')}`);
    for (const heading of Object.values(DOOR_TOPICS)) expect(html).toContain(heading);
    // every CONNECT status and SUBMIT result the door's code names, and every refusal it maps to
    const statuses = usedCodes('cmpp-server.ts', 'CONNECT_STATUS', CONNECT_STATUS);
    const results = [...usedCodes('cmpp-server.ts', 'CMPP_RESULT', CMPP_RESULT), ...Object.values(CMPP_REFUSAL_RESULT)];
    expect(statuses).toEqual(expect.arrayContaining([CONNECT_STATUS.BAD_AUTH, CONNECT_STATUS.OTHER]));
    for (const code of [0, ...statuses, ...results]) expect(html, `code ${code}`).toContain(codeCell(code, 'decimal'));
    for (const stat of RECEIPT_STATS) expect(html).toContain(stat);
    // the example's authenticator is the codec's, with the account's login
    expect(html).toContain(sourceAuthenticator('cli001', '12345678', '0101120000').toString('hex'));
    // never the real interface password
    expect(html).not.toContain('Demo2468');
  });

  it('smppdoc: the account login, the door port, every status the door answers with in hex', async () => {
    const c = await login('client1');
    const r = await c.get('/api/help/smppdoc');
    expect(r.status).toBe(200);
    expect(String(r.headers['content-disposition'])).toContain(encodeURIComponent('云讯通SMPP接口文档.html'));
    const html: string = r.raw.body;
    const port = t.server.app.services.smppServer!.port;
    expect(html).toContain(`localhost:${port}`);
    expect(html).toContain('<td>client1</td>');
    expect(html).toContain('TLS 端口</td><td>未开通');
    const statuses = [...usedCodes('server.ts', 'SMPP_STATUS', SMPP_STATUS), ...Object.values(SMPP_REFUSAL_STATUS)];
    expect(statuses).toEqual(expect.arrayContaining([SMPP_STATUS.THROTTLED, SMPP_STATUS.INVPASWD, SMPP_STATUS.X_SIGN]));
    for (const code of statuses) expect(html, `status 0x${code.toString(16)}`).toContain(codeCell(code, 'hex'));
    expect(html).toContain('ESME_RTHROTTLED');
    expect(html).not.toContain('Demo2468');
  });

  it('each account gets its own login; an account without a CMPP login is told how to get one', async () => {
    const html: string = (await (await login('agent1')).get('/api/help/smppdoc')).raw.body;
    expect(html).toContain('<td>agent1</td>');
    expect(html).not.toContain('<td>client1</td>');
    // agent1's clientid fits 6 octets: it is its own CMPP login
    expect((await (await login('agent1')).get('/api/help/cmppdoc')).raw.body).toContain('<td>agent1</td>');
    const cmpp: string = (await (await login('newagent')).get('/api/help/cmppdoc')).raw.body;
    expect(cmpp).toContain('还没有 CMPP 登录名');
  });

  it('a login longer than a packet field takes: the document is still made, that example without its packet', async () => {
    const row = await db(t.server)
      .selectFrom('accounts')
      .selectAll()
      .where('clientid', '=', 'client1')
      .executeTakeFirstOrThrow();
    const s = t.server.app.services.smppServer!;
    const d = describeSmppDoor(
      t.server.app.ctx,
      { opts: s.opts, port: s.port, tlsPort: s.tlsPort },
      { account: { ...row, clientid: 'c'.repeat(25) }, host: 'sms.example.com', now: new Date() },
    );
    const receipt = d.examples.find((x) => x.title.includes('状态报告'))!;
    expect(receipt.text).toContain('stat:DELIVRD');
    expect(receipt.hex).toBeUndefined();
    expect(d.examples.find((x) => x.title.includes('submit_sm'))!.hex).toBeInstanceOf(Buffer);
  });

  it("an operator's file of the stem wins over the generated document; a session is needed", async () => {
    fs.writeFileSync(path.join(tmp, 'cmpp.pdf'), '%PDF-1.4 operator');
    const c = await login('client1');
    const r = await c.get('/api/help/cmppdoc');
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(r.raw.body).toBe('%PDF-1.4 operator');
    fs.rmSync(path.join(tmp, 'cmpp.pdf'));
    expect((await c.get('/api/help/cmppdoc')).headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await t.server.client().get('/api/help/cmppdoc')).body.code).toBe(401);
    expect((await t.server.client().get('/api/help/smppdoc')).body.code).toBe(401);
  });
});

describe.each(backends)('door documents, doors off (%s)', (backend) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'door-docs-off-'));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const t = useServer(backend, { config: { docsDir: tmp } });

  it('flags 0 and 文档不存在 while the doors are off; a file still serves', async () => {
    expect(t.server.app.services.cmppServer).toBeNull();
    expect(t.server.app.services.smppServer).toBeNull();
    expect(t.server.app.services.smgpServer).toBeNull();
    expect((await t.server.client().get('/api/loginInfo')).body.data.systemInfoShow).toMatchObject({
      cmpp: 0,
      smpp: 0,
      smgp: 0,
    });
    const c = await t.server.client().init();
    expect((await c.login('client1')).body.code).toBe(0);
    expect((await c.get('/api/help/cmppdoc')).body).toEqual({ code: 404, msg: '文档不存在' });
    expect((await c.get('/api/help/smppdoc')).body).toEqual({ code: 404, msg: '文档不存在' });
    expect((await c.get('/api/help/smgpdoc')).body).toEqual({ code: 404, msg: '文档不存在' });
    fs.writeFileSync(path.join(tmp, 'smpp.md'), '# SMPP');
    expect((await t.server.client().get('/api/loginInfo')).body.data.systemInfoShow.smpp).toBe(1);
    expect((await c.get('/api/help/smppdoc')).raw.body).toBe('# SMPP');
  });
});
