/**
 * THE SCREENS OF THE CONSOLE, put together from the folders that declare them. Each folder's
 * index.ts (src/resources/<x>/, src/custom-pages/<x>/; the send screens in
 * src/custom-pages/send/screens.ts) exports `screens`: its screen declarations (path, label,
 * access, lazy page, menu place) with the data resources their pages read (list endpoint, entity
 * and filter schema keys). The routes (App.tsx), the side menu and the route guard
 * (layout/ConsoleLayout), the home quick links (pages/Home), Refine's `resources` and the data
 * provider's endpoints (providers/ConsoleRefine) are all read from this table; nothing else
 * declares a screen. The public pages (/login, /register, /forget) are not here: App.tsx routes
 * them outside Refine so /login stays small.
 *
 * This file only concatenates: the folders in menu order (a group sits in the menu where its
 * first screen is), the menu groups, and the home page. Pages never import this file, nor their
 * folder's index.ts (which lazily imports them): they read their screens through useScreen() /
 * useScreenPath(name) of layout/screens.tsx and their data from the folder's data.ts
 * (tests/unit/importBoundaries.test.ts, tests/unit/import-cycles.test.ts).
 *
 * To add a screen, declare it in its folder's index.ts (README, "Adding a list screen"):
 *   export const invoiceListScreen: Screen = { name: 'finance_invoice_list', path: '/finance/invoice/add/list',
 *     label: '发票记录', page: lazy(() => import('./InvoiceList')), menu: 'finance', data: [invoices] };
 *   export const screens: Screen[] = [invoiceApplyScreen, invoiceListScreen];
 * - name: the spec's route name where it gives one (service_manager, sms_deliver ...), else
 *   <area>_<screen>; unique. It is the Refine resource name the guard asks `can` about.
 * - access: a named rule of src/providers/access.ts (add the rule there if none fits; a rule
 *   reading the certification status also goes into CERTIFICATION_RULES). No access: any
 *   logged-in account. Children must also pass their parents' rules.
 * - menu: `true` (top level) or a group key of `groups` below; leave it out for screens reached
 *   by a link only (detail pages, tabs). `link` when the entry should open another path
 *   (a tab layout's first tab); `home: true` for a quick link on the home page.
 * - tabs: a layout page with `children` (relative paths) rendered in its <Outlet/>, and
 *   `index` naming the child its own path redirects to; the layout's tab strip is tabsOf(itself).
 * - data: the DataResources its page lists (name, list endpoint, entity, filter), which the
 *   data provider serves by name.
 * A new folder adds one line below. A refused account gets the 无权访问 page (the page is never
 * mounted), the menu and the quick links show the screen only to accounts its rule allows.
 * tests/unit/access.test.ts checks the table (unique names, groups exist, every rule guards).
 */
import { lazy } from 'react';
import type { MenuGroup, Screen, ScreenTable } from '@/layout/declarations';
import * as send from '@/custom-pages/send/screens';
import * as sendTasks from '@/resources/send-tasks';
import * as timedTasks from '@/resources/timed-tasks';
import * as blacklist from '@/resources/blacklist';
import * as sendRecords from '@/resources/send-records';
import * as reports from '@/custom-pages/reports';
import * as subaccounts from '@/resources/subaccounts';
import * as bills from '@/resources/bills';
import * as templates from '@/resources/templates';
import * as signs from '@/resources/signs';
import * as purchase from '@/resources/purchase';
import * as invoices from '@/resources/invoices';
import * as contentTest from '@/custom-pages/content-test';
import * as notices from '@/resources/notices';
import * as payOrders from '@/resources/pay-orders';
import * as account from '@/custom-pages/account';
import * as help from '@/custom-pages/help';

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

const home: Screen = {
  name: 'index',
  path: '/',
  label: '首页',
  icon: 'home',
  page: lazy(() => import('@/pages/Home')),
  menu: true,
};

/** The folders, in menu order. */
const screens: Screen[] = [
  home,
  ...send.screens, // 短信发送
  ...sendTasks.screens,
  ...timedTasks.screens,
  ...blacklist.screens,
  ...sendRecords.screens, // 统计查询
  ...reports.screens,
  ...subaccounts.screens, // 客户管理 (agents), 账户余额 (sub-accounts)
  ...bills.screens, // 财务管理 (agents' own bill)
  ...templates.screens, // 模板管理
  ...signs.screens,
  ...purchase.screens, // 购买, 财务 (issue 12)
  ...invoices.screens, // 财务管理: 发票
  ...contentTest.screens,
  ...notices.screens,
  ...payOrders.screens, // 财务管理
  ...account.screens, // 账户中心
  ...help.screens, // 帮助中心
];

/** Paths the spec names that open another screen (a layout's parent path, an older name). */
const aliases = [
  ...send.aliases,
  ...timedTasks.aliases,
  ...sendRecords.aliases,
  ...reports.aliases,
  ...subaccounts.aliases,
  ...invoices.aliases,
];

export const consoleScreens: ScreenTable = { screens, groups, aliases, data: [...help.data] };
