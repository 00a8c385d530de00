/**
 * The time rules of a timed send (spec 02 §5 "Scheduled time", §9; docs/api-send.md), kept once for
 * the console's pickers and checks (src/custom-pages/send) and the server's acceptance
 * (server/modules/send, server/modules/variable-international):
 *
 * - the time is written 'YYYY-MM-DD HH:mm:ss' (seconds optional, `T` allowed), Asia/Shanghai;
 * - it is at least 5 minutes ahead (定时发送时间必须在当前时间5分钟之后);
 * - an ordinary send may be set until the end of next year (定时发送时间不能超过明年年底), a variable
 *   or international one within 24 hours (定时发送时间须在24小时之内);
 * - a page starts with now + 30 minutes, seconds dropped; its picker offers today to the last day
 *   the window reaches.
 *
 * Times are compared as Shanghai wall clocks (`businessWallMs` of common/time: the UTC milliseconds
 * of the Shanghai fields), so the rules hold whatever zone the browser or the host runs in. The
 * messages are the forms' (schemas/forms/send.json and send-international.json `x-messages`).
 */
import sendForm from '../../schemas/forms/send.json';
import intlForm from '../../schemas/forms/send-international.json';
import { businessWallMs } from '../time';

/** Which window applies: an ordinary send's (until the end of next year) or a variable / international one's (24 hours). */
export type SendTimeKind = 'ordinary' | 'variable' | 'international';

/** Spec 02 §5, §9 */
export const SEND_TIME_RULES = {
  /** a timed send goes at least this far ahead */
  minLeadMs: 5 * 60_000,
  /** the time a page starts with, ahead of now */
  defaultLeadMs: 30 * 60_000,
  /** the window of a variable or international timed send */
  dayWindowMs: 24 * 3600_000,
} as const;

/** How a send time is written (dayjs tokens), as the API takes and answers it. */
export const SEND_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

export const SEND_TIME_MESSAGES = {
  tooEarly: sendForm['x-messages'].sendTimeTooEarly,
  /** an ordinary send after the end of next year */
  tooLate: sendForm['x-messages'].sendTimeTooLate,
  /** a variable or international send more than 24 hours ahead */
  tooLateDay: intlForm['x-messages'].sendTimeTooLate,
} as const;

const PATTERN = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** 'YYYY-MM-DD HH:mm[:ss]' (Asia/Shanghai) as the Shanghai wall clock's milliseconds, or NaN (a malformed or impossible date). */
export function parseSendWall(v: unknown): number {
  const m = PATTERN.exec(String(v ?? '').trim());
  if (!m) return NaN;
  const [y, mo, d, hh, mi, ss] = m.slice(1).map((x) => Number(x ?? 0));
  const wall = Date.UTC(y, mo - 1, d, hh, mi, ss);
  const back = new Date(wall);
  const same =
    back.getUTCFullYear() === y &&
    back.getUTCMonth() === mo - 1 &&
    back.getUTCDate() === d &&
    back.getUTCHours() === hh &&
    back.getUTCMinutes() === mi &&
    back.getUTCSeconds() === ss;
  return same ? wall : NaN;
}

/** The instant of a Shanghai wall clock (China keeps UTC+8 without daylight saving time since 1991). */
const SHANGHAI_OFFSET_MS = 8 * 3600_000;
export const instantOfWall = (wall: number) => wall - SHANGHAI_OFFSET_MS;

/** 'YYYY-MM-DD HH:mm[:ss]' (Asia/Shanghai) → the instant, or null. */
export function parseSendTime(v: unknown): Date | null {
  const wall = parseSendWall(v);
  return Number.isNaN(wall) ? null : new Date(instantOfWall(wall));
}

/** The first wall time a timed send of `kind` may no longer take (exclusive), from the wall clock now. */
export function sendHorizonWall(kind: SendTimeKind, nowWall: number): number {
  if (kind === 'ordinary') return Date.UTC(new Date(nowWall).getUTCFullYear() + 2, 0, 1);
  return nowWall + SEND_TIME_RULES.dayWindowMs + 1;
}

/** The rule on wall clocks (the console's business times): null when the send may go then, else its message. */
export function sendTimeWallError(kind: SendTimeKind, atWall: number, nowWall: number): string | null {
  if (!Number.isFinite(atWall) || atWall < nowWall + SEND_TIME_RULES.minLeadMs) return SEND_TIME_MESSAGES.tooEarly;
  if (atWall >= sendHorizonWall(kind, nowWall))
    return kind === 'ordinary' ? SEND_TIME_MESSAGES.tooLate : SEND_TIME_MESSAGES.tooLateDay;
  return null;
}

/** The rule on instants (the server's): null when the send may go at `at`, else its message. */
export function sendTimeError(kind: SendTimeKind, at: Date | number, now: Date | number): string | null {
  return sendTimeWallError(kind, businessWallMs(at), businessWallMs(now));
}

const day = (wall: number) => new Date(wall).toISOString().slice(0, 10);

/** The days ('YYYY-MM-DD', Shanghai's) a picker offers: today to the last day the window reaches. */
export function sendDays(kind: SendTimeKind, nowWall: number): { first: string; last: string } {
  return { first: day(nowWall), last: day(sendHorizonWall(kind, nowWall) - 1) };
}

/** The wall time a page starts with: now + 30 minutes, seconds dropped. */
export const defaultSendWall = (nowWall: number) =>
  Math.floor((nowWall + SEND_TIME_RULES.defaultLeadMs) / 60_000) * 60_000;
