/** The report date rules of the console (src/custom-pages/reports/reportDates.ts), as the server checks them. */
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import {
  defaultReportRange,
  reportDayDisabled,
  reportPickerProps,
  reportRangeProblem,
} from '@/custom-pages/reports/reportDates';
import { reportTabs, tabQuery } from '@/custom-pages/reports/tabs';

const now = dayjs('2026-11-25T10:00:00');
const d = (s: string) => dayjs(s);

describe('report dates', () => {
  it('starts on the 90 days up to today (live figures)', () => {
    const r = defaultReportRange(now);
    expect([r.from.format('YYYY-MM-DD'), r.to.format('YYYY-MM-DD')]).toEqual(['2026-08-28', '2026-11-25']);
  });

  it('offers days up to today, postpaid 90 days back, prepaid 365', () => {
    expect(reportDayDisabled('pre', d('2026-11-25'), now)).toBe(false);
    expect(reportDayDisabled('pre', d('2026-11-26'), now)).toBe(true);
    expect(reportDayDisabled('post', d('2026-08-26'), now)).toBe(false);
    expect(reportDayDisabled('post', d('2026-08-25'), now)).toBe(true);
    expect(reportDayDisabled('pre', d('2025-11-24'), now)).toBe(false);
    expect(reportDayDisabled('pre', d('2025-11-23'), now)).toBe(true);
  });

  it('refuses with the server’s messages', () => {
    expect(reportRangeProblem('pre', '2026-11-20', '2026-11-24', now)).toBeNull();
    expect(reportRangeProblem('pre', '2026-11-20', '2026-11-25', now)).toBeNull();
    expect(reportRangeProblem('pre', '2026-11-20', '2026-11-26', now)).toBe('报表只能查询到今天的数据');
    expect(reportRangeProblem('pre', '2026-11-20', '2026-11-19', now)).toBe('结束日期不能早于开始日期');
    expect(reportRangeProblem('post', '2026-08-25', '2026-11-24', now)).toBe('后付费报表最多查询90天内的数据');
    expect(reportRangeProblem('pre', '2025-11-23', '2026-11-24', now)).toBe('预付费报表最多查询365天内的数据');
    expect(reportRangeProblem('pre', '', '2026-11-24', now)).toBe('参数错误');
  });

  it('pickers cannot be cleared or typed into', () => {
    expect(reportPickerProps('pre')).toMatchObject({ allowClear: false, inputReadOnly: true });
  });

  it('tabs per mode', () => {
    expect(reportTabs(true).map((t) => t.label)).toEqual(['子账户(预付费)', '子账户(后付费)']);
    expect(reportTabs(false).map((t) => t.label)).toEqual(['普通短信', '国际短信']);
    expect(tabQuery('post', false)).toEqual({ clickType: 'inter' });
    expect(tabQuery('post', true)).toEqual({});
  });
});
