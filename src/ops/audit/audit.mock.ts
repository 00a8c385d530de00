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
import { positional, rowOf } from '@/stories/rows';

/** an entry of reviewer1's about no account, without a remark */
const entry = rowOf<AuditEntry>('audit-entry')({ operator: 'reviewer1', clientid: '', remark: '' });
/** an entry: its id, time, action, target (a resource and its id) and account */
const logged = positional(entry)('id', 'at', 'action', 'target', 'targetId', 'clientid');
const {
  CertificationApprove,
  SignReject,
  InvoiceStatus: InvoiceStatusChange,
  OperatorAdd,
  OperatorLogin,
} = AuditAction;
export const auditRows: AuditEntry[] = [
  logged(907, '2026-11-24 10:21:05', CertificationApprove, 'certifications', '31', 'newagent', {
    before: { state: AuthStatus.Pending, oauth_status: OauthStatus.Pending },
    after: { state: AuthStatus.Certified, remark: '' },
  }),
  logged(906, '2026-11-24 10:18:44', SignReject, 'signs', '112', 'client1', {
    before: { state: SignState.Pending, cause: '' },
    after: { state: SignState.Rejected, cause: '签名须与企业名称或商标一致' },
    remark: '签名须与企业名称或商标一致',
  }),
  logged(905, '2026-11-24 10:02:13', InvoiceStatusChange, 'invoices', '11', 'client1', {
    operator: 'operator1',
    before: { status: InvoiceStatus.Issuing, reason: '', express: '' },
    after: { status: InvoiceStatus.Mailed, reason: '', express: '顺丰速运 SF1098765432' },
  }),
  logged(904, '2026-11-24 09:58:31', OperatorAdd, 'operators', '5', undefined, {
    operator: 'chief.admin',
    after: {
      id: 5,
      name: 'reviewer2',
      role: OperatorRole.Reviewer,
      status: OperatorStatus.Active,
      totpEnabled: false,
      createdAt: '2026-11-24 09:58:31',
    },
  }),
  logged(903, '2026-11-24 08:58:12', OperatorLogin, 'operators', '1', undefined, { remark: '10.0.3.17' }),
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
