/**
 * Fuzz of the send routes' content and of the customers' signed HTTP API; the fuzz over every
 * console route and role is in fuzz-lib.ts (run by fuzz-routes-*.test.ts). What each asserts is
 * described in fuzz-lib.ts's header.
 */
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import ExcelJS from 'exceljs';
import { backends, type Client, startServer, type TestServer } from './harness';
import { as, ledgerViolations, poolViolations, shanghai, templateId, upload } from './send-helpers';
import {
  deriveApiSecret,
  DEMO_INTERFACE_PASSWORD,
  OPENAPI_ERRORS,
  OPENAPI_HEADERS,
  signRequest,
} from '../../server/modules/openapi';
import { DEEP, encode, type Finding, HOSTILE, type Json, payloadOf, routesOf } from './fuzz-lib';

// ---------------------------------------------------------------------------------------------
// the send routes' content

interface SendText {
  name: string;
  text: string;
  /** holds a word of the default list (server/config/sensitive-words.txt), plainly or disguised */
  blocked?: boolean;
}

export const SEND_TEXTS: SendText[] = [
  { name: 'blocked word', text: '赌博', blocked: true },
  { name: 'blocked, zero-width space', text: '赌\u200b博', blocked: true },
  { name: 'blocked, spaces and punctuation', text: '六 合。彩', blocked: true },
  { name: 'blocked, symbols and emoji', text: '刷★单😀', blocked: true },
  { name: 'blocked, traditional', text: '賭博', blocked: true },
  { name: 'blocked, RTL override', text: '\u202e赌博\u202c', blocked: true },
  { name: 'blocked, combining marks', text: '赌\u0301博\u20dd', blocked: true },
  { name: 'blocked, joiners and variation selectors', text: '翻\ufe0f\u200d墙', blocked: true },
  { name: 'blocked, full-width brackets', text: '【赌博】', blocked: true },
  { name: 'blocked, long', text: `${'好'.repeat(400)}网络赌场`, blocked: true },
  { name: 'emoji', text: '😀👍🏽👨‍👩‍👧🇨🇳' },
  { name: 'surrogate pairs', text: '𠀀𠀁𝐀𝐁' },
  { name: 'lone surrogate', text: 'a\ud800b' },
  { name: 'control characters', text: 'a\u0000b\u0007c\u001b[2J' },
  { name: 'line breaks and tabs', text: '第一行\r\n第二行\t结束' },
  { name: 'RTL text and marks', text: '\u200fمرحبا\u200e 你好' },
  { name: 'full-width', text: 'ＡＢＣ１２３！' },
  { name: 'traditional', text: '歡迎光臨，謝謝' },
  { name: 'combining pile', text: `z${'\u0301\u0316\u0334'.repeat(60)}` },
  { name: 'empty after trimming', text: '   ' },
  { name: 'ideographic spaces', text: '\u3000\u3000' },
  { name: 'zero-width only', text: '\u200b\u200b' },
  { name: 'very long', text: '长'.repeat(600) },
  { name: 'very long ascii', text: 'A'.repeat(5000) },
  { name: 'template braces', text: '{name}{x}}{' },
  { name: 'markup', text: '<script>alert(1)</script>&amp;' },
];

