import { describe, expect, it, vi } from 'vitest';
import { http as mock, HttpResponse } from 'msw';
import { ApiError, get, httpEvents, postForm } from '@/providers/http';
import { server, useMswServer } from './msw';

useMswServer();

describe('http client', () => {
  it('resolves with the body when code is 0', async () => {
    server.use(mock.get('/api/thing', () => HttpResponse.json({ code: 0, msg: 'ok', data: { a: 1 } })));
    await expect(get('/thing')).resolves.toEqual({ code: 0, msg: 'ok', data: { a: 1 } });
  });

  it('accepts code "0" as a string', async () => {
    server.use(mock.get('/api/thing', () => HttpResponse.json({ code: '0', data: 5 })));
    await expect(get('/thing')).resolves.toMatchObject({ data: 5 });
  });

  it('rejects a non-zero code with the body and toasts its msg', async () => {
    const toast = vi.fn();
    const off = httpEvents.onError(toast);
    server.use(mock.post('/api/thing', () => HttpResponse.json({ code: 500, msg: '手机号码已存在' })));
    const err = await postForm('/thing', { mobile: '13800138000' }).catch((e) => e);
    off();
    expect(err).toBeInstanceOf(ApiError);
    expect(err.body).toEqual({ code: 500, msg: '手机号码已存在' });
    expect(err.code).toBe(500);
    expect(toast).toHaveBeenCalledWith('手机号码已存在', { code: 500, msg: '手机号码已存在' });
  });

  it('does not toast when the call is silent', async () => {
    const toast = vi.fn();
    const off = httpEvents.onError(toast);
    server.use(mock.get('/api/thing', () => HttpResponse.json({ code: 1, msg: 'x' })));
    await expect(get('/thing', undefined, { silent: true })).rejects.toBeInstanceOf(ApiError);
    off();
    expect(toast).not.toHaveBeenCalled();
  });

  it('sends forms urlencoded', async () => {
    let seen = '';
    server.use(
      mock.post('/api/form', async ({ request }) => {
        seen = `${request.headers.get('content-type')}|${await request.text()}`;
        return HttpResponse.json({ code: 0 });
      }),
    );
    await postForm('/form', { a: '1', b: ['x', 'y'], skip: undefined });
    expect(seen).toMatch(/^application\/x-www-form-urlencoded/);
    expect(seen.split('|')[1]).toBe('a=1&b=x%2Cy');
  });

  it('a timeout header shows the overlay and rejects with 401 登录超时', async () => {
    const overlay = vi.fn();
    const off = httpEvents.onTimeout(overlay);
    server.use(
      mock.get('/api/admin/info', () =>
        HttpResponse.json({ code: 401, msg: '登录超时' }, { status: 401, headers: { 'x-session-timeout': '1' } }),
      ),
    );
    const err = await get('/admin/info').catch((e) => e);
    off();
    expect(overlay).toHaveBeenCalledTimes(1);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.code).toBe(401);
    expect(err.message).toBe('登录超时');
    expect(err.timedOut).toBe(true);
  });

  it('the timeout header counts even on a 200 answer', async () => {
    const overlay = vi.fn();
    const off = httpEvents.onTimeout(overlay);
    server.use(mock.get('/api/x', () => HttpResponse.json({ code: 0 }, { headers: { 'x-session-timeout': '1' } })));
    await expect(get('/x')).rejects.toMatchObject({ code: 401, message: '登录超时' });
    off();
    expect(overlay).toHaveBeenCalled();
  });

  it('a network failure logs 接口异常', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(mock.get('/api/down', () => HttpResponse.error()));
    const err = await get('/down').catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe('接口异常');
    expect(log).toHaveBeenCalledWith('接口异常', expect.anything());
    log.mockRestore();
  });

  it('a failure without a JSON body (a proxy’s 502 page) is toasted once, with its status', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const toast = vi.fn();
    const off = httpEvents.onError(toast);
    server.use(
      mock.get(
        '/api/gateway',
        () =>
          new HttpResponse('<html>502 Bad Gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }),
      ),
    );
    const err = await get('/gateway').catch((e) => e);
    const quiet = await get('/gateway', undefined, { silent: true }).catch((e) => e);
    off();
    expect(err.message).toBe('接口异常（502）');
    expect(quiet.message).toBe('接口异常（502）');
    expect(toast).toHaveBeenCalledTimes(1);
    expect(toast).toHaveBeenCalledWith('接口异常（502）', { code: -1, msg: '接口异常（502）' });
    log.mockRestore();
  });
});
