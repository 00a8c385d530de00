/**
 * common/send: the time rules of a timed send that the console's pages and the server's acceptance
 * both call (spec 02 §5, §9): the format, the 5-minute lead, the window (end of next year for an
 * ordinary send, 24 hours for a variable or international one), the picker's days, the default.
 */
import { describe, expect, it } from 'vitest';
import sendForm from '../../../schemas/forms/send.json';
import intlForm from '../../../schemas/forms/send-international.json';
import {
  defaultSendWall,
  parseSendTime,
  parseSendWall,
  sendDays,
  sendTimeError,
  sendTimeWallError,
  SEND_TIME_MESSAGES,
} from '../../../common/send';

const wall = (s: string) => parseSendWall(s);
/** 2026-11-23 10:00:00 in Shanghai = 02:00 UTC */
const now = new Date('2026-11-23T02:00:00Z');
const at = (s: string) => parseSendTime(s)!;

describe('format', () => {
  it('reads YYYY-MM-DD HH:mm[:ss] as Shanghai time', () => {
    expect(parseSendTime('2026-11-23 10:05:00')?.toISOString()).toBe('2026-11-23T02:05:00.000Z');
    expect(parseSendTime('2026-11-23T10:05')?.toISOString()).toBe('2026-11-23T02:05:00.000Z');
    expect(parseSendTime(' 2026-11-23 10:05:07 ')?.toISOString()).toBe('2026-11-23T02:05:07.000Z');
  });
  it('refuses malformed and impossible dates', () => {
    for (const v of [
      '',
      null,
      undefined,
      '2026-11-23',
      '2026/11/23 10:00:00',
      '2026-02-30 10:00:00',
      '2026-11-23 24:00:00',
      '2026-11-23 10:60:00',
      'x',
    ])
      expect(parseSendTime(v)).toBeNull();
    expect(Number.isNaN(parseSendWall('2026-13-01 00:00:00'))).toBe(true);
  });
});

describe('the messages are the forms’', () => {
  it('send.json and send-international.json x-messages', () => {
    expect(SEND_TIME_MESSAGES.tooEarly).toBe(sendForm['x-messages'].sendTimeTooEarly);
    expect(SEND_TIME_MESSAGES.tooLate).toBe(sendForm['x-messages'].sendTimeTooLate);
    expect(SEND_TIME_MESSAGES.tooLateDay).toBe(intlForm['x-messages'].sendTimeTooLate);
  });
});

describe('ordinary send: ≥ 5 minutes ahead, until the end of next year', () => {
  it('on instants (the server)', () => {
    expect(sendTimeError('ordinary', at('2026-11-23 10:04:59'), now)).toBe('定时发送时间必须在当前时间5分钟之后');
    expect(sendTimeError('ordinary', at('2026-11-23 10:05:00'), now)).toBeNull();
    expect(sendTimeError('ordinary', at('2027-12-31 23:59:59'), now)).toBeNull();
    expect(sendTimeError('ordinary', at('2028-01-01 00:00:00'), now)).toBe('定时发送时间不能超过明年年底');
  });
  it('the year is Shanghai’s: 31 Dec 20:00 UTC is already next year there', () => {
    const newYear = new Date('2026-12-31T20:00:00Z'); // 2027-01-01 04:00 in Shanghai
    expect(sendTimeError('ordinary', at('2028-12-31 23:00:00'), newYear)).toBeNull();
  });
  it('on wall clocks (the console); an invalid time is too early', () => {
    const n = wall('2026-11-23 10:00:00');
    expect(sendTimeWallError('ordinary', wall('2026-11-23 10:05:00'), n)).toBeNull();
    expect(sendTimeWallError('ordinary', NaN, n)).toBe(SEND_TIME_MESSAGES.tooEarly);
  });
});

describe('variable and international: ≥ 5 minutes ahead, within 24 hours', () => {
  for (const kind of ['variable', 'international'] as const) {
    it(kind, () => {
      expect(sendTimeError(kind, at('2026-11-23 10:04:00'), now)).toBe(SEND_TIME_MESSAGES.tooEarly);
      expect(sendTimeError(kind, at('2026-11-24 10:00:00'), now)).toBeNull();
      expect(sendTimeError(kind, new Date(at('2026-11-24 10:00:00').getTime() + 1), now)).toBe(
        '定时发送时间须在24小时之内',
      );
    });
  }
});

describe('the picker', () => {
  it('offers today to the end of next year, or today and tomorrow', () => {
    const n = wall('2026-11-23 10:00:00');
    expect(sendDays('ordinary', n)).toEqual({ first: '2026-11-23', last: '2027-12-31' });
    expect(sendDays('international', n)).toEqual({ first: '2026-11-23', last: '2026-11-24' });
  });
  it('starts at now + 30 minutes, seconds dropped', () => {
    expect(new Date(defaultSendWall(wall('2026-11-23 10:00:42'))).toISOString()).toBe('2026-11-23T10:30:00.000Z');
  });
});