describe.each(backends)("fuzz of the send routes' content (%s)", (backend) => {
  let server: TestServer;
  let client1: Client;
  let tpl: { id: number; content: string };
  const findings: { route: string; what: string; status: number; body: string }[] = [];
  /** accepted sends (code 0) per route and kind: every way of sending must reach its acceptance */
  const accepted = new Map<string, number>();
  let requests = 0;
  const SIGN = '好易购';
  const MOBILE = '13800138000';
  const US = '14155552671';
  const INTERCEPTED = '短信内容包含敏感词，已拦截';
  const REVIEW = '提交成功，等待审核';

  /** the template filled with `text` in every variable */
  const fill = (text: string) => tpl.content.replace(/\{[^}]+\}/g, () => text);
  const later = () => server.clock.advance(3100);
  const sendAt = () => shanghai(new Date(server.clock.now().getTime() + 30 * 60_000));

  /** `send`: the way of sending this request is (a submit: the 3-second lock waited out first) */
  async function call(
    route: string,
    what: string,
    payload: Record<string, unknown>,
    opts: { json?: boolean; send?: string; blocked?: boolean } = {},
  ) {
    if (opts.send) later();
    requests++;
    const r = await client1.post(`/api${route}`, payload, { json: opts.json });
    const shaped = typeof r.body?.code === 'number' && typeof r.body?.msg === 'string';
    const finding = (why: string) =>
      findings.push({ route, what: `${what}: ${why}`, status: r.status, body: String(r.raw.body).slice(0, 200) });
    if (opts.send && r.body?.code === 0) accepted.set(opts.send, (accepted.get(opts.send) ?? 0) + 1);
    if (r.status >= 500 || !shaped) finding('5xx or not {code, msg}');
    // a blocked word is never sent: accepted only as intercepted (or held for review)
    else if (opts.send && opts.blocked && r.body.code === 0 && r.body.msg !== INTERCEPTED && r.body.msg !== REVIEW)
      finding('blocked word accepted');
    return r;
  }

  beforeAll(async () => {
    server = await startServer(backend, { config: { ipRateLimitPerMinute: 100_000 } });
    client1 = await as(server, 'client1');
    const id = await templateId(server, '尊敬的{name}');
    const row = await server.handle.db
      .selectFrom('templates')
      .select('content')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    tpl = { id, content: row.content };
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it('every kind of text in the content, variables and sign of every send route and preview: no 5xx, blocked words intercepted, nothing charged for them', async () => {
    const t0 = performance.now();
    const db = server.handle.db;
    // tasks of the demo data are left out of the checks below
    const { last } = await db
      .selectFrom('sms_tasks')
      .select(sql<number>`coalesce(max(id), 0)`.as('last'))
      .executeTakeFirstOrThrow();
    for (const { name, text, blocked } of SEND_TEXTS) {
      const b = { blocked };
      const filled = fill(text);
      // the content check and the charge previews
      const test = await call('/content/content/test', name, { content: text });
      if (blocked && test.body?.code === 0 && text.length <= 500 && !test.body.data?.['500'])
        findings.push({
          route: '/content/content/test',
          what: `${name}: not found`,
          status: test.status,
          body: JSON.stringify(test.body),
        });
      await call('/send/chargeInfo', name, { content: filled, sign: SIGN, smstype: 0, mobile: MOBILE });
      await call('/send/chargeInfoVariable', name, {
        templateId: tpl.id,
        sign: SIGN,
        smstype: 0,
        fileType: 0,
        content: filled,
        mobile: MOBILE,
      });
      await call('/send/chargeInfoInternational', name, { content: text, sign: 'ACME', smstype: 0, mobile: US });
      // console send (form and JSON), timed console send
      await call(
        '/send/sending',
        name,
        { sign: SIGN, smstype: 0, templateId: tpl.id, content: filled, mobile: MOBILE },
        { send: 'console', ...b },
      );
      await call(
        '/send/sending',
        `${name} (json)`,
        { sign: SIGN, smstype: 0, templateId: tpl.id, content: filled, mobile: MOBILE },
        { send: 'console (json)', json: true, ...b },
      );
      await call(
        '/send/sendTim',
        name,
        {
          jsmsAccessTimerSms: {
            sign: SIGN,
            smstype: 0,
            templateId: tpl.id,
            content: filled,
            mobilelist: MOBILE,
            sendtime: sendAt(),
          },
        },
        { send: 'timed console', json: true, ...b },
      );
      // variable SMS typed, timed variable SMS
      await call(
        '/send/sendingVariable',
        name,
        { templateId: tpl.id, sign: SIGN, smstype: 0, fileType: 0, content: filled, mobile: MOBILE },
        { send: 'variable', ...b },
      );
      await call(
        '/send/send_time_sms',
        `${name} (variable)`,
        {
          sendKind: 1,
          templateId: tpl.id,
          sign: SIGN,
          smstype: 0,
          fileType: 0,
          content: filled,
          mobilelist: MOBILE,
          sendtime: sendAt(),
          isCheckAvailableCredit: 1,
        },
        { send: 'timed variable', json: true, ...b },
      );
      // international, timed international
      await call(
        '/send/sendingInternational',
        name,
        { content: text, sign: SIGN, smstype: 0, mobile: US },
        { send: 'international', ...b },
      );
      await call(
        '/send/send_time_sms',
        `${name} (international)`,
        { sendKind: 2, content: text, smstype: 0, mobilelist: US, sendtime: sendAt() },
        { send: 'timed international', json: true, ...b },
      );
      // the text as the sign (clean content)
      await call(
        '/send/sending',
        `${name} as the sign`,
        { sign: text, smstype: 0, templateId: tpl.id, content: fill('王先生'), mobile: MOBILE },
        { send: 'console, text as the sign', ...b },
      );
      await call(
        '/send/sendingInternational',
        `${name} as the sign`,
        { content: 'Your code is 4829.', sign: text, smstype: 0, mobile: US },
        { send: 'international, text as the sign', ...b },
      );
    }
    // a variable file whose rows hold every kind of text (a row each; not the very long ones, which a
    // variable cannot hold and whose repetition the zip-bomb guard refuses), then one without the blocked ones
    const phone = (i: number) => `1${['38', '86', '89', '50', '77'][i % 5]}${String(10_000_000 + i * 7919).slice(-8)}`;
    const short = SEND_TEXTS.filter((x) => x.text.length <= 200);
    for (const [file, texts] of [
      ['every kind', short],
      ['no blocked word', short.filter((x) => !x.blocked)],
    ] as const) {
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('s');
      ws.addRow(['手机号码', '变量1', '变量2', '变量3']);
      texts.forEach((x, i) => ws.addRow([phone(i), x.text, x.text, x.text]));
      const up = await upload(
        server,
        client1,
        '/api/send/uploadVariateFile',
        'vars.xlsx',
        Buffer.from(await wb.xlsx.writeBuffer()),
      );
      requests++;
      if (up.code !== 0) {
        findings.push({
          route: '/send/uploadVariateFile',
          what: file,
          status: 0,
          body: JSON.stringify(up).slice(0, 200),
        });
        continue;
      }
      const parsed = await call('/send/parsefileVariate', file, {
        importFilePath: up.data.importFilePath,
        templateId: tpl.id,
        sign: SIGN,
        fileName: 'vars.xlsx',
      });
      const sendFile = parsed.body?.data?.sendFilePath;
      if (!sendFile) {
        findings.push({
          route: '/send/parsefileVariate',
          what: file,
          status: parsed.status,
          body: JSON.stringify(parsed.body).slice(0, 200),
        });
        continue;
      }
      const blocked = file === 'every kind';
      await call('/send/chargeInfoVariable', file, {
        templateId: tpl.id,
        sign: SIGN,
        smstype: 0,
        fileType: 1,
        importFilePath: sendFile,
      });
      await call(
        '/send/sendingVariable',
        file,
        { templateId: tpl.id, sign: SIGN, smstype: 0, fileType: 1, importFilePath: sendFile },
        { send: 'variable file', blocked },
      );
      await call(
        '/send/send_time_sms',
        `${file} (timed)`,
        {
          sendKind: 1,
          templateId: tpl.id,
          sign: SIGN,
          smstype: 0,
          fileType: 1,
          importFilePath: sendFile,
          sendtime: sendAt(),
          isCheckAvailableCredit: 0,
        },
        { send: 'timed variable file', json: true, blocked },
      );
    }
    // an intercepted task costs nothing
    const mine = db.selectFrom('sms_tasks').where('id', '>', last).where('intercept_num', '>', 0);
    const charged = await mine
      .select(['uid', 'amount', 'charge_num_total'])
      .where((eb) => eb.or([eb('amount', '<>', '0'), eb('charge_num_total', '<>', 0)]))
      .execute();
    expect(charged).toEqual([]);
    const intercepted = await mine.select(sql<string>`count(*)::text`.as('n')).executeTakeFirstOrThrow();
    console.log(
      `send content fuzz (${backend}): ${requests} requests, ${intercepted.n} intercepted tasks, ${((performance.now() - t0) / 1000).toFixed(1)} s; accepted: ${JSON.stringify(Object.fromEntries(accepted))}`,
    );
    expect(findings).toEqual([]);
    // every way of sending was reached: accepted (intercepted or not) at least twice; a text as the
    // sign is never an approved sign of client1, so those sends are refused (签名未报备或未审核通过),
    // never a 5xx (findings above)
    const ways = [
      'console',
      'console (json)',
      'timed console',
      'variable',
      'timed variable',
      'international',
      'timed international',
      'variable file',
      'timed variable file',
    ];
    expect(ways.filter((w) => (accepted.get(w) ?? 0) < (w.includes('file') ? 2 : 5))).toEqual([]);
    // seven ways take every text (console, json, timed, variable, timed variable, international, timed
    // international); a few of the blocked texts are refused first for their length in some of them
    expect(Number(intercepted.n)).toBeGreaterThan(SEND_TEXTS.filter((x) => x.blocked).length * 6);
    expect(await ledgerViolations(server)).toEqual([]);
    expect(await poolViolations(server)).toEqual([]);
  }, 600_000);
});

// ---------------------------------------------------------------------------------------------
// the customers' signed HTTP API (/openapi/v1, its own document and errors; issue 35)

describe.each(backends)('fuzz of the customers\u2019 HTTP API (%s)', (backend) => {
  let server: TestServer;
  const SECRET = deriveApiSecret('client1', DEMO_INTERFACE_PASSWORD);
  const KNOWN = new Set(Object.keys(OPENAPI_ERRORS));
  const PLAUSIBLE: Record<string, unknown> = {
    content: '【好易购】您的订单已发货，请注意查收。',
    mobiles: ['13800000000'],
    taskId: 'T0',
    page: 1,
    rows: 10,
    limit: 10,
  };
  const findings: Finding[] = [];
  /** answers by error name (0: success): the fuzz reached the handlers, not only the signature check */
  const answers = new Map<string, number>();
  let requests = 0;

  beforeAll(async () => {
    server = await startServer(backend);
    // no throughput limit, and the pull modes (else the pulls answer NOT_PULL_MODE): every call reaches its handler's work
    await server.handle.db
      .updateTable('accounts')
      .set({ access_speed: 0, needreport: 3, needmo: 3 })
      .where('clientid', '=', 'client1')
      .execute();
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  interface Call {
    method: string;
    url: string;
    body?: string;
    contentType?: string;
    headers?: Record<string, string>;
    /** sign with this secret ('' : no signature headers) */
    secret?: string;
    ip?: string;
  }

  async function call(what: string, c: Call) {
    requests++;
    const ts = String(Math.floor(server.clock.t / 1000));
    const nonce = crypto.randomUUID();
    const q = c.url.indexOf('?');
    const sig = (secret: string) =>
      signRequest(secret, {
        method: c.method,
        path: q < 0 ? c.url : c.url.slice(0, q),
        query: q < 0 ? '' : c.url.slice(q + 1),
        timestamp: ts,
        nonce,
        body: c.body ?? '',
      });
    const r = await server.app.inject({
      method: c.method as 'GET',
      url: c.url,
      payload: c.body,
      remoteAddress: c.ip ?? '127.0.0.1',
      headers: {
        ...(c.body !== undefined ? { 'content-type': c.contentType ?? 'application/json' } : {}),
        ...(c.secret === ''
          ? {}
          : {
              [OPENAPI_HEADERS.clientid]: 'client1',
              [OPENAPI_HEADERS.timestamp]: ts,
              [OPENAPI_HEADERS.nonce]: nonce,
              [OPENAPI_HEADERS.signature]: sig(c.secret ?? SECRET),
            }),
        ...c.headers,
      },
    });
    let body: Json | undefined;
    try {
      body = r.json();
    } catch {
      body = undefined;
    }
    const key = String(body?.error ?? body?.code);
    answers.set(key, (answers.get(key) ?? 0) + 1);
    const shaped =
      body &&
      typeof body.msg === 'string' &&
      (body.code === 0 || (typeof body.error === 'string' && KNOWN.has(body.error)));
    if (r.statusCode >= 500 || !shaped)
      findings.push({
        role: 'client1',
        route: `${c.method} ${c.url}`,
        what,
        status: r.statusCode,
        body: r.body.slice(0, 200),
      });
    return { status: r.statusCode, body };
  }

  it('answers every hostile value in every parameter of every route, signed, with its own errors and never a 5xx', async () => {
    const doc = (await server.app.inject({ method: 'GET', url: '/openapi/v1/openapi.json' })).json();
    const routes = routesOf(doc);
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        'POST /openapi/v1/sms/send',
        'GET /openapi/v1/sms/task',
        'POST /openapi/v1/reports/pull',
        'POST /openapi/v1/mo/pull',
        'GET /openapi/v1/account/balance',
      ]),
    );
    for (const route of routes) {
      const names = [...new Set([...route.params, 'clientid', 'id'])];
      for (const name of names) {
        for (const h of HOSTILE) {
          const others = names
            .filter((n) => n !== name && PLAUSIBLE[n] !== undefined)
            .map((n) => [n, PLAUSIBLE[n]] as [string, unknown]);
          if (route.method === 'POST') {
            const p = payloadOf('json', [...others, [name, h]]);
            if (p?.kind === 'json') await call(`${name}=${h.name}`, { method: 'POST', url: route.path, body: p.text });
          } else {
            const p = payloadOf('query', [...others, [name, h]]);
            if (p?.kind === 'query')
              await call(`${name}=${h.name}`, { method: 'GET', url: `${route.path}?${encode(p.pairs)}` });
          }
        }
      }
    }
    expect(findings).toEqual([]);
    // signed calls got past the signature: accepted, and refused by the payload's checks
    expect(answers.get('0')).toBeGreaterThan(50);
    expect(answers.get('BAD_REQUEST')).toBeGreaterThan(50);
    expect(answers.get('SIGNATURE_INVALID') ?? 0).toBe(0);
  }, 600_000);

  it('refuses malformed and unsigned requests on every route with its own errors, never a 5xx', async () => {
    const doc = (await server.app.inject({ method: 'GET', url: '/openapi/v1/openapi.json' })).json();
    const routes = routesOf(doc);
    const WRONG = deriveApiSecret('client1', 'wrong');
    const bodies = [
      '{"a":',
      DEEP,
      '{"a":'.repeat(3000) + '1' + '}'.repeat(3000),
      '[]',
      'null',
      '"x"',
      '\u0000',
      'x'.repeat(300_000),
      '{"__proto__":{"a":1}}',
    ];
    let ip = 0;
    for (const route of routes) {
      for (const body of bodies) {
        // signed (as JSON and as other content types), wrongly signed (from addresses of their own: no lock in the way), unsigned
        await call(`body ${body.slice(0, 20)}`, { method: 'POST', url: route.path, body });
        for (const contentType of [
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/json; charset=gbk',
          'multipart/form-data; boundary=x',
          'a/b/c',
          '',
        ]) {
          await call(`body as ${contentType}`, { method: 'POST', url: route.path, body, contentType });
        }
        await call(`wrong signature, body ${body.slice(0, 20)}`, {
          method: route.method,
          url: route.path,
          body,
          secret: WRONG,
          ip: `10.99.${Math.floor(ip / 250)}.${ip++ % 250}`,
        });
        await call(`unsigned, body ${body.slice(0, 20)}`, { method: route.method, url: route.path, body, secret: '' });
      }
      for (const [name, value] of [
        [OPENAPI_HEADERS.timestamp, 'NaN'],
        [OPENAPI_HEADERS.timestamp, '99999999999999999999'],
        [OPENAPI_HEADERS.timestamp, '-1'],
        [OPENAPI_HEADERS.nonce, '签名签名签名签名'],
        [OPENAPI_HEADERS.nonce, 'x'.repeat(5000)],
        [OPENAPI_HEADERS.signature, 'g'.repeat(64)],
        [OPENAPI_HEADERS.signature, 'A'.repeat(64)],
        [OPENAPI_HEADERS.clientid, 'x'.repeat(5000)],
        [OPENAPI_HEADERS.clientid, "' OR 1=1 --"],
        ['content-length', '0'],
        ['idempotency-key', 'bad key!'],
        ['idempotency-key', 'k'.repeat(65)],
      ]) {
        const at = `10.98.${Math.floor(ip / 250)}.${ip++ % 250}`;
        await call(`header ${name}=${value.slice(0, 20)}`, {
          method: route.method,
          url: route.path,
          body: route.method === 'POST' ? '{}' : undefined,
          headers: { [name]: value },
          ip: at,
        });
      }
      // methods the route does not have, and paths next to it
      for (const method of ['PUT', 'DELETE', 'PATCH'])
        await call(`method ${method}`, { method, url: route.path, body: '{}' });
      await call('path suffix', {
        method: route.method,
        url: `${route.path}/x`,
        body: route.method === 'POST' ? '{}' : undefined,
      });
      await call('path query junk', {
        method: route.method,
        url: `${route.path}?%zz=%&a=1&a=2`,
        body: route.method === 'POST' ? '{}' : undefined,
      });
    }
    console.log(
      `HTTP API fuzz (${backend}): ${requests} requests, answers ${JSON.stringify(Object.fromEntries(answers))}`,
    );
    expect(answers.get('AUTH_LOCKED') ?? 0).toBe(0);
    expect(findings).toEqual([]);
    expect(await ledgerViolations(server)).toEqual([]);
    expect(await poolViolations(server)).toEqual([]);
  }, 600_000);
});
