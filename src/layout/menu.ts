/**
 * The side menu, as data. Each entry names its route, label, icon (see menuIcons.tsx) and an
 * optional visibility rule (src/providers/access.ts); a route's own access rule applies too.
 * Features add their entry here when their screens exist.
 */
import type { MenuEntry } from '@/providers/access';

export const menuEntries: MenuEntry[] = [
  { key: 'index', label: '首页', icon: 'home', route: '/' },
  {
    key: 'customer',
    label: '客户管理',
    icon: 'customer',
    visible: 'agent',
    children: [
      { key: 'service_manager', label: '子账户管理', route: '/customer/selfsevicelayout/manager' },
      { key: 'service_open', label: '自助开户', route: '/customer/selfsevicelayout/manager/open', visible: 'selfServiceOpening' },
      { key: 'customer_finance', label: '客户财务', route: '/customer/finance' },
    ],
  },
  { key: 'own_balance', label: '账户余额', icon: 'finance', route: '/customer/finance/balance', visible: 'subAccount' },
  {
    key: 'template',
    label: '模板管理',
    icon: 'template',
    children: [
      { key: 'template_sms', label: '短信模板', route: '/template/TestReportLayout/intelligent' },
      { key: 'template/SignReport', label: '签名报备', route: '/template/SignReport', visible: 'everyone' },
    ],
  },
  { key: 'content_test', label: '内容检测', icon: 'content', route: '/content/test' },
  { key: 'notice', label: '公告', icon: 'notice', route: '/notice/notice' },
  {
    key: 'account',
    label: '账户中心',
    icon: 'account',
    children: [
      { key: 'account_userinfo', label: '用户信息', route: '/account/userinfo' },
      { key: 'account_info', label: '基本信息', route: '/account/info/base' },
      { key: 'account_security', label: '账户安全', route: '/account/security' },
    ],
  },
  {
    key: 'help',
    label: '帮助中心',
    icon: 'help',
    children: [
      { key: 'help_document', label: '文档下载', route: '/help/document' },
      { key: 'help_faq', label: '常见问题', route: '/help/faq' },
    ],
  },
];
