/** Story data and MSW handlers of 运营人员 (stories only; the app never imports this). */
import { delay, http, type HttpHandler } from 'msw';
import type { Operator } from '@/generated/schemas';
import { admin, disabledOperator, operations, reviewer } from '@/stories/opsApi';
import { fail, ok } from '@/stories/mockApi';

export const operatorRows: Operator[] = [reviewer, operations, admin, disabledOperator];

export function operatorsApi(o: { rows?: Operator[]; list?: 'loading' | 'error' } = {}): HttpHandler[] {
  return [
    http.get('/api/operator/operators/list', async () => {
      if (o.list === 'loading') await delay('infinite');
      if (o.list === 'error') return fail(500, '服务器繁忙，请稍后再试');
      return ok(o.rows ?? operatorRows);
    }),
  ];
}
