/**
 * MSW handlers answering the operator console's session and shell calls (src/ops), for stories and
 * tests: the session check, GET /operator/me, the branding, the 审核 counts. Fixtures here are story
 * data only; the app never imports this file.
 */
import { delay, http, type HttpHandler } from 'msw';
import { OperatorRole, OperatorStatus, type Operator, type ReviewCounts } from '@/generated/schemas';
import { opsScreens } from '@/ops/screens';
import { opsAuthProvider } from '@/ops/authProvider';
import { branding, fail, ok, sessionTimeout } from './mockApi';
import { pathOf } from './pageRows';

export const reviewer: Operator = {
  id: 1,
  name: 'reviewer1',
  role: OperatorRole.Reviewer,
  status: OperatorStatus.Active,
  totpEnabled: false,
  createdAt: '2026-03-01 09:00:00',
  lastLoginAt: '2026-11-24 08:58:12',
};
export const operations: Operator = {
  ...reviewer,
  id: 2,
  name: 'operator1',
  role: OperatorRole.Operations,
  lastLoginAt: '2026-11-23 17:40:05',
};
export const admin: Operator = {
  ...reviewer,
  id: 3,
  name: 'chief.admin',
  role: OperatorRole.Admin,
  totpEnabled: true,
  lastLoginAt: '2026-11-24 09:15:40',
};
export const disabledOperator: Operator = {
  ...reviewer,
  id: 4,
  name: 'former.staff',
  status: OperatorStatus.Disabled,
  lastLoginAt: '2026-06-30 18:02:11',
};

export const reviewCounts: ReviewCounts = { certifications: 3, signs: 2, templates: 4, invoices: 1 };

export interface OpsApiOptions {
  /** the operator of the session; null = no session */
  operator?: Operator | null;
  /** GET /operator/review/counts: the answer, 'error', or 'loading' */
  counts?: ReviewCounts | 'error' | 'loading';
}

/** Handlers for everything the operator shell calls. Later handlers in a story's list win over these. */
export function opsApi(opts: OpsApiOptions = {}): HttpHandler[] {
  const operator = opts.operator === undefined ? reviewer : opts.operator;
  const guarded = (answer: () => Response | Promise<Response>) => () => (operator ? answer() : sessionTimeout());
  return [
    http.get('/api/login/timeout', () => ok(!!operator)),
    http.post('/api/logout', () => ok(null, '退出成功')),
    http.get(
      '/api/operator/me',
      guarded(() => ok(operator)),
    ),
    http.get('/api/loginInfo', () => ok(branding)),
    // an operator's session is never an account's
    http.get('/api/admin/info', () => sessionTimeout()),
    http.get(
      '/api/operator/review/counts',
      guarded(async () => {
        if (opts.counts === 'error') return fail(500, '服务器繁忙，请稍后再试');
        if (opts.counts === 'loading') await delay('infinite');
        return ok(opts.counts && typeof opts.counts === 'object' ? opts.counts : reviewCounts);
      }),
    ),
  ];
}

/** withApp's parameters for a screen of the operator console: its table and auth provider, at `path`. */
export const opsApp = (path: string) => ({ path, screens: opsScreens, authProvider: opsAuthProvider });

/** withApp's parameters at the operator console's screen `name` (its path from the screen table), then `search` */
export const opsAt = (name: string, search = '') => opsApp(pathOf(name, search, opsScreens));
