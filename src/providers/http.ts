/**
 * The console's HTTP client. Every call goes to `/api`; a response succeeds only when
 * `code === 0` (or "0"). Otherwise the promise rejects with the body and its `msg` is toasted.
 * A timeout response header shows the timeout overlay and is treated as code 401 登录超时.
 * A network failure logs 接口异常, and a failure without a JSON body (a proxy's 502 page, an
 * unreachable server) is toasted too (接口异常（502）), once like any other: a failure never passes
 * silently for empty data (issue 27 item 4). Cancelled calls are not failures.
 *
 *
 * get / postForm / postJson (the JSON calls: nearly every call) go over the browser's fetch, so
 * /login, which makes only such calls, carries no HTTP library. Uploads and file downloads
 * (multipart bodies, blob answers, query parameters on a POST) use the axios instance of
 * ./httpRaw, loaded with the pages that make them; both report through the same ApiError and
 * httpEvents.
 */
import { MESSAGES } from '../../common/schema/messages';
import type { FieldError } from '../../common/schema/ajv';

export interface ApiBody<T = unknown> {
  code: number | string;
  msg?: string;
  data?: T;
  [k: string]: unknown;
}

/** Thrown (as a rejection) for any response whose code is not 0. */
export class ApiError extends Error {
  /**
   * @param body the answer's body ({code,msg,data})
   * @param timedOut true when the server reported a session timeout through the response header
   *   (the timeout overlay is already showing)
   */
  constructor(
    readonly body: ApiBody,
    readonly timedOut = false,
  ) {
    super(body.msg ?? '请求失败');
    this.name = 'ApiError';
  }
  get code() {
    return Number(this.body.code);
  }
  /** The per-field refusals the server answered (`data.errors`: [{field, message}]), if any. */
  get fieldErrors(): FieldError[] | undefined {
    const errors = (this.body.data as { errors?: unknown } | undefined)?.errors;
    return Array.isArray(errors) ? (errors as FieldError[]) : undefined;
  }
  /** Refine reads `statusCode` from errors (HttpError); our status is the body's code. */
  get statusCode() {
    return this.code;
  }
}

/** Header the server sets when the session has expired. */
export const TIMEOUT_HEADER = 'x-session-timeout';
export const TIMEOUT_BODY: ApiBody = { code: 401, msg: MESSAGES.sessionTimeout };

type Listener<A extends unknown[]> = (...a: A) => void;
const listeners = {
  error: new Set<Listener<[string, ApiBody]>>(),
  timeout: new Set<Listener<[]>>(),
};

/** UI hooks: the app shell shows toasts and the timeout overlay through these. */
export const httpEvents = {
  onError(fn: Listener<[string, ApiBody]>) {
    listeners.error.add(fn);
    return () => listeners.error.delete(fn);
  },
  onTimeout(fn: Listener<[]>) {
    listeners.timeout.add(fn);
    return () => listeners.timeout.delete(fn);
  },
};

export function isOk(body: unknown): body is ApiBody {
  return !!body && typeof body === 'object' && 'code' in body && Number((body as ApiBody).code) === 0;
}

/** Both transports (this file's fetch, ./httpRaw's axios): the timeout overlay, and the rejection it means. */
export function sessionTimedOut(): ApiError {
  listeners.timeout.forEach((fn) => fn());
  return new ApiError(TIMEOUT_BODY, true);
}

/** Both transports: an answer whose code is not 0 (toasted unless the call is silent). */
export function refused(body: ApiBody, silent: boolean | undefined): ApiError {
  const err = new ApiError(body);
  if (!silent) listeners.error.forEach((fn) => fn(err.message, err.body));
  return err;
}

/** Both transports: no answer (network, timeout) or one that is not ours. */
export function unreachable(
  reason: string,
  how: { status?: number; silent?: boolean; cancelled?: boolean } = {},
): ApiError {
  console.error('接口异常', reason);
  const err = new ApiError({ code: -1, msg: how.status ? `接口异常（${how.status}）` : '接口异常' });
  // toasted like any other failure (once: react-query does not retry), unless the caller cancelled it
  if (!how.silent && !how.cancelled) listeners.error.forEach((fn) => fn(err.message, err.body));
  return err;
}

