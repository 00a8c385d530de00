/** Story data and MSW handlers of 运营人员 (stories only; the app never imports this). */
import { http, type HttpHandler } from 'msw';
import { OperatorRole, OperatorStatus, type Operator } from '@/generated/schemas';
import { admin, disabledOperator, operations, reviewer } from '@/stories/opsApi';
import { fail, ok } from '@/stories/mockApi';

export const operatorRows: Operator[] = [reviewer, operations, admin, disabledOperator];

/** the secret the mock hands out for a new operator with a second factor */
export const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

export interface OperatorsApiOptions {
  rows?: Operator[];
  /** a call's refusal instead of its success, by path's last part */
  refuse?: Partial<Record<'add' | 'status', { code: number; msg: string }>>;
  /** the JSON body of each call, by path's last part ('list', 'add', 'status') */
  calls?: Record<string, Record<string, unknown>[]>;
}

export function operatorsApi(o: OperatorsApiOptions = {}): HttpHandler[] {
  const log = (name: string, body: Record<string, unknown>) => o.calls && (o.calls[name] ??= []).push(body);
  return [
    http.get('/api/operator/operators/list', async () => {
      log('list', {});
      return ok(o.rows ?? operatorRows);
    }),
    http.post('/api/operator/operators/add', async ({ request }) => {
      const b = (await request.json()) as Record<string, unknown>;
      log('add', b);
      if (o.refuse?.add) return fail(o.refuse.add.code, o.refuse.add.msg);
      const totp = b.totp ?? b.role === OperatorRole.Admin;
      const operator: Operator = {
        id: 9,
        name: String(b.name),
        role: b.role as OperatorRole,
        status: OperatorStatus.Active,
        totpEnabled: !!totp,
        createdAt: '2026-11-24 10:00:00',
        lastLoginAt: '',
      };
      const uri = `otpauth://totp/${encodeURIComponent('云讯短信平台')}:${operator.name}?issuer=${encodeURIComponent('云讯短信平台')}&secret=${TOTP_SECRET}&algorithm=SHA1&digits=6&period=30`;
      return ok({ operator, ...(totp ? { totpSecret: TOTP_SECRET, totpUri: uri } : {}) }, '新增成功');
    }),
    http.post('/api/operator/operators/status', async ({ request }) => {
      const b = (await request.json()) as Record<string, unknown>;
      log('status', b);
      if (o.refuse?.status) return fail(o.refuse.status.code, o.refuse.status.msg);
      return ok(null, '状态已更新');
    }),
  ];
}
