/**
 * The side menu, as data. Each entry names its route, label, icon (see menuIcons.tsx) and an
 * optional visibility rule (src/providers/access.ts); a route's own access rule applies too.
 * Features add their entry here when their screens exist.
 */
import type { MenuEntry } from '@/providers/access';

export const menuEntries: MenuEntry[] = [
  { key: 'index', label: '首页', icon: 'home', route: '/' },
  { key: 'customer', label: '客户管理', icon: 'customer', visible: 'agent', children: [{ key: 'service_manager', label: '子账户管理', route: '/customer/selfsevicelayout/manager' }, { key: 'service_open', label: '自助开户', route: '/customer/selfsevicelayout/manager/open', visible: 'selfServiceOpening' }, { key: 'customer_finance', label: '客户财务', route: '/customer/finance' }] },
  { key: 'own_balance', label: '账户余额', icon: 'finance', route: '/customer/finance/balance', visible: 'subAccount' },
];
