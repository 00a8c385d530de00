/** Story data and MSW handlers of 审计日志 (stories only; the app never imports this). */
import { http, type HttpHandler } from 'msw';
import {
  AuditAction,
  AuthStatus,
  InvoiceStatus,
  OauthStatus,
  OperatorRole,
  OperatorStatus,
  SignState,
  type AuditEntry,
} from '@/generated/schemas';
import { ok } from '@/stories/mockApi';

export const auditRows: AuditEntry[] = [
  {
    id: 907,
    at: '2026-11-24 10:21:05',
    operator: 'reviewer1',
    action: AuditAction.CertificationApprove,
    target: 'certifications',
    targetId: '31',
    clientid: 'newagent',
    before: { state: AuthStatus.Pending, oauth_status: OauthStatus.Pending },
    after: { state: AuthStatus.Certified, remark: '' },
    remark: '',
  },
  {
    id: 906,
    at: '2026-11-24 10:18:44',
    operator: 'reviewer1',
    action: AuditAction.SignReject,
    target: 'signs',
    targetId: '112',
    clientid: 'client1',
    before: { state: SignState.Pending, cause: '' },
    after: { state: SignState.Rejected, cause: '签名须与企业名称或商标一致' },
    remark: '签名须与企业名称或商标一致',
  },
  {
    id: 905,
    at: '2026-11-24 10:02:13',
    operator: 'operator1',
    action: AuditAction.InvoiceStatus,
    target: 'invoices',
    targetId: '11',
    clientid: 'client1',
    before: { status: InvoiceStatus.Issuing, reason: '', express: '' },
    after: { status: InvoiceStatus.Mailed, reason: '', express: '顺丰速运 SF1098765432' },
    remark: '',
  },
  {
    id: 904,
    at: '2026-11-24 09:58:31',
    operator: 'chief.admin',
    action: AuditAction.OperatorAdd,
    target: 'operators',
    targetId: '5',
    clientid: '',
    after: {
      id: 5,
      name: 'reviewer2',
      role: OperatorRole.Reviewer,
      status: OperatorStatus.Active,
      totpEnabled: false,
      createdAt: '2026-11-24 09:58:31',
    },
    remark: '',
  },
  {
    id: 903,
    at: '2026-11-24 08:58:12',
    operator: 'reviewer1',
    action: AuditAction.OperatorLogin,
    target: 'operators',
    targetId: '1',
    clientid: '',
    remark: '10.0.3.17',
  },
];

export interface AuditApiOptions {
  rows?: AuditEntry[];
  calls?: Record<string, unknown>[];
}

export function auditApi(o: AuditApiOptions = {}): HttpHandler[] {
  const rows = o.rows ?? auditRows;
  return [
    http.post('/api/operator/audit/list', async ({ request }) => {
      const f = (await request.json()) as Record<string, string | number>;
      o.calls?.push(f);
      const list = rows.filter(
        (r) =>
          (!f.operator || r.operator === f.operator) &&
          (!f.action || r.action === f.action) &&
          (!f.clientid || r.clientid === f.clientid),
      );
      return ok({ list, totalCount: list.length, currentPage: 1, pageRowCount: 15, totalPage: 1 });
    }),
  ];
}
