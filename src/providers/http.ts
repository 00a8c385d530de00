/**
 * The console's HTTP client. Every call goes to `/api`; a response succeeds only when
 * `code === 0` (or "0"). Otherwise the promise rejects with the body and its `msg` is toasted.
 * A timeout response header shows the timeout overlay and is treated as code 401 登录超时.
 * A network failure logs 接口异常, and a failure without a JSON body (a proxy's 502 page, an
 * unreachable server) is toasted too (接口异常（502）), once like any other: a failure never passes
 * silently for empty data (issue 27 item 4). Cancelled calls are not failures.
 */
import axios, { AxiosError, type AxiosRequestConfig } from 'axios';
import { MESSAGES } from '../../common/schema/messages';

export interface ApiBody<T = any> {
  code: number | string;
  msg?: string;
  data?: T;
  [k: string]: any;
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

export const http = axios.create({
  baseURL: '/api',
  timeout: 60_000,
  withCredentials: true,
  // CSRF: the server sets a readable XSRF-TOKEN cookie; axios echoes it in this header.
  xsrfCookieName: 'XSRF-TOKEN',
  xsrfHeaderName: 'X-XSRF-TOKEN',
});

export function isOk(body: unknown): body is ApiBody {
  return !!body && typeof body === 'object' && 'code' in body && Number((body as ApiBody).code) === 0;
}

http.interceptors.response.use(
  (res) => {
    if (res.headers?.[TIMEOUT_HEADER]) {
      listeners.timeout.forEach((fn) => fn());
      return Promise.reject(new ApiError(TIMEOUT_BODY, true));
    }
    // file downloads and other non-JSON answers pass through untouched
    if (res.config.responseType === 'blob' || res.config.responseType === 'arraybuffer') return res;
    const body = res.data as ApiBody;
    if (isOk(body)) return res;
    const err = new ApiError(body && typeof body === 'object' ? body : { code: -1, msg: '接口异常' });
    if (!(res.config as ApiRequestConfig).silent) listeners.error.forEach((fn) => fn(err.message, err.body));
    return Promise.reject(err);
  },
  (error: AxiosError<ApiBody>) => {
    if (error.response?.headers?.[TIMEOUT_HEADER]) {
      listeners.timeout.forEach((fn) => fn());
      return Promise.reject(new ApiError(TIMEOUT_BODY, true));
    }
    const body = error.response?.data;
    if (body && typeof body === 'object' && 'code' in body) {
      const err = new ApiError(body);
      if (!(error.config as ApiRequestConfig | undefined)?.silent) listeners.error.forEach((fn) => fn(err.message, err.body));
      return Promise.reject(err);
    }
    console.error('接口异常', error.message);
    const status = error.response?.status;
    const err = new ApiError({ code: -1, msg: status ? `接口异常（${status}）` : '接口异常' });
    if (!axios.isCancel(error) && !(error.config as ApiRequestConfig | undefined)?.silent) listeners.error.forEach((fn) => fn(err.message, err.body));
    return Promise.reject(err);
  },
);

export interface ApiRequestConfig extends AxiosRequestConfig {
  /** do not toast the error message (the caller shows it its own way) */
  silent?: boolean;
}

/** GET returning the whole body ({code,msg,data,...}). */
export async function get<T = any>(url: string, params?: object, config?: ApiRequestConfig): Promise<ApiBody<T>> {
  return (await http.get<ApiBody<T>>(url, { ...config, params })).data;
}

/** POST as a form (application/x-www-form-urlencoded), as the spec's calls expect. */
export async function postForm<T = any>(url: string, data?: object, config?: ApiRequestConfig): Promise<ApiBody<T>> {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(data ?? {})) {
    if (v === undefined || v === null) continue;
    form.append(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  return (await http.post<ApiBody<T>>(url, form, config)).data;
}

/** POST as JSON (the spec marks a few calls "(JSON)"). */
export async function postJson<T = any>(url: string, data?: unknown, config?: ApiRequestConfig): Promise<ApiBody<T>> {
  return (await http.post<ApiBody<T>>(url, data, config)).data;
}
