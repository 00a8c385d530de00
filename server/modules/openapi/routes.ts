/**
 * The customers' HTTP API under /openapi/v1 (docs/api-openapi.md): signed requests (auth.ts), its
 * own errors (errors.ts: HTTP 4xx + `{code, error, msg}`), its own OpenAPI document
 * (`/openapi/v1/openapi.json`, document.ts). Outside the console's /api: no cookie session, no
 * CSRF token (config.csrf false), the body read raw (its SHA-256 is signed) and parsed only once
 * the signature holds.
 */
import { createHash, type Hash } from 'node:crypto';
import { Transform } from 'node:stream';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { clientAddress } from '../../lib/ip-allow';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { api, okOf, request, type SchemaKey } from '../../http/contract';
import { ApiError, isDataException } from '../../http/errors';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import type { JsonSchema } from '../../../common/schema';
import { InterfaceRefusal } from '../send';
import { parseSendTime } from '../../../common/send/time';
import { apiError, OpenApiError, openApiMessage, type OpenApiErrorName } from './errors';
import type { AdmittedRequest, ApiAuth } from './auth';
import { UnverifiedBudget, type BudgetTicket } from './budget';
import type { OpenApiService } from './service';
import { EMPTY_BODY_SHA256, HEADERS } from './signing';
import { buildDocument, type DocRoute } from './document';
import { codeOf, statusCodeOf } from '../../lib/error-code';

declare module 'fastify' {
  interface FastifyRequest {
    /** the raw body of a /openapi/v1 request (parsed as JSON once its signature holds) */
    openapiRawBody?: Buffer;
    /** hex SHA-256 of that body, computed as it arrived (signed; the idempotency store compares it) */
    openapiBodySha256?: string;
    /** the account of a verified /openapi/v1 request */
    openapiAccount?: Account;
    /** its headers' checks passed (auth.ts admit) */
    openapiAdmitted?: AdmittedRequest;
    /** its share of the address's budget of unverified bytes (budget.ts) */
    openapiTicket?: BudgetTicket;
    /** the body's SHA-256 as it streams */
    openapiHash?: Hash;
  }
  interface FastifyContextConfig {
    /** /openapi/v1: no signature (the OpenAPI document) */
    apiPublic?: boolean;
    /** false: no CSRF token (server/http/csrf.ts; a route no browser calls) */
    csrf?: boolean;
  }
}

export const OPENAPI_PREFIX = '/openapi/v1';
const TAG = '客户HTTP接口';
/** a send of 60,000 per-number texts fits */
const SEND_BODY_LIMIT = 16 * 1024 * 1024;
const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{1,64}$/;

/** "0 处理中，1 等待发送，…": the codes of an enum of schemas/enums as the console shows them */
const codes = (e: JsonSchema) => (e.oneOf ?? []).map((o) => `${String(o.const)} ${String(o.title)}`).join('，');

/** an enum's schema (a `$ref` to schemas/enums inlined) as an integer whose title lists its codes */
function withCodes(s: JsonSchema): JsonSchema {
  if (s.oneOf?.length && s.oneOf.every((o) => o.const !== undefined))
    return { type: s.type, title: `${String(s.title)}（${codes(s)}）` };
  const { properties, items } = s;
  return {
    ...s,
    ...(properties && {
      properties: Object.fromEntries(Object.entries(properties).map(([k, p]) => [k, withCodes(p)])),
    }),
    ...(items && { items: withCodes(items) }),
  };
}

/**
 * An answer of schemas/responses/openapi-*.json as this API declares and documents it: under its
 * Chinese title, each enum property an integer whose title says the codes ("任务状态（0 处理中，
 * 1 等待发送，…）"), so the document's readers need no enum table.
 */
function answerOf(ctx: AppContext, key: SchemaKey, title: string): JsonSchema {
  const { type, title: _name, description: _about, $schema: _s, ...body } = ctx.schemas.registry.inline(key);
  return { type, title, ...withCodes(body) };
}

