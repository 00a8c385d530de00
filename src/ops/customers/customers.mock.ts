/** Story data and MSW handlers of 客户 (stories only; the app never imports this). */
import type { HttpHandler } from 'msw';
import { AccountStatus, OauthStatus, OperationMode, UserType, type OperatorCustomer } from '@/generated/schemas';
import { fail, listPageOf, ok, type Calls } from '@/stories/mockApi';
import { answering, refusedOr, type Refusal } from '@/stories/pageRows';
import { positional, rowOf } from '@/stories/rows';

const customer = positional(
  rowOf<OperatorCustomer>('operator-customer')({
    userType: UserType.SubAccount,
    agent: 'a10023',
    operationMode: OperationMode.Package,
    status: AccountStatus.Active,
    oauthStatus: OauthStatus.Certified,
    locked: false,
  }),
)('clientid', 'name', 'mobile', 'balance', 'createTime');
const agent = { userType: UserType.Agent, agent: '' };
export const customerRows: OperatorCustomer[] = [
  customer('a10023', '杭州信达网络科技有限公司', '13912345678', '12800.00', '2026-10-08 10:22:31', {
    ...agent,
    email: 'ops@xinda.example.com',
  }),
  customer('b20031', '晓明花店', '13712340031', '356.40', '2026-11-02 15:40:09', {
    email: 'chen@huadian.example.com',
    locked: true,
  }),
  customer('b20002', '易购优选', '13612340002', '0.00', '2026-10-21 09:05:44', {
    email: '',
    status: AccountStatus.Frozen,
    oauthStatus: OauthStatus.Pending,
  }),
  customer('a10011', '上海优品电商有限公司', '13512340011', '5.00', '2026-09-14 18:30:00', {
    ...agent,
    email: 'finance@youpin.example.com',
    operationMode: OperationMode.DirectCharge,
    oauthStatus: OauthStatus.Uncertified,
  }),
];

/** a row action's path's last part: freeze, unfreeze, unlock, reset-password, credit, login-as */
export type CustomerAction = 'freeze' | 'unfreeze' | 'unlock' | 'reset-password' | 'credit' | 'login-as';

/** the one-time token the mock's login-as answers (and its enter expects) */
export const LOGIN_AS_TOKEN = 'Zk3mQ9vT2xLp7wRb5nYc8dHs';

export interface CustomerApiOptions {
  rows?: OperatorCustomer[];
  /** an action's refusal ({ code, msg }) instead of its success */
  refuse?: Partial<Record<CustomerAction, Refusal>>;
  /** POST /client/loginAs/enter's refusal instead of 登录成功 */
  refuseEnter?: Refusal;
  /** the JSON body of each call, by the path's last part ('list', 'freeze' …; 'enter': the form of /client/loginAs/enter) */
  calls?: Calls;
}

const SUCCESS: Record<CustomerAction, (b: Record<string, unknown>, row?: OperatorCustomer) => string> = {
  freeze: () => '冻结成功',
  unfreeze: () => '解冻成功',
  unlock: () => '已解除登录锁定',
  'reset-password': (_b, row) => `新密码已发送至 ${row?.email ?? ''}`,
  credit: (b, row) => `已记账，当前余额 ${(Number(row?.balance ?? 0) + Number(b.amount)).toFixed(2)} 元`,
  'login-as': () => '成功',
};

/** an action's answer's data (login-as: the token) */
const DATA: Partial<Record<CustomerAction, (b: Record<string, unknown>) => unknown>> = {
  'login-as': (b) => ({ token: LOGIN_AS_TOKEN, clientid: b.clientid }),
};

/** The customers' list (search / userType / status / oauthStatus / agent / paging as the server reads them) and the row actions. */
export function customerApi(o: CustomerApiOptions = {}): HttpHandler[] {
  const rows = o.rows ?? customerRows;
  const { post } = answering(o.calls);
  const action = (name: CustomerAction) =>
    post(`/operator/customers/${name}`, name, (b) =>
      refusedOr(o.refuse?.[name], () =>
        ok(
          DATA[name]?.(b) ?? null,
          SUCCESS[name](
            b,
            rows.find((r) => r.clientid === b.clientid),
          ),
        ),
      ),
    );
  return [
    post('/operator/customers/list', 'list', (f) => {
      const search = String(f.search ?? '').toLowerCase();
      const matched = rows.filter(
        (r) =>
          (!search || [r.clientid, r.name, r.mobile, r.email].some((v) => (v ?? '').toLowerCase().includes(search))) &&
          (f.userType === undefined || r.userType === f.userType) &&
          (f.status === undefined || r.status === f.status) &&
          (f.oauthStatus === undefined || r.oauthStatus === f.oauthStatus) &&
          (!f.agent || r.agent === f.agent),
      );
      return listPageOf(matched, f);
    }),
    ...(['freeze', 'unfreeze', 'unlock', 'reset-password', 'credit', 'login-as'] as const).map(action),
    post('/client/loginAs/enter', 'enter', (form) =>
      refusedOr(o.refuseEnter, () =>
        form.token === LOGIN_AS_TOKEN ? ok({ clientid: 'b20031' }, '登录成功') : fail(500, '登录凭证无效或已过期'),
      ),
    ),
  ];
}
