import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { validateForm } from '@/components/SchemaForm/validation';
import { fileNameOf } from '@/resources/signs/files';
import { schemas } from '@/schema';
import { schemaFilters } from '../../common/schema/filters';

describe('sign screens: pure helpers', () => {
  it('filter values -> list parameters (dates as YYYY-MM-DD, empties dropped, sign trimmed)', () => {
    const signFilter = schemas.get('filters/sign');
    expect(
      schemaFilters(signFilter, {
        clientid: '',
        state: 0,
        sign: '  好易购 ',
        start_time: dayjs('2026-11-01'),
        end_time: null,
      }),
    ).toEqual({
      state: 0,
      sign: '好易购',
      start_time: '2026-11-01',
    });
    expect(schemaFilters(signFilter, {})).toEqual({});
  });

  it('reads the file name of a download (filename* first)', () => {
    expect(
      fileNameOf(`attachment; filename="x.xlsx"; filename*=UTF-8''${encodeURIComponent('签名报备.xlsx')}`, 'f.xlsx'),
    ).toBe('签名报备.xlsx');
    expect(fileNameOf('attachment; filename="a.xlsx"', 'f.xlsx')).toBe('a.xlsx');
    expect(fileNameOf(undefined, 'f.xlsx')).toBe('f.xlsx');
  });

  it("checks forms/sign-add with the server's messages, trimming first", () => {
    const bad = validateForm('forms/sign-add', { clientid: '', sign: ' 云 ', remarks: '长'.repeat(51) });
    expect(bad.ok).toBe(false);
    expect(bad.errors).toEqual(
      expect.arrayContaining([
        { field: 'clientid', message: '子账户内容不能为空,请选择子账户' },
        { field: 'sign', message: '签名长度为2-12之间' },
        { field: 'remarks', message: '备注最大长度不超过50个字符' },
      ]),
    );
    const good = validateForm('forms/sign-add', { clientid: 'client1', sign: ' 云讯科技 ', remarks: ' 通知 ' });
    expect(good).toMatchObject({ ok: true, data: { clientid: 'client1', sign: '云讯科技', remarks: '通知' } });
  });
});
