import { describe, expect, it } from 'vitest';
import { createAccessControlProvider, refusalOf, rules, type AccessUser } from '@/providers/access';
import { opsScreens } from '@/ops/screens';
import { enumLabel } from '@/schema';
import {
  menuFor,
  quickLinksFor,
  refineResources,
  rulesOf,
  screenAt,
  screenEntries,
  type MenuNode,
  type ScreenTable,
} from '@/layout/screens';
import { consoleScreens } from '@/screens';
import { oauthStatusOf } from '@/domain/certification';

const agentMode0 = { userType: '1', operation_mode: '0' } as const;
const agentMode1 = { userType: '1', operation_mode: '1' } as const;
const subAccount = { userType: '2', operation_mode: '1', phone_inout_type: 0 } as const;

const Page = () => null;

/** A table as features will grow it, to check the menu rules (the real table has only what exists). */
const grown: ScreenTable = {
  groups: [
    { key: 'customer', label: '客户管理' },
    { key: 'send', label: '短信发送' },
  ],
  screens: [
    { name: 'index', path: '/', label: '首页', page: Page, menu: true },
    {
      name: 'service_manager',
      path: '/customer/selfsevicelayout/manager',
      label: '子账户管理',
      page: Page,
      access: 'agent',
      menu: 'customer',
    },
    {
      name: 'service_open',
      path: '/customer/selfsevicelayout/manager/open',
      label: '自助开户',
      page: Page,
      access: 'selfServiceOpening',
      menu: 'customer',
    },
    {
      name: 'customer_finance',
      path: '/customer/finance',
      label: '客户财务',
      page: Page,
      access: 'agent',
      menu: 'customer',
      home: true,
    },
    {
      name: 'sms_deliver',
      path: '/customer/deliverlayout/deliver',
      label: '普通短信',
      page: Page,
      access: 'domesticSending',
      menu: 'send',
      home: true,
    },
    {
      name: 'internaldeliver',
      path: '/customer/deliverlayout/internaldeliver',
      label: '国际短信',
      page: Page,
      access: 'internationalSending',
      menu: 'send',
    },
    { name: 'finance_own', path: '/finance/own', label: '我的账单', page: Page, access: 'subAccount', menu: true },
  ],
};

const keys = (es: MenuNode[]): string[] => es.flatMap((e) => [e.key, ...(e.children ? keys(e.children) : [])]);
const allowed = (table: ScreenTable, path: string, user: AccessUser) => {
  const entry = screenAt(table, path)!;
  return rulesOf(table, entry.screen.name)!.every((r) => rules[r](user));
};

describe('access rules', () => {
  it('self-service opening only for agents in product-package mode', () => {
    expect(rules.selfServiceOpening(agentMode1)).toBe(true);
    expect(rules.selfServiceOpening(agentMode0)).toBe(false);
    expect(rules.selfServiceOpening(subAccount)).toBe(false);
  });

  it('sending by phone_inout_type; agents see both', () => {
    expect(rules.internationalSending(subAccount)).toBe(false);
    expect(rules.internationalSending({ ...subAccount, phone_inout_type: 2 })).toBe(true);
    expect(rules.domesticSending({ ...subAccount, phone_inout_type: 1 })).toBe(false);
    expect(rules.domesticSending({ ...subAccount, phone_inout_type: undefined })).toBe(true);
    expect(rules.internationalSending(agentMode0)).toBe(true);
  });

  it('re-certification only after a refused certification, in either encoding', () => {
    expect(rules.reCertification({ ...agentMode0, oauth_status: 4 })).toBe(true);
    expect(rules.reCertification({ ...agentMode0, oauth_status: '认证不通过' })).toBe(true);
    for (const s of [1, 2, 3, '未认证', '待认证', undefined])
      expect(rules.reCertification({ ...agentMode0, oauth_status: s })).toBe(false);
  });
});