export interface ApiRequestConfig {
  /** do not toast the error message (the caller shows it its own way) */
  silent?: boolean;
  /** ms before the call is given up (default 60 s) */
  timeout?: number;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * a question about the session itself (which kind it is: providers/sessionKind.ts): a 401 with
   * the timeout header is its answer, not a timeout to show (no overlay)
   */
  probe?: boolean;
}

const TIMEOUT_MS = 60_000;
/** CSRF: the server sets a readable XSRF-TOKEN cookie; every call echoes it in this header. */
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';

function cookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  const hit = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return hit ? decodeURIComponent(hit.slice(name.length + 1)) : undefined;
}

/** Query parameters as axios wrote them: null / undefined left out, arrays as `k[]=…`, dates ISO. */
export function queryString(params?: object): string {
  const q = new URLSearchParams();
  const put = (k: string, v: unknown) => {
    if (v === undefined || v === null) return;
    q.append(k, v instanceof Date ? v.toISOString() : typeof v === 'object' ? JSON.stringify(v) : String(v));
  };
  for (const [k, v] of Object.entries(params ?? {})) {
    if (Array.isArray(v)) v.forEach((x) => put(`${k}[]`, x));
    else put(k, v);
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

const base = () => (typeof location !== 'undefined' && location.href ? new URL('/api', location.href).href : '/api');

async function request<T>(
  method: 'GET' | 'POST',
  url: string,
  body: BodyInit | undefined,
  type: string | undefined,
  config: ApiRequestConfig = {},
): Promise<ApiBody<T>> {
  const headers: Record<string, string> = { Accept: 'application/json, text/plain, */*', ...config.headers };
  if (type) headers['Content-Type'] = type;
  const xsrf = cookie(XSRF_COOKIE);
  if (xsrf) headers[XSRF_HEADER] = xsrf;
  const abort = new AbortController();
  const timer = setTimeout(
    () => abort.abort(new Error(`timeout of ${config.timeout ?? TIMEOUT_MS}ms exceeded`)),
    config.timeout ?? TIMEOUT_MS,
  );
  const stop = () => abort.abort(config.signal?.reason);
  config.signal?.addEventListener('abort', stop);
  let res: Response;
  let text: string;
  try {
    if (config.signal?.aborted) stop();
    res = await fetch(base() + url, { method, body, headers, credentials: 'include', signal: abort.signal });
    text = await res.text();
  } catch (e) {
    throw unreachable(e instanceof Error ? e.message : String(e), {
      silent: config.silent,
      cancelled: !!config.signal?.aborted,
    });
  } finally {
    clearTimeout(timer);
    config.signal?.removeEventListener('abort', stop);
  }
  if (res.headers.get(TIMEOUT_HEADER)) throw config.probe ? new ApiError(TIMEOUT_BODY, true) : sessionTimedOut();
  let answer: unknown;
  try {
    answer = text ? JSON.parse(text) : undefined;
  } catch {
    answer = undefined;
  }
  if (isOk(answer)) return answer as ApiBody<T>;
  if (answer && typeof answer === 'object' && 'code' in answer) throw refused(answer as ApiBody, config.silent);
  // a 2xx answer that is not ours reads 接口异常 as a failed code would (toasted); anything else is the network's
  if (res.ok) throw refused({ code: -1, msg: '接口异常' }, config.silent);
  throw unreachable(`HTTP ${res.status}`, { status: res.status, silent: config.silent });
}

/** GET returning the whole body ({code,msg,data,...}). */
export async function get<T = unknown>(url: string, params?: object, config?: ApiRequestConfig): Promise<ApiBody<T>> {
  return request<T>('GET', url + queryString(params), undefined, undefined, config);
}

/** POST as a form (application/x-www-form-urlencoded), as the spec's calls expect. */
export async function postForm<T = unknown>(
  url: string,
  data?: object,
  config?: ApiRequestConfig,
): Promise<ApiBody<T>> {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(data ?? {})) {
    if (v === undefined || v === null) continue;
    form.append(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  return request<T>('POST', url, form.toString(), 'application/x-www-form-urlencoded', config);
}

/** POST as JSON (the spec marks a few calls "(JSON)"). */
export async function postJson<T = unknown>(
  url: string,
  data?: unknown,
  config?: ApiRequestConfig,
): Promise<ApiBody<T>> {
  return request<T>(
    'POST',
    url,
    data === undefined ? undefined : JSON.stringify(data),
    data === undefined ? undefined : 'application/json',
    config,
  );
}