/** An error of any layer as this API's answer. */
function toApiError(err: unknown, req: FastifyRequest): OpenApiError {
  if (err instanceof OpenApiError) return err;
  if (err instanceof InterfaceRefusal) {
    if (err.kind === 'noValidNumber') {
      const data = err.data as { invalidNum: number; invalidNumbers: string[] };
      return apiError(
        'NO_VALID_NUMBER',
        openApiMessage('noValidNumber', { invalid: data.invalidNum }),
        undefined,
        data,
      );
    }
    const name: OpenApiErrorName =
      err.kind === 'signMissing'
        ? 'SIGN_MISSING'
        : err.kind === 'signNotApproved'
          ? 'SIGN_NOT_APPROVED'
          : err.kind === 'tooMany'
            ? 'TOO_MANY_NUMBERS'
            : err.kind === 'badInput'
              ? 'BAD_REQUEST'
              : 'SEND_REFUSED';
    return apiError(name, err.message);
  }
  if (err instanceof ApiError) {
    if (err.code === 429) return apiError('THROTTLED');
    if (err.code === 500 || err.code === 403) return apiError('SEND_REFUSED', err.message);
    return apiError('BAD_REQUEST', err.message, undefined, err.data);
  }
  const status = statusCodeOf(err);
  if (codeOf(err) === 'FST_ERR_CTP_BODY_TOO_LARGE') return apiError('BAD_REQUEST', '请求内容过大');
  if (typeof status === 'number' && status >= 400 && status < 500) return apiError('BAD_REQUEST', '请求格式错误');
  if (isDataException(err)) return apiError('BAD_REQUEST');
  req.log.error({ err }, 'openapi: unexpected error');
  return apiError('INTERNAL');
}

function sendError(reply: FastifyReply, e: OpenApiError) {
  if (e.headers) reply.headers(e.headers);
  return reply
    .status(e.status)
    .send({ code: e.code, error: e.error, msg: e.message, ...(e.data !== undefined ? { data: e.data } : {}) });
}

/** Whether a path (without its query) is under /openapi/v1. */
export const isOpenApiPath = (pathOnly: string) =>
  pathOnly === OPENAPI_PREFIX || pathOnly.startsWith(`${OPENAPI_PREFIX}/`);

/**
 * The API's own 404 (NOT_FOUND), for every method: the plugin's not-found handler answers it, and
 * the app's (server/app.ts) for a path under the prefix that another route took first (the
 * console's static files answer every GET and hand the unknown ones to the app's handler).
 */
export const openApiNotFound = (reply: FastifyReply) => sendError(reply, apiError('NOT_FOUND'));