describe('the screen table', () => {
  it('matches locations to screens: the most specific route, children with their parents, Not Found for the rest', () => {
    expect(screenAt(consoleScreens, '/customer/finance/balance')?.screen.name).toBe('own_balance');
    expect(screenAt(consoleScreens, '/customer/finance')?.screen.name).toBe('customer_finance');
    // the certification tab is spec 01's named route customer_manager_auth (issue 41 item 12)
    expect(screenAt(consoleScreens, '/customer/manager/b1/auth/re')?.screen.name).toBe('customer_manager_auth');
    expect(screenAt(consoleScreens, '/customer/manager/b1/info')?.screen.name).toBe('customer_manager');
    expect(screenAt(consoleScreens, '/account/info/base/auth/re')?.chain.map((s) => s.name)).toEqual([
      'account_info',
      'account_info_auth_re',
    ]);
    expect(screenAt(consoleScreens, '/account/info')?.screen.name).toBe('account_info');
    expect(screenAt(consoleScreens, '/template/TestReportLayout/intelligent/general')?.screen.name).toBe(
      'template_General',
    );
    expect(screenAt(consoleScreens, '/no/such/page')).toBeUndefined();
  });

  it('each rule a screen names exists; names are unique; every menu group is declared', () => {
    const entries = screenEntries(consoleScreens);
    expect(new Set(entries.map((e) => e.screen.name)).size).toBe(entries.length);
    for (const e of entries) if (e.screen.access) expect(rules).toHaveProperty(e.screen.access);
    for (const u of [agentMode0, agentMode1, subAccount]) expect(() => menuFor(consoleScreens, u)).not.toThrow();
    const twice: ScreenTable = { groups: [], screens: [grown.screens[0], { ...grown.screens[0], path: '/x' }] };
    expect(() => screenEntries(twice)).toThrow('screen name declared twice: index');
  });

  it('a child must pass its parent rule too', () => {
    const t: ScreenTable = {
      groups: [],
      screens: [
        {
          name: 'p',
          path: '/p',
          label: 'P',
          page: Page,
          access: 'agent',
          children: [{ name: 'c', path: 'c', label: 'C', page: Page, access: 'reCertification' }],
        },
      ],
    };
    expect(rulesOf(t, 'c')).toEqual(['agent', 'reCertification']);
    expect(allowed(t, '/p/c', { ...subAccount, oauth_status: 4 })).toBe(false);
    expect(allowed(t, '/p/c', { ...agentMode0, oauth_status: 4 })).toBe(true);
    expect(rulesOf(t, 'nothing')).toBeUndefined();
  });

  it('menu for an agent in mode 1, in mode 0 (no self-service opening), for a sub-account (no customer group)', () => {
    expect(keys(menuFor(grown, agentMode1))).toEqual([
      'index',
      'customer',
      'service_manager',
      'service_open',
      'customer_finance',
      'send',
      'sms_deliver',
      'internaldeliver',
    ]);
    expect(keys(menuFor(grown, agentMode0))).toEqual([
      'index',
      'customer',
      'service_manager',
      'customer_finance',
      'send',
      'sms_deliver',
      'internaldeliver',
    ]);
    expect(keys(menuFor(grown, subAccount))).toEqual(['index', 'send', 'sms_deliver', 'finance_own']);
    expect(keys(menuFor(grown, { ...subAccount, phone_inout_type: 1 }))).toEqual([
      'index',
      'send',
      'internaldeliver',
      'finance_own',
    ]);
    expect(menuFor(grown, null)).toEqual([]);
  });

  it('quick links by the same rules', () => {
    expect(keys(quickLinksFor(grown, agentMode0))).toEqual(['customer_finance', 'sms_deliver']);
    expect(keys(quickLinksFor(grown, { ...subAccount, phone_inout_type: 1 }))).toEqual([]);
  });

  it('the real menu: home for everyone, each entry only where its rules allow, nothing without a user', () => {
    const flat = (es: MenuNode[]): MenuNode[] => es.flatMap((e) => [e, ...(e.children ? flat(e.children) : [])]);
    for (const u of [agentMode0, agentMode1, subAccount]) {
      const shown = menuFor(consoleScreens, u);
      expect(keys(shown)).toEqual(
        expect.arrayContaining([
          'index',
          'account',
          'template',
          'template_TestReportLayout',
          'template_SignReport',
          'notice',
          'help',
        ]),
      );
      for (const e of flat(shown))
        if (e.link) expect(allowed(consoleScreens, e.link, u), `${e.key} for ${JSON.stringify(u)}`).toBe(true);
    }
    expect(keys(menuFor(consoleScreens, agentMode1))).toEqual(
      expect.arrayContaining(['customer', 'service_manager', 'service_open', 'customer_finance']),
    );
    expect(keys(menuFor(consoleScreens, agentMode0))).not.toContain('service_open');
    expect(keys(menuFor(consoleScreens, subAccount))).not.toContain('customer');
    expect(keys(menuFor(consoleScreens, subAccount))).toContain('own_balance');
    expect(keys(menuFor(consoleScreens, agentMode1))).not.toContain('own_balance');
    expect(menuFor(consoleScreens, null)).toEqual([]);
  });

  it("feeds Refine's resources: every screen and group, list path, label, parent", () => {
    const res = refineResources(consoleScreens, () => null);
    expect(res.find((r) => r.name === 'service_open')).toMatchObject({
      list: '/customer/selfsevicelayout/manager/open',
      meta: { label: '自助开户', parent: 'customer' },
    });
    expect(res.find((r) => r.name === 'account_info_auth_re')).toMatchObject({
      list: '/account/info/base/auth/re',
      meta: { parent: 'account_info' },
    });
    expect(res.find((r) => r.name === 'customer_manager')).toMatchObject({ list: '/customer/manager/:id/:tab' });
    expect(res.find((r) => r.name === 'customer')).toMatchObject({ meta: { label: '客户管理' } });
    expect(res).toHaveLength(screenEntries(consoleScreens).length + consoleScreens.groups.length);
  });
});

