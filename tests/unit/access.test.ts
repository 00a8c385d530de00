import { describe, expect, it } from 'vitest';
import { canSee, menuFor, type MenuEntry } from '@/providers/access';
import { menuEntries } from '@/layout/menu';
import { oauthStatusOf } from '@/domain/certification';

const agentMode0 = { userType: '1', operation_mode: '0' } as const;
const agentMode1 = { userType: '1', operation_mode: '1' } as const;
const subAccount = { userType: '2', operation_mode: '1', phone_inout_type: 0 } as const;

/** A menu as features will grow it, to check the rules (the real menu has only what exists). */
const fullMenu: MenuEntry[] = [
  { key: 'index', label: '首页', route: '/' },
  {
    key: 'customer',
    label: '客户管理',
    children: [
      { key: 'service_manager', label: '子账户管理', route: '/customer/selfsevicelayout/manager' },
      { key: 'service_open', label: '自助开户', route: '/customer/selfsevicelayout/manager/open' },
      { key: 'finance', label: '子账户财务', route: '/customer/finance' },
    ],
  },
  {
    key: 'send',
    label: '短信发送',
    children: [
      { key: 'sms_deliver', label: '普通短信', route: '/customer/deliverlayout/deliver' },
      { key: 'internaldeliver', label: '国际短信', route: '/customer/deliverlayout/internaldeliver' },
    ],
  },
  { key: 'own', label: '我的账单', route: '/finance/own', visible: 'subAccount' },
];

const keys = (es: MenuEntry[]): string[] => es.flatMap((e) => [e.key, ...(e.children ? keys(e.children) : [])]);

describe('access rules', () => {
  it('self-service opening only for agents in product-package mode', () => {
    expect(canSee('/customer/selfsevicelayout/manager/open', agentMode1)).toBe(true);
    expect(canSee('/customer/selfsevicelayout/manager/open', agentMode0)).toBe(false);
    expect(canSee('/customer/selfsevicelayout/manager/open', subAccount)).toBe(false);
    expect(canSee('/customer/selfsevicelayout/manager', agentMode0)).toBe(true);
  });

  it('sub-account management is for agents; every account opens unrestricted routes', () => {
    expect(canSee('/customer/manager/b1/info', agentMode0)).toBe(true);
    expect(canSee('/customer/manager/b1/info', subAccount)).toBe(false);
    expect(canSee('/finance/own?x=1', subAccount)).toBe(true);
    expect(canSee('/', null)).toBe(false);
  });

  it('sending by phone_inout_type; agents see both', () => {
    expect(canSee('/customer/deliverlayout/internaldeliver', subAccount)).toBe(false);
    expect(canSee('/customer/deliverlayout/internaldeliver', { ...subAccount, phone_inout_type: 2 })).toBe(true);
    expect(canSee('/customer/deliverlayout/deliver', { ...subAccount, phone_inout_type: 1 })).toBe(false);
    expect(canSee('/customer/deliverlayout/internaldeliver', agentMode0)).toBe(true);
  });

  it('menu for an agent in mode 1', () => {
    expect(keys(menuFor(agentMode1, fullMenu))).toEqual(['index', 'customer', 'service_manager', 'service_open', 'finance', 'send', 'sms_deliver', 'internaldeliver']);
  });

  it('menu for an agent in mode 0: no self-service opening', () => {
    expect(keys(menuFor(agentMode0, fullMenu))).toEqual(['index', 'customer', 'service_manager', 'finance', 'send', 'sms_deliver', 'internaldeliver']);
  });

  it('menu for a sub-account: no customer group, domestic sending only, own bill', () => {
    expect(keys(menuFor(subAccount, fullMenu))).toEqual(['index', 'send', 'sms_deliver', 'own']);
  });

  it('the real menu: home for everyone, each entry only where its route is allowed, nothing without a user', () => {
    const flat = (es: MenuEntry[]): MenuEntry[] => es.flatMap((e) => [e, ...(e.children ? flat(e.children) : [])]);
    for (const u of [agentMode0, agentMode1, subAccount]) {
      const shown = menuFor(u, menuEntries);
      expect(keys(shown)).toEqual(expect.arrayContaining(['index', 'account', 'template', 'template_sms', 'template/SignReport', 'notice', 'help']));
      for (const e of flat(shown)) if (e.route) expect(canSee(e.route, u), `${e.key} for ${JSON.stringify(u)}`).toBe(true);
    }
    // 客户管理 (sub-account area): agents only; 自助开户 only in package mode; sub-accounts see their balance
    expect(keys(menuFor(agentMode1, menuEntries))).toEqual(expect.arrayContaining(['customer', 'service_manager', 'service_open', 'customer_finance']));
    expect(keys(menuFor(agentMode0, menuEntries))).not.toContain('service_open');
    expect(keys(menuFor(subAccount, menuEntries))).not.toContain('customer');
    expect(keys(menuFor(subAccount, menuEntries))).toContain('own_balance');
    expect(menuFor(null, menuEntries)).toEqual([]);
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
