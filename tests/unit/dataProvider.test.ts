import { describe, expect, it } from 'vitest';
import { http as mock, HttpResponse } from 'msw';
import { createDataProvider, figuresBesideRows, normaliseList } from '@/providers/dataProvider';
import type { ResourceRegistry } from '@/providers/dataProvider';
import { server, useMswServer } from './msw';

useMswServer();

const rows = [{ client_id: 'b1' }, { client_id: 'b2' }];

const shapes = {
  'list/totalCount': { list: rows, totalCount: 42, currentPage: 1, pageRowCount: 15, totalPage: 3 },
  'data/totalRecord': { data: rows, totalRecord: 42, page: 1, rows: 15 },
  'rows as array': { rows, totalRecord: 42, page: 1 },
  'entityList/totalCount': { entityList: rows, totalCount: 42 },
};

describe('normaliseList', () => {
  for (const [name, shape] of Object.entries(shapes)) {
    it(`${name} at body.data`, () => {
      expect(normaliseList({ code: 0, data: shape })).toEqual({ data: rows, total: 42 });
    });
    it(`${name} at the body top level`, () => {
      expect(normaliseList({ code: 0, msg: 'ok', ...shape })).toEqual({ data: rows, total: 42 });
    });
  }
  it('a bare array in data is one unpaged list', () => {
    expect(normaliseList({ code: 0, data: rows })).toEqual({ data: rows, total: 2 });
  });
  it('nothing usable is an empty list', () => {
    expect(normaliseList({ code: 0, data: null })).toEqual({ data: [], total: 0 });
  });
});

describe('figuresBesideRows', () => {
  it("keeps what a list answer's data holds beside its rows and paging", () => {
    expect(
      figuresBesideRows({
        code: 0,
        data: {
          list: rows,
          totalCount: 42,
          currentPage: 1,
          pageRowCount: 15,
          totalPage: 3,
          fileCount: 1203,
          totals: { send_num: 9 },
        },
      }),
    ).toEqual({
      fileCount: 1203,
      totals: { send_num: 9 },
    });
  });
  it('nothing beside a bare array, null or a non-object', () => {
    expect(figuresBesideRows({ code: 0, data: rows })).toEqual({});
    expect(figuresBesideRows({ code: 0, data: null })).toEqual({});
    expect(figuresBesideRows('x')).toEqual({});
    expect(
      figuresBesideRows({ code: 0, data: { data: rows, totalRecord: 42, page: 1, rows: 15, note: null } }),
    ).toEqual({});
  });
});

const registry: ResourceRegistry = {
  subAccounts: {
    idField: 'client_id',
    list: {
      url: '/client/accounts',
      method: 'form',
      paging: 'currentPage',
      filters: {
        keyword: 'customerInfo',
        createdAt: (range) => {
          const [start, end] = range as [string, string];
          return { start_time_day: start, end_time_day: end };
        },
      },
    },
    one: { url: '/client/account/detail', idParam: 'client_id' },
    update: { url: '/account/updateClient', idParam: 'clientid' },
  },
  templates: {
    list: { url: '/template/list', method: 'get', paging: 'page', pageSize: 20 },
  },
  notices: { list: { url: '/notice/list', method: 'json' } },
};

