/** The send page's rules outside its components: scheduled time, number box, record dates, auto refresh. */
import { act, renderHook } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import sendSchema from '../../../schemas/forms/send.json';
import { defaultSendTime, latestSendTime, SEND_MESSAGES, sendDateDisabled, sendTimeProblem } from '@/domain/send';
import { appendNumbers, confirmBox, numberInput, poolProblem } from '@/custom-pages/send/numberPool';
import {
  lastDays,
  lastUplinkMonth,
  rangeOrderProblem,
  uplinkDayDisabled,
  uplinkRangeProblem,
} from '@/resources/send-records/recordDates';
import { useAutoRefresh } from '@/components/SchemaTable/useAutoRefresh';
import { schemaFilters } from '../../../common/schema/filters';
import { schemas } from '@/schema';

const now = dayjs('2026-11-23T10:00:00');

describe('scheduled time (spec 02 §5, §9)', () => {
  it('defaults to now + 30 min', () => {
    expect(defaultSendTime(now).format('YYYY-MM-DD HH:mm:ss')).toBe('2026-11-23 10:30:00');
  });
  it('at least now + 5 min, at most the end of next year; messages from forms/send.json', () => {
    expect(sendTimeProblem(now.add(4, 'minute'), now)).toBe(sendSchema['x-messages'].sendTimeTooEarly);
    expect(sendTimeProblem(now.add(5, 'minute'), now)).toBeNull();
    expect(sendTimeProblem(dayjs('2027-12-31T23:59:59'), now)).toBeNull();
    expect(sendTimeProblem(dayjs('2028-01-01T00:00:00'), now)).toBe(sendSchema['x-messages'].sendTimeTooLate);
    expect(sendTimeProblem(null, now)).toBe(SEND_MESSAGES.sendTimeTooEarly);
    expect(latestSendTime(now).format('YYYY-MM-DD HH:mm:ss')).toBe('2027-12-31 23:59:59');
  });
  it('the picker offers today to the end of next year', () => {
    expect(sendDateDisabled(now.subtract(1, 'day'), now)).toBe(true);
    expect(sendDateDisabled(now, now)).toBe(false);
    expect(sendDateDisabled(dayjs('2027-12-31'), now)).toBe(false);
    expect(sendDateDisabled(dayjs('2028-01-01'), now)).toBe(true);
  });
});

describe('number box (common/sms/numbers through the page)', () => {
  it('normalises as typed and counts total / valid / invalid / repeat', () => {
    const box = numberInput('13800138000；12345\n13800138000 ，13012345678');
    expect(box.text).toBe('13800138000,12345,13800138000,13012345678');
    // 有效 counts the distinct valid numbers (what is sent and charged): total = valid + invalid + repeat
    expect(box.check).toMatchObject({ total: 4, valid: 2, invalid: 1, repeat: 1 });
    expect(box.check.unique).toEqual(['13800138000', '13012345678']);
  });
  it('confirm clears the invalid numbers; import appends', () => {
    expect(confirmBox('13800138000,12345,13012345678').text).toBe('13800138000,13012345678');
    expect(appendNumbers('13800138000,', '13700137000,13600136000').text).toBe('13800138000,13700137000,13600136000');
    expect(appendNumbers('', '13700137000').text).toBe('13700137000');
  });
  it('the pool: 号码池不能为空, 号码不能大于60000个', () => {
    expect(poolProblem(numberInput('123').check)).toBe('号码池不能为空');
    const many = Array.from({ length: 60001 }, (_, i) => `138${String(i).padStart(8, '0')}`).join(',');
    expect(poolProblem(numberInput(many).check)).toBe('号码不能大于60000个');
  });
});

describe('record dates', () => {
  it('send records start on the last 90 days', () => {
    const { from, to } = lastDays(90, now);
    expect([from.format('YYYY-MM-DD'), to.format('YYYY-MM-DD')]).toEqual(['2026-08-26', '2026-11-23']);
    expect(rangeOrderProblem('2026-11-02', '2026-11-01')).toBeTruthy();
    expect(rangeOrderProblem('2026-11-01', '2026-11-01')).toBeNull();
  });
  it('uplink: the last three months, a month at most', () => {
    const { from, to } = lastUplinkMonth(now);
    expect(uplinkRangeProblem(from, to, now)).toBeNull();
    expect(uplinkRangeProblem('2026-08-22', '2026-09-01', now)).toBe(SEND_MESSAGES.uplinkRange);
    expect(uplinkRangeProblem('2026-08-23', '2026-09-23', now)).toBeNull();
    expect(uplinkRangeProblem('2026-08-23', '2026-09-24', now)).toBe(SEND_MESSAGES.uplinkSpan);
    expect(uplinkDayDisabled(dayjs('2026-08-22'), now)).toBe(true);
    expect(uplinkDayDisabled(dayjs('2026-11-24'), now)).toBe(true);
    expect(uplinkDayDisabled(dayjs('2026-10-01'), now)).toBe(false);
  });
});

describe('filters: a multi-select of a string parameter goes as a comma list', () => {
  it('stateList', () => {
    expect(schemaFilters(schemas.get('filters/send-record'), { stateList: [6, 0], phone: ' 138 ' })).toEqual({
      stateList: '6,0',
      phone: '138',
    });
    expect(schemaFilters(schemas.get('filters/send-record'), { stateList: [] })).toEqual({});
  });
});

describe('useAutoRefresh: every 10 s, countdown 180 − 2 a tick, stops at 0', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  it('refreshes and counts down, then stops; restart starts over', () => {
    const refresh = vi.fn();
    const { result, unmount } = renderHook(() => useAutoRefresh(refresh));
    expect(result.current.left).toBe(180);
    act(() => void vi.advanceTimersByTime(10_000));
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(result.current.left).toBe(178);
    act(() => void vi.advanceTimersByTime(89 * 10_000));
    expect(refresh).toHaveBeenCalledTimes(90);
    expect(result.current).toMatchObject({ left: 0, running: false });
    act(() => void vi.advanceTimersByTime(60_000));
    expect(refresh).toHaveBeenCalledTimes(90);
    act(() => result.current.restart());
    expect(refresh).toHaveBeenCalledTimes(91);
    expect(result.current.left).toBe(180);
    unmount();
    act(() => void vi.advanceTimersByTime(60_000));
    expect(refresh).toHaveBeenCalledTimes(91);
  });
});
