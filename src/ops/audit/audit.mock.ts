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
import { listPageOf, ok } from '@/stories/mockApi';
import { rowOf } from '@/stories/rows';

/** an entry of reviewer1's about no account, without a remark */
const entry = rowOf<AuditEntry>('audit-entry')({ operator: 'reviewer1', clientid: '', remark: '' });
export const auditRows: AuditEntry[] = [
  entry({
    id: 907,
    at: '2026-11-24 10:21:05',
    action: AuditAction.CertificationApprove,
    target: 'certifications',
    targetId: '31',
    clientid: 'newagent',
    before: { state: AuthStatus.Pending, oauth_status: OauthStatus.Pending },
    after: { state: AuthStatus.Certified, remark: '' },
  }),
  entry({
    id: 906,
    at: '2026-11-24 10:18:44',
    action: AuditAction.SignReject,
    target: 'signs',
    targetId: '112',
    clientid: 'client1',
    before: { state: SignState.Pending, cause: '' },
    after: { state: SignState.Rejected, cause: '签名须与企业名称或商标一致' },
    remark: '签名须与企业名称或商标一致',
  }),
  entry({
    id: 905,
    at: '2026-11-24 10:02:13',
    operator: 'operator1',
    action: AuditAction.InvoiceStatus,
    target: 'invoices',
    targetId: '11',
    clientid: 'client1',
    before: { status: InvoiceStatus.Issuing, reason: '', express: '' },
    after: { status: InvoiceStatus.Mailed, reason: '', express: '顺丰速运 SF1098765432' },
  }),
  entry({
    id: 904,
    at: '2026-11-24 09:58:31',
    operator: 'chief.admin',
    action: AuditAction.OperatorAdd,
    target: 'operators',
    targetId: '5',
    after: {
      id: 5,
      name: 'reviewer2',
      role: OperatorRole.Reviewer,
      status: OperatorStatus.Active,
      totpEnabled: false,
      createdAt: '2026-11-24 09:58:31',
    },
  }),
  entry({
    id: 903,
    at: '2026-11-24 08:58:12',
    action: AuditAction.OperatorLogin,
    target: 'operators',
    targetId: '1',
    remark: '10.0.3.17',
  }),
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
      return ok(listPageOf(list, {}));
    }),
  ];
}
