/**
 * The side menu, as data. Each entry names its route, label, icon (see menuIcons.tsx) and an
 * optional visibility rule (src/providers/access.ts); a route's own access rule applies too.
 * Features add their entry here when their screens exist.
 */
import type { MenuEntry } from '@/providers/access';

export const menuEntries: MenuEntry[] = [
  { key: 'index', label: '首页', icon: 'home', route: '/' },
  { key: 'account', label: '账户中心', icon: 'account', children: [{ key: 'account_userinfo', label: '用户信息', route: '/account/userinfo' }, { key: 'account_info', label: '基本信息', route: '/account/info/base' }, { key: 'account_security', label: '账户安全', route: '/account/security' }] },
];
