/**
 * THE SCREENS OF THE CONSOLE: one entry per screen. The routes (App.tsx), the side menu and the
 * route guard (layout/ConsoleLayout), the home quick links (pages/Home) and Refine's `resources`
 * (providers/ConsoleRefine) are all read from this table; nothing else declares a screen.
 * The public pages (/login, /register, /forget) are not here: App.tsx routes them outside Refine
 * so /login stays small.
 *
 * To add a screen:
 * 1. Write the page in its folder (src/resources/<x>/ for a Refine resource, src/custom-pages/<x>/
 *    for a flow) and export it lazily from that folder's index.ts:
 *      export const InvoiceList = lazy(() => import('./InvoiceList'));
 *    (lazy keeps each page its own chunk; stories import the page file itself).
 * 2. Add one entry below, where it belongs in the menu order:
 *      { name: 'finance_invoice_list', path: '/finance/invoice/add/list', label: '发票列表',
 *        page: InvoiceList, menu: 'finance', access: 'agent', home: true },
 *    - name: the spec's route name where it gives one (service_manager, sms_deliver ...), else
 *      <area>_<screen>; unique. It is the Refine resource name the guard asks `can` about.
 *    - access: a named rule of src/providers/access.ts (add the rule there if none fits; a rule
 *      reading the certification status also goes into CERTIFICATION_RULES). No access: any
 *      logged-in account. Children must also pass their parents' rules.
 *    - menu: `true` (top level) or a group key of `groups` below; leave it out for screens reached
 *      by a link only (detail pages, tabs). `link` when the entry should open another path
 *      (a tab layout's first tab); `home: true` for a quick link on the home page.
 *    - tabs: a layout page with `children` (relative paths) rendered in its <Outlet/>, and
 *      `index` naming the child its own path redirects to.
 * That is all: a refused account gets the 无权访问 page (the page is never mounted), the menu and
 * the quick links show the screen only to accounts its rule allows. tests/unit/access.test.ts
 * checks the table (unique names, groups exist, every rule guards).
 */
import { lazy } from 'react';
import type { MenuGroup, Screen, ScreenTable } from '@/layout/screens';
import { NoticeList, NoticeView } from '@/resources/notices';
import { SignList } from '@/resources/signs';
import { FinanceList, OpenAccount, OwnBalance, SubAccountDetail, SubAccountList } from '@/resources/subaccounts';
import { GeneralTemplateList, SmartTemplateList, TemplateTabs } from '@/resources/templates';
import { BaseInfoLayout, BaseInfoPage, CertificationPage, PasswordPage, ReCertificationPage, SecurityPage, UserInfoPage } from '@/custom-pages/account';
import { ContentTestPage } from '@/custom-pages/content-test';
import { FaqPage, HelpDocumentPage } from '@/custom-pages/help';
import { DeliverPage } from '@/custom-pages/deliver';
import { InternationalPage, VariablePage } from '@/custom-pages/varintl';
import { SendTaskList } from '@/resources/send-tasks';
import { TimedTaskList } from '@/resources/timed-tasks';
import { ReplyList, SendRecordList, SendRecordTabs } from '@/resources/send-records';

const Home = lazy(() => import('@/pages/Home'));

/** Titled groups of the side menu. */
const groups: MenuGroup[] = [
  { key: 'send', label: '短信发送', icon: 'send' },
  { key: 'records', label: '统计查询', icon: 'report' },
  { key: 'customer', label: '客户管理', icon: 'customer' },
  { key: 'template', label: '模板管理', icon: 'template' },
  { key: 'account', label: '账户中心', icon: 'account' },
  { key: 'help', label: '帮助中心', icon: 'help' },
];

