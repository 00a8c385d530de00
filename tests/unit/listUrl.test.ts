import { describe, expect, it } from 'vitest';
import { readListUrl, writeListUrl } from '@/components/SchemaTable/listUrl';
import { columnTotals, listPagination, pageSizeOptions } from '@/components/SchemaTable/SchemaTable';
import { schemaDefaults, searchFilters } from '@/components/SchemaTable/useSchemaList';
import { schemas } from '@/schema';

describe('a list in the address bar (listUrl)', () => {
  it('writes the filters as sent, the page and a chosen size, keeping other keys', () => {
    const { params } = searchFilters('filters/send-record', {
      phone: ' 13800138000 ',
      stateList: [3, 6],
      beginDate: '2026-11-01',
      operatorstype: 1,
    });
    const url = writeListUrl(new URLSearchParams('type=0&phone=old'), 'filters/send-record', {
      params,
      current: 2,
      pageSize: 20,
      defaultPageSize: 10,
    });
    expect(Object.fromEntries(url)).toEqual({
      type: '0',
      phone: '13800138000',
      stateList: '3,6',
      beginDate: '2026-11-01',
      operatorstype: '1',
      current: '2',
      pageSize: '20',
    });
  });

  it('leaves out the first page and the default size, and drops cleared filters', () => {
    const url = writeListUrl(new URLSearchParams('phone=138&current=3'), 'filters/send-record', {
      params: {},
      current: 1,
      pageSize: 10,
      defaultPageSize: 10,
    });
    expect(url.toString()).toBe('');
  });

  it('reads them back as the filter bar’s values (numbers, enum values, dates)', () => {
    const state = readListUrl(
      'filters/send-record',
      new URLSearchParams(
        'phone=13800138000&stateList=3,6&beginDate=2026-11-01&operatorstype=1&province=31&current=2&pageSize=20',
      ),
    );
    expect(state.current).toBe(2);
    expect(state.pageSize).toBe(20);
    const v = state.values!;
    expect(v.phone).toBe('13800138000');
    expect(v.stateList).toEqual([3, 6]);
    expect(v.operatorstype).toBe(1);
    expect(v.province).toBe(31);
    expect((v.beginDate as { format(p: string): string }).format('YYYY-MM-DD')).toBe('2026-11-01');
    // and round trip to the same request
    expect(searchFilters('filters/send-record', v).params).toMatchObject({
      phone: '13800138000',
      stateList: '3,6',
      beginDate: '2026-11-01',
      operatorstype: 1,
      province: 31,
    });
  });

  it('no filter key: no values (the page’s first values apply); bad numbers are ignored', () => {
    expect(readListUrl('filters/send-record', new URLSearchParams('type=0&current=x&pageSize=-1'))).toEqual({
      current: undefined,
      pageSize: undefined,
    });
    expect(readListUrl('filters/send-record', new URLSearchParams('operatorstype=99')).values).toEqual({});
  });
});

describe('a yes / no filter (filters/review.json 只看待审核)', () => {
  it('starts from the schema’s default, is sent as a boolean (false too), and reads back from the address bar', () => {
    expect(schemaDefaults(schemas.get('filters/review'))).toEqual({ pending: true });
    expect(schemaDefaults(schemas.get('filters/sign'))).toEqual({});
    expect(searchFilters('filters/review', { pending: false, clientid: ' b1 ' }).params).toEqual({
      pending: false,
      clientid: 'b1',
    });
    const url = writeListUrl(new URLSearchParams(), 'filters/review', {
      params: { pending: false },
      current: 1,
      pageSize: 15,
      defaultPageSize: 15,
    });
    expect(url.toString()).toBe('pending=false');
    expect(readListUrl('filters/review', url).values).toEqual({ pending: false });
    expect(readListUrl('filters/review', new URLSearchParams('pending=true&clientid=a1')).values).toEqual({
      pending: true,
      clientid: 'a1',
    });
    expect(readListUrl('filters/review', new URLSearchParams('pending=maybe')).values).toEqual({});
  });
});

describe('SchemaTable basics', () => {
  it('offers the list’s own page size among the choices', () => {
    expect(pageSizeOptions(15)).toEqual([10, 15, 20, 50, 100]);
    expect(pageSizeOptions(10)).toEqual([10, 20, 50, 100]);
  });

  it('hides the pager when one page of the default size holds everything', () => {
    expect(listPagination({ current: 1, pageSize: 15, total: 15 }, 15)).toBe(false);
    expect(listPagination({ current: 1, pageSize: 15, total: 16 }, 15)).toMatchObject({
      showSizeChanger: true,
      pageSizeOptions: [10, 15, 20, 50, 100],
    });
    // a larger size chosen keeps the pager while the default would page, so it can be chosen back
    expect(listPagination({ current: 1, pageSize: 50, total: 30 }, 15)).not.toBe(false);
    expect(listPagination(false)).toBe(false);
  });

  it('adds up the x-table.sum columns (grouped)', () => {
    const rows = [
      { id: 1, account_balance: 12000, client_id: 'a' },
      { id: 2, account_balance: 8496, client_id: 'b' },
    ];
    expect(columnTotals('entities/remain-row', ['client_id', 'account_balance'], rows)).toEqual({
      account_balance: '20,496',
    });
  });
});
