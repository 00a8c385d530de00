/**
 * MSW handlers answering the console's session and shell calls, for stories and tests.
 * Fixtures here are story data only; the app never imports this file.
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import type { AgentBaseInfo, Branding, CurrentUser, SupportContact } from '@/generated/schemas';

export const ok = <T>(data: T, msg = '成功') => HttpResponse.json({ code: 0, msg, data });
export const fail = (code: number, msg: string) => HttpResponse.json({ code, msg });
/** a `{list, totalCount, currentPage, pageRowCount, totalPage}` page of `list` for the request's currentPage / pageRowCount (15) */
export const listPageOf = <T>(list: T[], f: Record<string, unknown>) => {
  const size = Number(f.pageRowCount ?? 15);
  const current = Number(f.currentPage ?? 1);
  return {
    list: list.slice((current - 1) * size, current * size),
    totalCount: list.length,
    currentPage: current,
    pageRowCount: size,
    totalPage: Math.max(1, Math.ceil(list.length / size)),
  };
};
/** a request's parameters: its JSON body, else its form (a GET's empty body gives {}) */
export const paramsOf = async (request: Request): Promise<Record<string, any>> => {
  const text = await request.text();
  if ((request.headers.get('content-type') ?? '').includes('json')) return JSON.parse(text || '{}');
  return Object.fromEntries(new URLSearchParams(text));
};
/** a story's record of each call's parameters, by name */
export type Calls = Record<string, Record<string, any>[]>;
/** a story's parameters answering its calls with `handlers` (MSW takes the first that matches) */
export const msw = (...handlers: HttpHandler[]) => ({ msw: { handlers } });
/** an .xlsx download named `name` (a few bytes: the console only saves it) */
export const xlsxReply = (name: string) =>
  new HttpResponse(new Uint8Array([0x50, 0x4b, 3, 4]), {
    headers: {
      'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
    },
  });
/** what the server answers when the session is gone: code 401 and the timeout header */
export const sessionTimeout = () =>
  HttpResponse.json({ code: 401, msg: '登录超时' }, { status: 401, headers: { 'x-session-timeout': '1' } });

export const agentPackageMode: CurrentUser = {
  userType: '1',
  clientid: 'a10001',
  operation_mode: '1',
  name: '深圳市云讯通信有限公司',
  realname: '王磊',
  email: 'wanglei@yunxun.example',
  mobile: '13800138000',
  oauth_status: 3,
  status: 1,
  phone_inout_type: 2,
};

export const agentDirectChargeMode: CurrentUser = {
  ...agentPackageMode,
  clientid: 'a10002',
  operation_mode: '0',
  name: '杭州信达网络科技有限公司',
};

export const subAccount: CurrentUser = {
  userType: '2',
  clientid: 'b20001',
  agent_id: 'a10001',
  operation_mode: '0',
  name: '上海优品电商有限公司',
  realname: '李娜',
  oauth_status: 3,
  status: 1,
  phone_inout_type: 0,
  paytype: 0,
};

export const branding: Branding = {
  company_name: '云讯短信平台',
  copyright_text: 'Copyright © 2026 深圳市云讯通信有限公司 版权所有',
  icp_text: '粤ICP备2026000001号',
};

export const supportContacts: SupportContact[] = [
  { name: '售前咨询', qq: '800012345', mobile: '13900001111', email: 'sales@yunxun.example' },
  { name: '技术支持', qq: '800067890', mobile: '13900002222', email: 'support@yunxun.example' },
];

export interface ConsoleApiOptions {
  /** the logged-in user; null = no session */
  user?: CurrentUser | null;
  /** GET /admin/baseinfo (agents) */
  baseInfo?: Partial<AgentBaseInfo>;
  /** GET /client/oauth (sub-accounts) */
  clientOauth?: { oauth_status: string | number; oauth_remark?: string };
  branding?: Branding;
  support?: SupportContact[];
}

/** Handlers for everything the shell calls. Later handlers in a story's list win over these. */
export function consoleApi(opts: ConsoleApiOptions = {}): HttpHandler[] {
  const user = opts.user === undefined ? agentPackageMode : opts.user;
  const guarded = (answer: () => Response) => () => (user ? answer() : sessionTimeout());
  return [
    http.get('/api/login/timeout', () => ok(!!user)),
    http.post('/api/logout', () => ok(null, '退出成功')),
    http.get(
      '/api/admin/info',
      guarded(() => ok(user)),
    ),
    http.get('/api/loginInfo', () => ok(opts.branding ?? branding)),
    http.get('/api/supportInfo', () => ok(opts.support ?? supportContacts)),
    http.get(
      '/api/admin/baseinfo',
      guarded(() =>
        ok({
          agent_id: user?.clientid,
          agent_name: user?.name,
          oauth_status: 3,
          mobile: user?.mobile,
          address: '深圳市南山区科技园',
          ...opts.baseInfo,
        }),
      ),
    ),
    http.get(
      '/api/client/oauth',
      guarded(() => ok(opts.clientOauth ?? { oauth_status: 3 })),
    ),
    // an account's session is never an operator's (providers/sessionKind.ts asks once)
    http.get('/api/operator/me', () => sessionTimeout()),
    http.get(
      '/api/agent/notice',
      guarded(() => ok([])),
    ),
  ];
}