export function openApiRoutes(
  ctx: AppContext,
  svc: OpenApiService,
  auth: ApiAuth,
  payerOf: (a: Account) => number,
): FastifyPluginAsync {
  const docRoutes: DocRoute[] = [];
  return async (plugin: FastifyInstance) => {
    plugin.setErrorHandler((err, req, reply) => {
      const e = toApiError(err, req);
      // a refused send (the route declared `refusals: 'http'`): counted for 监控 by its code and stable name
      if (req.routeOptions?.config?.refusals === 'http') req.server.refusals?.count('http', e.code, e.error);
      return sendError(reply, e);
    });
    // every method on an unknown path under the prefix: the API's own 404 (no CSRF token: config.csrf
    // false, as the routes; Fastify takes `config` for this route though its types do not say so)
    const notFound: Parameters<FastifyInstance['setNotFoundHandler']>[0] = { config: { csrf: false } } as object;
    plugin.setNotFoundHandler(notFound, (_req, reply) => openApiNotFound(reply));

    // Who calls, before the body costs anything (issue 35 item 4). onRequest: the signature headers
    // (format, timestamp, lock, account) and the address's budget of unverified bytes; a refused
    // request's body is never read. preParsing: the body hashed and counted as it streams (the
    // route's bodyLimit still applies). The parser keeps the bytes; preValidation checks the
    // signature and only then parses them as JSON.
    const budget = new UnverifiedBudget(ctx.config.openapiUnverifiedBytes, () => ctx.now().getTime());
    plugin.addHook('onRequest', async (req) => {
      if (req.is404 || req.routeOptions.config?.apiPublic) return;
      const h = req.headers;
      if (!h[HEADERS.clientid] || !h[HEADERS.timestamp] || !h[HEADERS.nonce] || !h[HEADERS.signature])
        throw apiError('AUTH_MISSING');
      const ip = clientAddress(req.ip);
      const ticket = budget.open(ip, Number(h['content-length']) || 0);
      if ('retryAfter' in ticket)
        throw apiError('ADDRESS_THROTTLED', undefined, { 'retry-after': String(ticket.retryAfter) });
      req.openapiAdmitted = await auth.admit(h, ip);
      req.openapiTicket = ticket;
    });
    plugin.addHook('preParsing', async (req, _reply, payload) => {
      const ticket = req.openapiTicket;
      if (!ticket) return payload;
      const hash = createHash('sha256');
      req.openapiHash = hash;
      const counted = new Transform({
        transform(chunk: Buffer, _enc, next) {
          if (!budget.add(ticket, chunk.length))
            return next(
              apiError('ADDRESS_THROTTLED', undefined, { 'retry-after': String(budget.retryAfter(ticket.address)) }),
            );
          hash.update(chunk);
          next(null, chunk);
        },
      });
      // not pipeline(): a refusal must leave the connection open for its answer
      payload.on('error', (err) => counted.destroy(err));
      return payload.pipe(counted);
    });
    // every content type: the bytes are kept as they are, parsed once the signature holds
    plugin.removeAllContentTypeParsers();
    plugin.addContentTypeParser('*', { parseAs: 'buffer' }, (req, body, done) => {
      req.openapiRawBody = body as Buffer;
      done(null, undefined);
    });
    plugin.addHook('preValidation', async (req) => {
      const admitted = req.openapiAdmitted;
      if (!admitted) return;
      const raw = req.openapiRawBody;
      // the parser ran: the stream was read to its end, every byte hashed
      const bodySha256 = raw ? req.openapiHash!.digest('hex') : EMPTY_BODY_SHA256;
      req.openapiAccount = await auth.verify(admitted, { method: req.method, url: req.url, bodySha256 });
      if (req.openapiTicket) budget.settle(req.openapiTicket, true);
      req.openapiBodySha256 = bodySha256;
      if (raw === undefined) return;
      if (!raw.length) {
        req.body = {};
        return;
      }
      if (!/^application\/json\s*(;|$)/i.test(String(req.headers['content-type'] ?? '')))
        throw apiError('BAD_REQUEST', '请求体须为 JSON（content-type: application/json）');
      let v: unknown;
      try {
        v = JSON.parse(raw.toString('utf8'));
      } catch {
        throw apiError('BAD_REQUEST', '请求体不是合法的 JSON');
      }
      if (!v || typeof v !== 'object' || Array.isArray(v)) throw apiError('BAD_REQUEST', '请求体须为 JSON 对象');
      req.body = v;
    });
    // a request over without its signature holding (refused, cut off, too large): its bytes are spent
    const spent = async (req: FastifyRequest) => {
      if (req.openapiTicket) budget.settle(req.openapiTicket, false);
    };
    plugin.addHook('onResponse', spent);
    plugin.addHook('onRequestAbort', spent);
    plugin.addHook('preHandler', async (req) => {
      if (req.routeOptions.config?.apiPublic || !req.openapiAccount) return;
      // one token a call; a send takes one more per number it accepted, after the acceptance
      await auth.throttle(req.openapiAccount, 1);
    });

    const app = api(plugin);
    const me = (req: FastifyRequest) => req.openapiAccount!;
    const config = (extra: Record<string, unknown> = {}) => ({ config: { csrf: false, ...extra } });
    const doc = (d: DocRoute) => docRoutes.push(d);

    // ---- send ----
    const sendBody = request(ctx, 'params/openapi-send');
    const sendResponse = okOf(ctx, answerOf(ctx, 'responses/openapi-send-answer', '受理结果'));
    doc({
      method: 'post',
      path: '/sms/send',
      summary: '发送短信（同一内容多号码，或逐号码内容）',
      description:
        '两种方式二选一：content + mobiles（同一内容发往最多 60,000 个号码），或 items（逐号码内容，最多 60,000 条）。' +
        '内容须以本账户审核通过的【签名】开头或结尾；无效号码与重复号码不发送也不计费（invalidNumbers、repeatNum）；' +
        '号码全部无效时返回 NO_VALID_NUMBER（data.invalidNum、data.invalidNumbers）。可选 smstype（0 通知，4 验证码，5 营销）、' +
        'sendTime（定时，北京时间 yyyy-MM-dd HH:mm:ss，5 分钟后至明年年底）、extension（扩展号）。请求头 Idempotency-Key 可防重复提交：' +
        '同一键的重试返回首次结果（replayed 为 true），不会再发一次。扣费与控制台发送相同（产品包或余额），受理后即进入发送队列。',
      body: sendBody,
      response: sendResponse,
      idempotency: true,
    });
    app.post(
      '/sms/send',
      route({
        tag: TAG,
        summary: '发送短信',
        access: 'public',
        body: sendBody,
        response: sendResponse,
        refusals: 'http',
        with: { bodyLimit: SEND_BODY_LIMIT, ...config() },
      }),
      async (req) => {
        const b = req.body;
        const keyHeader = req.headers[HEADERS.idempotencyKey];
        let idem: { key: string; bodySha256: string } | null = null;
        if (keyHeader !== undefined) {
          if (typeof keyHeader !== 'string' || !IDEMPOTENCY_KEY.test(keyHeader))
            throw apiError('IDEMPOTENCY_KEY_INVALID');
          idem = { key: keyHeader, bodySha256: req.openapiBodySha256 ?? EMPTY_BODY_SHA256 };
        }
        if (b.items && (b.content !== undefined || b.mobiles !== undefined))
          throw apiError('BAD_REQUEST', '请只用一种方式：content + mobiles，或 items');
        if (!b.items && (b.content === undefined || !b.mobiles?.length))
          throw apiError('BAD_REQUEST', '请提供 content 与 mobiles，或 items');
        let sendTime: Date | undefined;
        if (b.sendTime) {
          const t = parseSendTime(b.sendTime.length === 16 ? `${b.sendTime}:00` : b.sendTime);
          if (!t) throw apiError('BAD_REQUEST', '定时时间格式为 yyyy-MM-dd HH:mm:ss');
          sendTime = t;
        }
        const account = me(req);
        const r = await svc.send(
          account,
          {
            content: b.content,
            mobiles: b.mobiles,
            items: b.items,
            smstype: b.smstype,
            sendTime,
            extension: b.extension,
          },
          idem,
        );
        // the accessSpeed tokens of what was accepted (the call took one already); a refusal took none
        if (!r.replayed) await auth.debit(account, r.answer.submitTotal - 1);
        return ok({ ...r.answer, replayed: r.replayed }, r.answer.msg);
      },
    );

    // ---- query ----
    const taskQuery = request(ctx, 'params/openapi-task');
    const taskResponse = okOf(ctx, answerOf(ctx, 'responses/openapi-task', '任务及逐号码状态'));
    doc({
      method: 'get',
      path: '/sms/task',
      summary: '查询一次发送（任务）与逐号码状态',
      description:
        '本账户的任务（taskId 为发送时返回的任务编号；不是本账户的任务返回 TASK_NOT_FOUND），含各项计数与按消息编号分页的逐号码状态' +
        '（rows 最多 1000）。每个号码：msgid、mobile、state（0 未发送，1 提交成功，3 发送成功，4 发送失败，7 待审核…）、stateStr、errorcode、' +
        'report、smsNum、submitTime（提交时间）、doneTime（完成时间，收到状态报告的时间，不早于提交时间；未完成为空串）。',
      querystring: taskQuery,
      response: taskResponse,
    });
    app.get(
      '/sms/task',
      route({
        tag: TAG,
        summary: '查询发送',
        access: 'public',
        querystring: taskQuery,
        response: taskResponse,
        with: config(),
      }),
      async (req) => ok(await svc.task(me(req), req.query.taskId, req.query.page ?? 1, req.query.rows ?? 1000)),
    );

    // ---- pulls ----
    const pullBody = request(ctx, 'params/openapi-pull');
    const reportsResponse = okOf(ctx, answerOf(ctx, 'responses/openapi-report-pull', '拉取结果'));
    const moResponse = okOf(ctx, answerOf(ctx, 'responses/openapi-mo-pull', '拉取结果'));
    doc({
      method: 'post',
      path: '/reports/pull',
      summary: '拉取状态报告（needreport 3）：确认上次（ack）并取下一批',
      description:
        '仅限状态报告方式为「用户拉取」（needreport 3）的账户；其他方式返回 NOT_PULL_MODE（data.needreport 为当前方式）。' +
        '先删除上次拉取（以其 ack 确认）交出的记录，再交出最多 limit 条（默认 500，最多 1000）尚未交出的报告与新的 ack。' +
        '未在 60 秒内确认的记录会再次交出，所以请以上次的 ack 循环拉取，直到 more 为 false。无人拉取的记录保留 72 小时。',
      body: pullBody,
      response: reportsResponse,
    });
    app.post(
      '/reports/pull',
      route({
        tag: TAG,
        summary: '拉取状态报告',
        access: 'public',
        body: pullBody,
        response: reportsResponse,
        with: config(),
      }),
      async (req) => ok(await svc.pullReports(me(req), req.body.ack, req.body.limit ?? 500)),
    );
    doc({
      method: 'post',
      path: '/mo/pull',
      summary: '拉取上行（needmo 3）：确认上次（ack）并取下一批',
      description:
        '仅限上行方式为「用户拉取」（needmo 3）的账户；其他方式返回 NOT_PULL_MODE（data.needmo 为当前方式）。' +
        '确认与续拉规则同状态报告拉取：以上次的 ack 循环拉取，直到 more 为 false。',
      body: pullBody,
      response: moResponse,
    });
    app.post(
      '/mo/pull',
      route({ tag: TAG, summary: '拉取上行', access: 'public', body: pullBody, response: moResponse, with: config() }),
      async (req) => ok(await svc.pullMo(me(req), req.body.ack, req.body.limit ?? 500)),
    );

    // ---- account ----
    const balanceResponse = okOf(ctx, answerOf(ctx, 'responses/openapi-balance', '余额与产品包'));
    doc({
      method: 'get',
      path: '/account/balance',
      summary: '余额与套餐',
      description:
        '付费账户（后付费子账户为其代理商）的余额（元）与可用产品包（未过期、有剩余；剩余为条数，国际产品包为元）。',
      response: balanceResponse,
    });
    app.get(
      '/account/balance',
      route({ tag: TAG, summary: '余额与套餐', access: 'public', response: balanceResponse, with: config() }),
      async (req) => ok(await svc.balance(me(req), payerOf(me(req)))),
    );
    const signsResponse = okOf(ctx, answerOf(ctx, 'responses/openapi-signs', '签名列表'));
    doc({
      method: 'get',
      path: '/signs',
      summary: '签名列表（只读）',
      description: '本账户的签名（不含已删除）及审核状态；发送只能使用 approved 为 true 的签名。',
      response: signsResponse,
    });
    app.get(
      '/signs',
      route({ tag: TAG, summary: '签名列表', access: 'public', response: signsResponse, with: config() }),
      async (req) => ok(await svc.signs(me(req))),
    );
    const templatesResponse = okOf(ctx, answerOf(ctx, 'responses/openapi-templates', '模板列表'));
    doc({
      method: 'get',
      path: '/templates',
      summary: '模板列表（只读）',
      description: '本账户的模板与平台通用的国内短信模板（只读）。接口发送不绑定模板。',
      response: templatesResponse,
    });
    app.get(
      '/templates',
      route({ tag: TAG, summary: '模板列表', access: 'public', response: templatesResponse, with: config() }),
      async (req) => ok(await svc.templates(me(req))),
    );

    // ---- the document (no signature) ----
    let document: unknown;
    app.get(
      '/openapi.json',
      route({
        tag: TAG,
        summary: 'OpenAPI 文档',
        access: 'public',
        response: ctx.schemas.registry.inline('responses/openapi-document'),
        with: config({ apiPublic: true }),
      }),
      async (_req, reply) => {
        document ??= buildDocument(ctx.config.platformName, OPENAPI_PREFIX, docRoutes);
        return reply.header('cache-control', 'no-cache').send(document);
      },
    );
  };
}
