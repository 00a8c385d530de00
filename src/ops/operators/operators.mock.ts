/** Story data and MSW handlers of 运营人员 (stories only; the app never imports this). */
import type { HttpHandler } from 'msw';
import { OperatorRole, OperatorStatus, type Operator } from '@/generated/schemas';
import { admin, disabledOperator, operations, reviewer } from '@/stories/opsApi';
import { ok, type Calls } from '@/stories/mockApi';
import { answering, refusedOr, type Refusal } from '@/stories/pageRows';

export const operatorRows: Operator[] = [reviewer, operations, admin, disabledOperator];

/** the secret the mock hands out for a new operator with a second factor */
export const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

export interface OperatorsApiOptions {
  rows?: Operator[];
  /** a call's refusal instead of its success, by path's last part */
  refuse?: Partial<Record<'add' | 'status', Refusal>>;
  /** the JSON body of each call, by path's last part ('list', 'add', 'status') */
  calls?: Calls;
}

export function operatorsApi(o: OperatorsApiOptions = {}): HttpHandler[] {
  const { get, post } = answering(o.calls);
  return [
    get('/operator/operators/list', 'list', () => o.rows ?? operatorRows),
    post('/operator/operators/add', 'add', (b) => {
      if (o.refuse?.add) return refusedOr(o.refuse.add, () => 0);
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
    post('/operator/operators/status', 'status', () => refusedOr(o.refuse?.status, () => ok(null, '状态已更新'))),
  ];
}
