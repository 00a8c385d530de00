/**
 * The console's HTTP client for the calls that are not plain JSON calls: multipart uploads, raw
 * bodies, file downloads (blob answers) and POSTs with query parameters. Same rules as ./http
 * (code 0 succeeds; any other code rejects with ApiError and is toasted unless `silent`; the
 * timeout header shows the overlay; no answer is 接口异常), over axios, which only the pages
 * making such calls load (/login does not).
 */
import axios, { AxiosError, type AxiosRequestConfig } from 'axios';
import {
  isOk,
  refused,
  sessionTimedOut,
  TIMEOUT_HEADER,
  unreachable,
  XSRF_COOKIE,
  XSRF_HEADER,
  type ApiBody,
} from './http';

export interface RawRequestConfig extends AxiosRequestConfig {
  /** do not toast the error message (the caller shows it its own way) */
  silent?: boolean;
}

export const http = axios.create({
  baseURL: '/api',
  timeout: 60_000,
  withCredentials: true,
  // CSRF: the server sets a readable XSRF-TOKEN cookie; axios echoes it in this header.
  xsrfCookieName: XSRF_COOKIE,
  xsrfHeaderName: XSRF_HEADER,
});

http.interceptors.response.use(
  (res) => {
    if (res.headers?.[TIMEOUT_HEADER]) return Promise.reject(sessionTimedOut());
    // file downloads and other non-JSON answers pass through untouched
    if (res.config.responseType === 'blob' || res.config.responseType === 'arraybuffer') return res;
    const body = res.data as ApiBody;
    if (isOk(body)) return res;
    return Promise.reject(
      refused(
        body && typeof body === 'object' ? body : { code: -1, msg: '接口异常' },
        (res.config as RawRequestConfig).silent,
      ),
    );
  },
  (error: AxiosError<ApiBody>) => {
    if (error.response?.headers?.[TIMEOUT_HEADER]) return Promise.reject(sessionTimedOut());
    const body = error.response?.data;
    if (body && typeof body === 'object' && 'code' in body)
      return Promise.reject(refused(body, (error.config as RawRequestConfig | undefined)?.silent));
    return Promise.reject(
      unreachable(error.message, {
        status: error.response?.status,
        silent: (error.config as RawRequestConfig | undefined)?.silent,
        cancelled: axios.isCancel(error),
      }),
    );
  },
);
