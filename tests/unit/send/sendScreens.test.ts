/** The sending screens in the screen table: routes, names, menu entries, the domestic-sending rule. */
import { describe, expect, it } from 'vitest';
import { consoleScreens } from '@/screens';
import { menuFor, quickLinksFor, screenAt, screenByName, type MenuNode } from '@/layout/screens';

const flat = (es: MenuNode[]): MenuNode[] => es.flatMap((e) => [e, ...(e.children ? flat(e.children) : [])]);
const keys = (es: MenuNode[]) => flat(es).map((e) => e.key);
const subAccount = { userType: '2', operation_mode: '0', phone_inout_type: 0 };
const agent = { userType: '1', operation_mode: '1', phone_inout_type: 2 };

describe('sending screens', () => {
  it('routes by the spec names', () => {
    expect(screenAt(consoleScreens, '/customer/deliverlayout/deliver')?.screen.name).toBe('sms_deliver');
    expect(screenAt(consoleScreens, '/customer/deliverlayout/smstask')?.screen.name).toBe('sms_smstask');
    expect(screenAt(consoleScreens, '/customer/deliverlayout/timingdeliver')?.screen.name).toBe('sms_timingdeliver');
    expect(screenAt(consoleScreens, '/customer/sendlayout/sendrecord')?.screen.name).toBe('statistics_sendrecord');
    expect(screenAt(consoleScreens, '/customer/sendlayout/sendrecord/reply')?.screen.name).toBe('statistics_reply');
    // where the send pages send the user (useScreenPath by name)
    const pathOf = (name: string) => screenByName(consoleScreens, name)?.fullPath;
    expect(['sms_deliver', 'sms_smstask', 'sms_timingdeliver'].map(pathOf)).toEqual([
      '/customer/deliverlayout/deliver',
      '/customer/deliverlayout/smstask',
      '/customer/deliverlayout/timingdeliver',
    ]);
    // the links to where signs and templates are applied for
    expect(['template_SignReport', 'template_Intelligent'].map(pathOf)).toEqual([
      '/template/SignReport',
      '/template/TestReportLayout/intelligent',
    ]);
  });
  it('menu entries for the pages built; the send page only for domestic sending (phone_inout_type 0 or 2)', () => {
    for (const u of [agent, subAccount])
      expect(keys(menuFor(consoleScreens, u))).toEqual(
        expect.arrayContaining([
          'send',
          'sms_deliver',
          'sms_smstask',
          'sms_timingdeliver',
          'records',
          'statistics_sendlayout',
        ]),
      );
    const international = keys(menuFor(consoleScreens, { ...subAccount, phone_inout_type: 1 }));
    expect(international).not.toContain('sms_deliver');
    expect(international).toContain('sms_smstask');
    expect(keys(quickLinksFor(consoleScreens, subAccount))).toEqual(
      expect.arrayContaining(['sms_deliver', 'statistics_sendlayout']),
    );
    // spec 02 home: "both send pages" — 普通短信发送 and 国际短信发送, each to the accounts allowed it
    expect(keys(quickLinksFor(consoleScreens, { ...subAccount, phone_inout_type: 2 }))).toEqual(
      expect.arrayContaining(['sms_deliver', 'sms_internaldeliver']),
    );
    expect(keys(quickLinksFor(consoleScreens, { ...subAccount, phone_inout_type: 0 }))).not.toContain(
      'sms_internaldeliver',
    );
  });
});
