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
import { DeliverPage, InternationalPage, VariablePage } from '@/custom-pages/send';
import { SendTaskList } from '@/resources/send-tasks';
import { TimedTaskList } from '@/resources/timed-tasks';
import { ReplyList, SendRecordList, SendRecordTabs } from '@/resources/send-records';
import { InternationalPrices, PoolList, ProductBuyPage, PurchasePage, PurchaseRecordList, PurchaseTabs, RebateBillList, SmsBillList } from '@/resources/purchase';
import { PayOrderList } from '@/resources/pay-orders';
import { OwnBill } from '@/resources/bills';
import { InvoiceApply, InvoiceList } from '@/resources/invoices';
import { DailyReportPage, RemainPage, ReportPage } from '@/custom-pages/reports';

const Home = lazy(() => import('@/pages/Home'));

/** Titled groups of the side menu. */
const groups: MenuGroup[] = [
  { key: 'send', label: '短信发送', icon: 'send' },
  { key: 'records', label: '统计查询', icon: 'report' },
  { key: 'customer', label: '客户管理', icon: 'customer' },
  { key: 'template', label: '模板管理', icon: 'template' },
  { key: 'purchase', label: '购买', icon: 'purchase' },
  { key: 'finance', label: '财务管理', icon: 'finance' },
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

  // 消费报表, 日报表, 剩余条数 (custom-pages/reports)
  { name: 'statistics_report_pre', path: '/customer/deliverlayout/customer/report/pre', label: '消费报表', icon: 'report', page: ReportPage, menu: 'records', home: true },
  { name: 'statistics_report_post', path: '/customer/deliverlayout/customer/report/post', label: '消费报表', page: ReportPage },
  { name: 'report_pre', path: '/customer/report/pre', label: '消费报表', page: ReportPage },
  { name: 'report_daily', path: '/customer/report/daily_post', label: '日报表', page: DailyReportPage },
  { name: 'remain', path: '/remain', label: '剩余条数', icon: 'finance', page: RemainPage, home: true, link: '/remain?type=0' },

  // 客户管理 (agents)
  { name: 'service_manager', path: '/customer/selfsevicelayout/manager', label: '子账户管理', page: SubAccountList, access: 'agent', menu: 'customer', home: true },
  { name: 'service_open', path: '/customer/selfsevicelayout/manager/open', label: '自助开户', page: OpenAccount, access: 'selfServiceOpening', menu: 'customer', home: true },
  { name: 'customer_manager', path: '/customer/manager/:id/:tab/*', label: '子账户详情', page: SubAccountDetail, access: 'agent' },
  { name: 'customer_finance', path: '/customer/finance', label: '客户财务', page: FinanceList, access: 'agent', menu: 'customer', home: true },
  { name: 'own_balance', path: '/customer/finance/balance', label: '账户余额', icon: 'finance', page: OwnBalance, access: 'subAccount', menu: true, home: true },

  { name: 'finance_own', path: '/finance/own', label: '自有账单', page: OwnBill, access: 'agent', menu: 'finance', home: true },

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

  // 购买 (issue 12: operation_mode 1)
  {
    name: 'service_purchaselayout',
    path: '/sms/smspurchaselayout',
    label: '购买短信',
    page: PurchaseTabs,
    access: 'packageMode',
    menu: 'purchase',
    home: true,
    link: '/sms/smspurchaselayout/purchase',
    index: 'purchase',
    children: [
      { name: 'service_purchase', path: 'purchase', label: '购买短信', page: PurchasePage },
      { name: 'service_international', path: 'purchase/international', label: '国际短信价格', page: InternationalPrices },
    ],
  },
  { name: 'sms_purchase', path: '/sms/purchase/:id', label: '产品购买', page: ProductBuyPage, access: 'packageMode' },
  { name: 'purchase_pools', path: '/sms/pools', label: '剩余条数', page: PoolList, access: 'packageMode', menu: 'purchase' },
  // 财务 (issue 12; /finance/own, /finance/payorder and invoices join this group)
  { name: 'finance_bill', path: '/finance/bill', label: '短信账单', page: SmsBillList, access: 'packageMode', menu: 'finance' },
  { name: 'finance_rebate', path: '/finance/rebate', label: '返点账单', page: RebateBillList, access: 'packageMode', menu: 'finance' },
  { name: 'finance_record', path: '/finance/record', label: '消费记录', page: PurchaseRecordList, menu: 'finance' },
  // 财务管理: 发票
  { name: 'finance_invoice_add', path: '/finance/invoice/add', label: '发票申请', page: InvoiceApply, menu: 'finance' },
  { name: 'finance_invoice_list', path: '/finance/invoice/add/list', label: '发票记录', page: InvoiceList, menu: 'finance' },

  { name: 'content_test', path: '/content/test', label: '内容检测', icon: 'content', page: ContentTestPage, menu: true },
  { name: 'notice', path: '/notice/notice', label: '公告', icon: 'notice', page: NoticeList, menu: true, home: true },
  { name: 'notice_view', path: '/notice/view', label: '公告详情', icon: 'notice', page: NoticeView },

  // 财务管理
  { name: 'finance_payorder', path: '/finance/payorder', label: '支付订单', page: PayOrderList, access: 'onlineRecharge', menu: 'finance' },

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
