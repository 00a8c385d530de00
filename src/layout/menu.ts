/**
 * The side menu, as data. Each entry names its route, label, icon (see menuIcons.tsx) and an
 * optional visibility rule (src/providers/access.ts); a route's own access rule applies too.
 * Features add their entry here when their screens exist.
 */
import type { MenuEntry } from '@/providers/access';

export const menuEntries: MenuEntry[] = [
  { key: 'index', label: '首页', icon: 'home', route: '/' },
  { key: 'template', label: '模板管理', icon: 'template', children: [{ key: 'template_sms', label: '短信模板', route: '/template/TestReportLayout/intelligent' }] },
];