describe('data provider', () => {
  const dp = createDataProvider(registry);

  it('POST form with currentPage/pageRowCount (default 15), mapped filters, ids from idField', async () => {
    let sent: URLSearchParams | undefined;
    server.use(
      mock.post('/api/client/accounts', async ({ request }) => {
        sent = new URLSearchParams(await request.text());
        return HttpResponse.json({ code: 0, data: shapes['list/totalCount'] });
      }),
    );
    const res = await dp.getList({
      resource: 'subAccounts',
      pagination: { currentPage: 2 },
      filters: [
        { field: 'keyword', operator: 'contains', value: '优品' },
        { field: 'createdAt', operator: 'between', value: ['2026-01-01', '2026-01-31'] },
        { field: 'status', operator: 'eq', value: 1 },
        { field: 'empty', operator: 'eq', value: '' },
      ],
    });
    expect(Object.fromEntries(sent!)).toEqual({
      currentPage: '2',
      pageRowCount: '15',
      customerInfo: '优品',
      start_time_day: '2026-01-01',
      end_time_day: '2026-01-31',
      status: '1',
    });
    expect(res.total).toBe(42);
    expect(res.data.map((r) => r.id)).toEqual(['b1', 'b2']);
  });

  it('GET with page/rows, the resource page size, and the screen page size', async () => {
    const seen: Record<string, string>[] = [];
    server.use(
      mock.get('/api/template/list', ({ request }) => {
        seen.push(Object.fromEntries(new URL(request.url).searchParams));
        return HttpResponse.json({ code: 0, ...shapes['entityList/totalCount'] });
      }),
    );
    await dp.getList({ resource: 'templates' });
    const res = await dp.getList({ resource: 'templates', pagination: { currentPage: 3, pageSize: 50 } });
    expect(seen).toEqual([
      { page: '1', rows: '20' },
      { page: '3', rows: '50' },
    ]);
    expect(res).toEqual({ data: rows, total: 42 });
  });

  it('POST JSON lists', async () => {
    let body: unknown;
    server.use(
      mock.post('/api/notice/list', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ code: 0, data: shapes['data/totalRecord'] });
      }),
    );
    const res = await dp.getList({
      resource: 'notices',
      filters: [{ field: 'noticeName', operator: 'contains', value: '维护' }],
    });
    expect(body).toEqual({ noticeName: '维护', currentPage: 1, pageRowCount: 15 });
    expect(res.total).toBe(42);
    // nothing but the rows and their count when the answer holds nothing else
    expect(Object.keys(res).sort()).toEqual(['data', 'total']);
  });

  it('no paging params when pagination is off', async () => {
    let query = 'unset';
    server.use(
      mock.get('/api/template/list', ({ request }) => {
        query = new URL(request.url).search;
        return HttpResponse.json({ code: 0, data: rows });
      }),
    );
    await dp.getList({ resource: 'templates', pagination: { mode: 'off' } });
    expect(query).toBe('');
  });

  it("getOne sends the id under the endpoint's parameter; update posts the form", async () => {
    let detailQuery = '';
    let updateBody = '';
    server.use(
      mock.get('/api/client/account/detail', ({ request }) => {
        detailQuery = new URL(request.url).search;
        return HttpResponse.json({ code: 0, data: { client_id: 'b1', name: '优品' } });
      }),
      mock.post('/api/account/updateClient', async ({ request }) => {
        updateBody = await request.text();
        return HttpResponse.json({ code: 0 });
      }),
    );
    const one = await dp.getOne({ resource: 'subAccounts', id: 'b1' });
    expect(detailQuery).toBe('?client_id=b1');
    expect(one.data).toEqual({ client_id: 'b1', name: '优品', id: 'b1' });
    await dp.update({ resource: 'subAccounts', id: 'b1', variables: { name: '新名称' } });
    expect(new URLSearchParams(updateBody).get('clientid')).toBe('b1');
    expect(new URLSearchParams(updateBody).get('name')).toBe('新名称');
  });

  it('custom calls: GET query, POST form', async () => {
    server.use(
      mock.get('/api/client/stat', ({ request }) =>
        HttpResponse.json({ code: 0, data: { q: new URL(request.url).searchParams.get('x') } }),
      ),
      mock.post('/api/content/content/test', async ({ request }) =>
        HttpResponse.json({ code: 0, data: await request.text() }),
      ),
    );
    await expect(dp.custom!({ url: '/client/stat', method: 'get', query: { x: '1' } })).resolves.toMatchObject({
      data: { q: '1' },
    });
    await expect(
      dp.custom!({ url: '/content/content/test', method: 'post', payload: { content: '测试' } }),
    ).resolves.toMatchObject({
      data: 'content=%E6%B5%8B%E8%AF%95',
    });
  });

  it('unknown resources fail loudly', async () => {
    await expect(dp.getList({ resource: 'nope' })).rejects.toThrow('未登记的资源：nope');
  });

  it('rejects with the ApiError of a failed call (statusCode for Refine)', async () => {
    server.use(mock.get('/api/template/list', () => HttpResponse.json({ code: 500, msg: '查询失败' })));
    await expect(dp.getList({ resource: 'templates' })).rejects.toMatchObject({ message: '查询失败', statusCode: 500 });
  });
});