const screens: Screen[] = [
  { name: 'index', path: '/', label: '首页', icon: 'home', page: Home, menu: true },

  // 短信发送
  { name: 'sms_deliver', path: '/customer/deliverlayout/deliver', label: '普通短信发送', page: DeliverPage, access: 'domesticSending', menu: 'send', home: true },
  { name: 'sms_variablesms', path: '/customer/deliverlayout/variablesms', label: '变量短信发送', page: VariablePage, access: 'domesticSending', menu: 'send' },
  { name: 'sms_internaldeliver', path: '/customer/deliverlayout/internaldeliver', label: '国际短信发送', page: InternationalPage, access: 'internationalSending', menu: 'send' },
  { name: 'sms_smstask', path: '/customer/deliverlayout/smstask', label: '发送任务', page: SendTaskList, menu: 'send' },
  { name: 'sms_timingdeliver', path: '/customer/deliverlayout/timingdeliver', label: '定时任务', page: TimedTaskList, menu: 'send' },

  // 统计查询
  {
    name: 'statistics_sendlayout',
    path: '/customer/sendlayout',
    label: '发送记录',
    page: SendRecordTabs,
    menu: 'records',
    home: true,
    link: '/customer/sendlayout/sendrecord',
    index: 'sendrecord',
    children: [
      { name: 'statistics_sendrecord', path: 'sendrecord', label: '发送记录', page: SendRecordList },
      { name: 'statistics_reply', path: 'sendrecord/reply', label: '回复记录', page: ReplyList },
    ],
  },

  // 客户管理 (agents)
  { name: 'service_manager', path: '/customer/selfsevicelayout/manager', label: '子账户管理', page: SubAccountList, access: 'agent', menu: 'customer', home: true },
  { name: 'service_open', path: '/customer/selfsevicelayout/manager/open', label: '自助开户', page: OpenAccount, access: 'selfServiceOpening', menu: 'customer', home: true },
  { name: 'customer_manager', path: '/customer/manager/:id/:tab/*', label: '子账户详情', page: SubAccountDetail, access: 'agent' },
  { name: 'customer_finance', path: '/customer/finance', label: '客户财务', page: FinanceList, access: 'agent', menu: 'customer', home: true },
  { name: 'own_balance', path: '/customer/finance/balance', label: '账户余额', icon: 'finance', page: OwnBalance, access: 'subAccount', menu: true, home: true },

  // 模板管理
  {
    name: 'template_TestReportLayout',
    path: '/template/TestReportLayout',
    label: '短信模板',
    page: TemplateTabs,
    menu: 'template',
    link: '/template/TestReportLayout/intelligent',
    children: [
      { name: 'template_Intelligent', path: 'intelligent', label: '智能模板', page: SmartTemplateList },
      { name: 'template_General', path: 'intelligent/general', label: '通用模板', page: GeneralTemplateList },
    ],
  },
  { name: 'template_intelligent', path: '/template/intelligent', label: '智能模板', page: SmartTemplateList },
  { name: 'template_SignReport', path: '/template/SignReport', label: '签名报备', page: SignList, menu: 'template' },

  { name: 'content_test', path: '/content/test', label: '内容检测', icon: 'content', page: ContentTestPage, menu: true },
  { name: 'notice', path: '/notice/notice', label: '公告', icon: 'notice', page: NoticeList, menu: true, home: true },
  { name: 'notice_view', path: '/notice/view', label: '公告详情', icon: 'notice', page: NoticeView },

  // 账户中心
  { name: 'account_userinfo', path: '/account/userinfo', label: '用户信息', page: UserInfoPage, menu: 'account' },
  {
    name: 'account_info',
    path: '/account/info',
    label: '基本信息',
    page: BaseInfoLayout,
    menu: 'account',
    link: '/account/info/base',
    index: 'base',
    children: [
      { name: 'account_info_base', path: 'base', label: '基本信息', page: BaseInfoPage },
      { name: 'account_info_auth', path: 'base/auth', label: '资质认证', icon: 'certification', page: CertificationPage, home: true },
      { name: 'account_info_auth_re', path: 'base/auth/re', label: '重新认证', page: ReCertificationPage, access: 'reCertification' },
    ],
  },
  { name: 'account_security', path: '/account/security', label: '账户安全', page: SecurityPage, menu: 'account' },
  { name: 'account_security_password', path: '/account/security/password', label: '修改密码', page: PasswordPage },

  // 帮助中心
  { name: 'help_document', path: '/help/document', label: '文档下载', page: HelpDocumentPage, menu: 'help' },
  { name: 'help_faq', path: '/help/faq', label: '常见问题', page: FaqPage, menu: 'help' },
];

export const consoleScreens: ScreenTable = { screens, groups };