describe('accessControlProvider', () => {
  const provider = (user: AccessUser | null, seen: boolean[] = []) =>
    createAccessControlProvider({
      rulesOf: (r) => rulesOf(consoleScreens, r),
      loadUser: async ({ certification }) => {
        seen.push(certification);
        return user;
      },
    });

  it('answers by the screen rules; resources that are no screen are not restricted here', async () => {
    expect(await provider(subAccount).can({ resource: 'customer_finance', action: 'list' })).toEqual({
      can: false,
      reason: '无权访问',
    });
    expect(await provider(agentMode0).can({ resource: 'customer_finance', action: 'list' })).toEqual({ can: true });
    expect(await provider(agentMode0).can({ resource: 'service_open', action: 'list' })).toMatchObject({ can: false });
    expect(await provider(null).can({ resource: 'service_manager', action: 'list' })).toMatchObject({ can: false });
    expect(await provider(subAccount).can({ resource: 'signs', action: 'delete' })).toEqual({ can: true });
  });

  it('asks for the certification status only for a rule that reads it', async () => {
    const seen: boolean[] = [];
    await provider({ ...agentMode0, oauth_status: 3 }, seen).can({ resource: 'customer_finance', action: 'list' });
    expect(
      await provider({ ...agentMode0, oauth_status: 3 }, seen).can({
        resource: 'account_info_auth_re',
        action: 'list',
      }),
    ).toMatchObject({ can: false });
    expect(seen).toEqual([false, true]);
    // a screen for every account: answered without loading the user (the session is checked first)
    expect(await provider(null, seen).can({ resource: 'notice', action: 'list' })).toEqual({ can: true });
    expect(seen).toEqual([false, true]);
  });
});

describe('the operator console (src/ops/screens.tsx): rules by role', () => {
  const op = (role: number) => ({ userType: '3', role }) as const;

  it('operator: every role; operatorAudit: 运营 and 管理员; operatorAdmin: 管理员; never an account', () => {
    expect([1, 2, 3].map((r) => rules.operator(op(r)))).toEqual([true, true, true]);
    expect([1, 2, 3].map((r) => rules.operatorAudit(op(r)))).toEqual([false, true, true]);
    expect([1, 2, 3].map((r) => rules.operatorAdmin(op(r)))).toEqual([false, false, true]);
    for (const u of [agentMode0, agentMode1, subAccount])
      expect([rules.operator(u), rules.operatorAudit(u), rules.operatorAdmin(u)]).toEqual([false, false, false]);
  });

  it('the menu by role, the refusals name the roles', () => {
    expect(keys(menuFor(opsScreens, op(1)))).toEqual([
      'ops_home',
      'review',
      'ops_review_certifications',
      'ops_review_signs',
      'ops_review_templates',
      'ops_review_invoices',
    ]);
    expect(keys(menuFor(opsScreens, op(2)))).toEqual([
      ...keys(menuFor(opsScreens, op(1))),
      'ops_customers',
      'content',
      'ops_content_words',
      'ops_content_notices',
      'ops_monitor',
      'ops_archives',
      'ops_audit',
    ]);
    // a 管理员 also has 通道 (after 客户) and 运营人员 (last)
    const ops = keys(menuFor(opsScreens, op(2)));
    expect(keys(menuFor(opsScreens, op(3)))).toEqual([
      ...ops.slice(0, ops.indexOf('ops_customers') + 1),
      'ops_channels',
      ...ops.slice(ops.indexOf('ops_customers') + 1),
      'ops_operators',
    ]);
    expect(
      menuFor(opsScreens, op(1))
        .find((g) => g.key === 'review')
        ?.children?.map((c) => c.badge),
    ).toEqual(['certifications', 'signs', 'templates', 'invoices']);
    const label = (r: number) => enumLabel('operator-role', r)!;
    expect(refusalOf(['operatorAudit'], op(1), label).reason).toBe('此页面仅供运营、管理员使用。');
    expect(refusalOf(['operatorAdmin'], op(2), label).reason).toBe('此页面仅供管理员使用。');
  });

  it('names unique, groups declared, every rule exists, home /ops', () => {
    const entries = screenEntries(opsScreens);
    expect(new Set(entries.map((e) => e.screen.name)).size).toBe(entries.length);
    for (const e of entries) expect(rules).toHaveProperty(e.screen.access!);
    expect(entries.every((e) => e.fullPath.startsWith('/ops'))).toBe(true);
    expect(opsScreens.home).toBe('/ops');
    // no screen name of the operators' is one of the accounts'
    const accounts = new Set(screenEntries(consoleScreens).map((e) => e.screen.name));
    expect(entries.filter((e) => accounts.has(e.screen.name))).toEqual([]);
  });
});

describe('oauth_status', () => {
  it('words and numbers', () => {
    expect(oauthStatusOf('未认证')).toBe(1);
    expect(oauthStatusOf('待认证')).toBe(2);
    expect(oauthStatusOf(3)).toBe(3);
    expect(oauthStatusOf('4')).toBe(4);
    expect(oauthStatusOf(1)).toBe(1);
    expect(oauthStatusOf(undefined)).toBeUndefined();
    expect(oauthStatusOf('x')).toBeUndefined();
  });
});
