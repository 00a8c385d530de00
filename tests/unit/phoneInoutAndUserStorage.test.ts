/**
 * Issue 26 item 10: 收发范围 (phone_inout_type) as spec 01 §3 describes it — the stored 0 / 1 / 2
 * and the normalisation of a raw bit mask (bit 8 international, bits 1, 2, 4 domestic, both groups
 * 2) — and the browser storage of the signed-in user's mobile number and agent id (spec 01 §7),
 * never the password.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { http as mock, HttpResponse } from 'msw';
import { allowsDomestic, allowsInternational, phoneInoutTypeOf, phoneInoutTypeOfMask } from '../../common/send';
import { PhoneInoutType } from '@/generated/schemas';
import { rules as access } from '@/providers/access';
import { authProvider } from '@/providers/authProvider';
import { userStorage } from '@/providers/userStorage';
import { server, useMswServer } from './msw';

describe('phone_inout_type', () => {
  it('normalises a raw bit mask as the spec says', () => {
    expect(phoneInoutTypeOfMask(8)).toBe(PhoneInoutType.International);
    for (const m of [1, 2, 4, 1 | 2, 2 | 4, 1 | 2 | 4]) expect(phoneInoutTypeOfMask(m)).toBe(PhoneInoutType.Domestic);
    for (const m of [8 | 1, 8 | 2, 8 | 4, 15]) expect(phoneInoutTypeOfMask(m)).toBe(PhoneInoutType.Both);
    expect(phoneInoutTypeOfMask(0)).toBe(PhoneInoutType.Domestic);
  });

  it('domestic sending needs 0 or 2, international 1 or 2 (stored values, numbers or strings)', () => {
    expect([0, 1, 2, '0', '1', '2', undefined].map(allowsDomestic)).toEqual([
      true,
      false,
      true,
      true,
      false,
      true,
      true,
    ]);
    expect([0, 1, 2, '0', '1', '2', undefined].map(allowsInternational)).toEqual([
      false,
      true,
      true,
      false,
      true,
      true,
      false,
    ]);
  });

  it('a value other than 0 / 1 / 2 is read as a raw bit mask wherever the range is read (issue 41 item 12)', () => {
    expect([0, 1, 2, '2', 8, 9, 3, 12, 15, '8', undefined, '', -1, 'x'].map(phoneInoutTypeOf)).toEqual([
      0, 1, 2, 2, 1, 2, 0, 2, 2, 1, 0, 0, 0, 0,
    ]);
    // an imported account with the raw mask 8 sends international only, 9 both, 4 domestic only
    expect([8, 9, 4].map(allowsInternational)).toEqual([true, true, false]);
    expect([8, 9, 4].map(allowsDomestic)).toEqual([false, true, true]);
    expect(access.domesticSending({ userType: '2', phone_inout_type: 8 } as never)).toBe(false);
    expect(access.internationalSending({ userType: '2', phone_inout_type: 12 } as never)).toBe(true);
  });

  it('the console menus follow it for sub-accounts; agents see both', () => {
    const sub = (phone_inout_type: number) => ({ userType: '2', phone_inout_type }) as never;
    expect(access.domesticSending(sub(1))).toBe(false);
    expect(access.internationalSending(sub(1))).toBe(true);
    expect(access.domesticSending(sub(2)) && access.internationalSending(sub(2))).toBe(true);
    expect(access.internationalSending(sub(0))).toBe(false);
    expect(access.internationalSending({ userType: '1', phone_inout_type: 0 } as never)).toBe(true);
  });
});

describe('browser storage of the signed-in user', () => {
  useMswServer();
  afterEach(() => localStorage.clear());

  it('keeps the mobile number and agent id when the user is read, never the password, and forgets them at logout', async () => {
    server.use(
      mock.get('/api/admin/info', () =>
        HttpResponse.json({
          code: 0,
          data: {
            userType: 2,
            clientid: 'client1',
            mobile: '13800000001',
            agent_id: 'agent1',
            password: 'secret-should-not-be-kept',
          },
        }),
      ),
      mock.post('/api/logout', () => HttpResponse.json({ code: 0, msg: 'ok' })),
    );
    await authProvider.getIdentity!();
    expect(userStorage.get()).toEqual({ mobile: '13800000001', agentId: 'agent1' });
    const everything = Object.keys(localStorage)
      .map((k) => localStorage.getItem(k))
      .join('\n');
    expect(everything).not.toContain('secret-should-not-be-kept');
    await authProvider.logout({});
    expect(userStorage.get()).toBeNull();
  });
});

describe('business-date-time filters', () => {
  it('a filter property of format business-date-time (filters/pay-order) is sent as YYYY-MM-DD HH:mm:ss', async () => {
    const { formatDateValue } = await import('../../common/schema/filters');
    const picked = { format: (p: string) => `formatted as ${p}` };
    expect(formatDateValue(picked, 'business-date-time')).toBe('formatted as YYYY-MM-DD HH:mm:ss');
    expect(formatDateValue(new Date('2026-11-27T02:00:00Z'), 'business-date-time')).toBe('2026-11-27 10:00:00');
  });
});
