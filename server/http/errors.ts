/**
 * Every failure answers JSON `{ code, msg, data? }` with a non-zero code and a Chinese message.
 * Business errors (validation, session, captcha, limits, CSRF) use HTTP 200 so the console reads
 * the body; only an unknown /api path (404), a URL that cannot be decoded (400) and an
 * unexpected server fault (500) change the HTTP status. Stack traces never leave the server:
 * they go to the log.
 *
 * Hostile input is refused before it reaches a handler (guards.ts, paging.ts); as the last line of
 * defence, a data exception the database still raises (SQLSTATE class 22: invalid text
 * representation, numeric out of range, NUL in text, ...; class 54: a value too large for an
 * index) answers code 400 参数错误 (MESSAGES.badParam) and is logged as a warning, never as a 500.
 * A statement PostgreSQL cancelled at the pool's statement_timeout (SQLSTATE 57014,
 * DB_STATEMENT_TIMEOUT_MS) answers code 504 查询超时… (MESSAGES.queryTimeout), a warning in the log.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '../../common/schema/messages';
import { countConsoleRefusal } from './refusals';

export class ApiError extends Error {
  constructor(
    readonly code: number,
    msg: string,
    readonly data?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(msg);
  }
}

export const TIMEOUT_HEADER = 'x-session-timeout';

export const errors = {
  timeout: () => new ApiError(401, MESSAGES.sessionTimeout, undefined, { [TIMEOUT_HEADER]: '1' }),
  csrf: () => new ApiError(403, '非法请求，请刷新页面后重试'),
  tooManyRequests: () => new ApiError(429, '请求过于频繁，请稍后再试'),
  /** the caller may not reach this record or call (another agent's sub-account, an agent-only call) */
  forbidden: () => new ApiError(403, MESSAGES.forbidden),
  notFound: (what = '记录') => new ApiError(404, `${what}不存在`),
  /** a business rule refused the request; nothing changed */
  refused: (msg: string, data?: unknown) => new ApiError(500, msg, data),
};

export interface ErrorBody {
  code: number;
  msg: string;
  data?: unknown;
}

export const BAD_REQUEST_MSG = '请求格式错误';
export const BAD_PARAM_MSG = MESSAGES.badParam;

/** A PostgreSQL / PGlite error whose SQLSTATE says the client's value was at fault. */
export function isDataException(err: unknown): err is Error & { code: string } {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(22|54)[0-9A-Z]{3}$/.test(code) && 'severity' in (err as object);
}

/** PostgreSQL cancelled the statement: it ran past the pool's statement_timeout (DB_STATEMENT_TIMEOUT_MS) */
export function isStatementTimeout(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === QUERY_CANCELED && 'severity' in (err as object);
}
const QUERY_CANCELED = '57014';
/** the answer code of a request whose statement ran out of time (HTTP 200, like every business answer) */
export const QUERY_TIMEOUT_CODE = 504;

/** HTTP 429 of the rate limiter, answered as code 429 */
const TOO_MANY_REQUESTS = 429;

function fromFrameworkError(err: FastifyError): { status: number; body: ErrorBody } | null {
  const status = err.statusCode ?? 500;
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 200, body: { code: 415, msg: '不支持的请求格式' } };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 200, body: { code: 413, msg: '请求内容过大' } };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 200, body: { code: 400, msg: BAD_REQUEST_MSG } };
  }
  if (status === TOO_MANY_REQUESTS)
    return { status: 200, body: { code: TOO_MANY_REQUESTS, msg: '请求过于频繁，请稍后再试' } };
  // JSON.parse failures and other client-side faults the framework reports
  if (status >= 400 && status < 500) return { status: 200, body: { code: 400, msg: BAD_REQUEST_MSG } };
  return null;
}

/** the multipart reader's own errors (busboy): a body cut short or without its boundary */
const MULTIPART_FAULT = /unexpected end of multipart data|^Multipart: Boundary not found$|^Boundary required$/i;
export const isMultipartFault = (err: unknown) =>
  err instanceof Error && !(err as { statusCode?: unknown }).statusCode && MULTIPART_FAULT.test(err.message);

/**
 * Fastify's `frameworkErrors` option: errors raised while routing, before any hook or the error
 * handler (a URL that does not decode, a path parameter over the length limit), answered in the
 * usual shape instead of Fastify's own `{error, message, statusCode}`.
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  req.log.info({ err: { code: err.code, message: err.message } }, 'request refused while routing');
  void reply.status(400).send({ code: 400, msg: BAD_REQUEST_MSG } satisfies ErrorBody);
}

export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | ApiError, req: FastifyRequest, reply: FastifyReply) => {
    const answer = (status: number, body: ErrorBody) => {
      // a refused send of the console (routes declared `refusals: 'console'`): counted for 监控
      countConsoleRefusal(req, body.code, body.msg);
      return reply.status(status).send(body);
    };
    if (err instanceof ApiError) {
      if (err.headers) reply.headers(err.headers);
      const body: ErrorBody = { code: err.code, msg: err.message };
      if (err.data !== undefined) body.data = err.data;
      return answer(200, body);
    }
    const mapped = fromFrameworkError(err);
    if (mapped) {
      req.log.info({ err: { code: err.code, message: err.message } }, 'request refused');
      return answer(mapped.status, mapped.body);
    }
    if (isMultipartFault(err)) {
      req.log.info({ err: { message: err.message } }, 'request refused: broken multipart body');
      return answer(200, { code: 400, msg: BAD_REQUEST_MSG });
    }
    if (isStatementTimeout(err)) {
      req.log.warn({ err: { message: err.message }, url: req.url }, 'statement cancelled by statement_timeout');
      return answer(200, { code: QUERY_TIMEOUT_CODE, msg: MESSAGES.queryTimeout });
    }
    if (isDataException(err)) {
      req.log.warn(
        { err: { code: err.code, message: err.message }, url: req.url },
        'data exception from the database: a value the guards let through',
      );
      return answer(200, { code: 400, msg: BAD_PARAM_MSG });
    }
    req.log.error({ err }, 'unexpected error');
    return answer(500, { code: 500, msg: '服务器繁忙，请稍后再试' });
  });
}
