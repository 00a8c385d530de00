import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { T, body, clearCalls, withApp } from '@/stories/withApp';
import { msw } from '@/stories/mockApi';
import { listStates } from '@/stories/listStates';
import {
  clickIn,
  dialogNamed,
  eventually,
  expectColumns,
  fieldOf,
  popconfirmButton,
  type Scope,
  shows,
} from '@/stories/play';
import { operations, opsApi, opsAt, reviewer } from '@/stories/opsApi';
import { enumLabel } from '@/schema';
import { AccountStatus } from '@/generated/schemas';
import { RequireSession } from '@/layout/RequireSession';
import OpsLayout from '../OpsLayout';
import { sessionKind } from '@/providers/sessionKind';
import CustomerList from './CustomerList';
import { accountConsole } from './api';
import { customerApi, LOGIN_AS_TOKEN } from './customers.mock';
import { operatorCustomers } from './data';

const calls: Record<string, Record<string, unknown>[]> = {};
const shell = opsApi({ operator: operations });

const meta = {
  title: 'Ops/客户',
  component: CustomerList,
  decorators: [withApp],
  parameters: { app: opsAt('ops_customers'), ...msw(...customerApi({ calls }), ...shell) },
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof CustomerList>;
export default meta;
type Story = StoryObj<typeof meta>;

/** the story's calls with the server refusing `action` with `code` and `msg` */
const refusing = (action: string, code: number, msg: string) =>
  msw(...customerApi({ calls, refuse: { [action]: { code, msg } } }), ...shell);

/** the account's row (its 账户 cell; an agent's clientid shows in its sub-accounts' 所属代理商 too) */
const rowOf = async (c: Scope, clientid: string) =>
  (await c.findAllByText(clientid, {}, T))
    .map((e: HTMLElement) => e.closest('tr') as HTMLElement)
    .find((tr: HTMLElement) => tr.querySelector('td')?.textContent === clientid)!;
const listCalls = () => calls.list?.length ?? 0;

export const List: Story = {
  name: '列表',
  play: async ({ canvas: c }) => {
    const agent = await rowOf(c, 'a10023');
    await expect(agent).toHaveTextContent('杭州信达网络科技有限公司');
    await expect(agent).toHaveTextContent('12,800.00');
    await expect(agent).toHaveTextContent('已认证');
    // an active agent: 冻结 and 调整额度; no lock, nothing to unlock
    await expect(within(agent).getByRole('button', { name: '冻结' })).toBeInTheDocument();
    await expect(within(agent).getByRole('button', { name: '调整额度' })).toBeInTheDocument();
    await expect(within(agent).queryByRole('button', { name: '解除锁定' })).toBeNull();
    // a locked sub-account: the tag beside its status, 解除锁定; no credit for a sub-account
    const locked = await rowOf(c, 'b20031');
    await expect(within(locked).getByTestId('login-locked')).toHaveTextContent('登录锁定');
    await expect(within(locked).getByRole('button', { name: '解除锁定' })).toBeInTheDocument();
    await expect(within(locked).queryByRole('button', { name: '调整额度' })).toBeNull();
    await expect(locked).toHaveTextContent('a10023');
    // a frozen one: 解冻
    const frozen = await rowOf(c, 'b20002');
    await expect(frozen).toHaveTextContent(enumLabel('account-status', AccountStatus.Frozen)!);
    await expect(within(frozen).getByRole('button', { name: '解冻' })).toBeInTheDocument();
    await expect(within(frozen).queryByRole('button', { name: '冻结' })).toBeNull();
    await expectColumns(c, '账户 用户类型 所属代理商 名称 余额 状态 认证状态 创建时间 操作');
  },
};

export const Filtered: Story = {
  name: '筛选（地址栏）',
  parameters: { app: opsAt('ops_customers', '?userType=2&search=b200') },
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('b20031', {}, T)).toBeInTheDocument();
    await expect(c.queryByText('杭州信达网络科技有限公司')).toBeNull();
    await expect(calls.list?.[0]).toMatchObject({ userType: '2', search: 'b200' });
    // 用户类型 offers the accounts' kinds, never 运营人员
    await userEvent.click(c.getByRole('combobox', { name: '用户类型' }));
    await expect(await body().findByTitle('代理商', {}, T)).toBeInTheDocument();
    await expect(body().queryByTitle('运营人员')).toBeNull();
  },
};

/** A 审核员 at 客户: the route guard's answer, the page never mounted. */
export const Refused: Story = {
  name: '审核员：无权访问',
  parameters: msw(...customerApi({ calls }), ...opsApi({ operator: reviewer })),
  render: () => (
    <RequireSession>
      <OpsLayout menuCollapsed={false} />
    </RequireSession>
  ),
  play: async ({ canvasElement }) => {
    const page = await within(canvasElement).findByTestId('forbidden', {}, T);
    await expect(within(page).getByTestId('forbidden-reason')).toHaveTextContent('此页面仅供运营、管理员使用。');
    await expect(calls.list).toBeUndefined();
  },
};

export const Freeze: Story = {
  name: '冻结（备注）',
  play: async ({ canvas: c }) => {
    await clickIn(rowOf(c, 'a10023'), '冻结');
    const dialog = await dialogNamed('冻结账户 a10023');
    await expect(dialog.getByTestId('freeze-note')).toHaveTextContent('所有登录立即结束');
    await userEvent.type(await fieldOf(dialog, /备注/), '  投诉核查  ');
    const before = listCalls();
    await userEvent.click(dialog.getByRole('button', { name: /冻\s*结/ }));
    await eventually(() => expect(calls.freeze?.[0]).toEqual({ clientid: 'a10023', remark: '投诉核查' }));
    await shows('冻结成功');
    await eventually(() => expect(listCalls()).toBeGreaterThan(before));
  },
};

export const FreezeRefused: Story = {
  name: '冻结被拒绝',
  parameters: refusing('freeze', 409, '只有正常状态的账户可以冻结'),
  play: async ({ canvas: c }) => {
    await clickIn(rowOf(c, 'a10023'), '冻结');
    const dialog = await dialogNamed('冻结账户 a10023');
    await fieldOf(dialog, /备注/);
    const before = listCalls();
    await userEvent.click(dialog.getByRole('button', { name: /冻\s*结/ }));
    await expect(await dialog.findByTestId('customer-refusal', {}, T)).toHaveTextContent('只有正常状态的账户可以冻结');
    await eventually(() => expect(listCalls()).toBeGreaterThan(before));
  },
};

export const Unfreeze: Story = {
  name: '解冻',
  play: async ({ canvas: c }) => {
    await clickIn(rowOf(c, 'b20002'), '解冻');
    const dialog = await dialogNamed('解冻账户 b20002');
    await expect(dialog.queryByTestId('freeze-note')).toBeNull();
    await userEvent.type(await fieldOf(dialog, /备注/), '核查完毕');
    await userEvent.click(dialog.getByRole('button', { name: /解\s*冻/ }));
    await eventually(() => expect(calls.unfreeze?.[0]).toEqual({ clientid: 'b20002', remark: '核查完毕' }));
    await shows('解冻成功');
  },
};

export const UnfreezeRefused: Story = {
  name: '解冻被拒绝',
  parameters: refusing('unfreeze', 409, '只有冻结状态的账户可以解冻'),
  play: async ({ canvas: c }) => {
    await clickIn(rowOf(c, 'b20002'), '解冻');
    const dialog = await dialogNamed('解冻账户 b20002');
    await fieldOf(dialog, /备注/);
    await userEvent.click(dialog.getByRole('button', { name: /解\s*冻/ }));
    await expect(await dialog.findByTestId('customer-refusal', {}, T)).toHaveTextContent('只有冻结状态的账户可以解冻');
  },
};

export const Unlock: Story = {
  name: '解除锁定',
  play: async ({ canvas: c }) => {
    await clickIn(rowOf(c, 'b20031'), '解除锁定');
    await shows('确定解除账户 b20031 的登录锁定吗？');
    const before = listCalls();
    await userEvent.click(await popconfirmButton(/解除锁定/));
    await eventually(() => expect(calls.unlock?.[0]).toEqual({ clientid: 'b20031' }));
    await shows('已解除登录锁定');
    await eventually(() => expect(listCalls()).toBeGreaterThan(before));
  },
};

export const UnlockRefused: Story = {
  name: '解除锁定被拒绝',
  parameters: refusing('unlock', 404, '账户不存在'),
  play: async ({ canvas: c }) => {
    await clickIn(rowOf(c, 'b20031'), '解除锁定');
    const before = listCalls();
    await userEvent.click(await popconfirmButton(/解除锁定/));
    await shows('账户不存在');
    await eventually(() => expect(listCalls()).toBeGreaterThan(before));
  },
};

/** 更多 › 重置密码: asked first, saying where the new password goes; the server's answer names the address. */
export const ResetPassword: Story = {
  name: '重置密码',
  play: async ({ canvas: c }) => {
    await clickIn(rowOf(c, 'a10023'), /更多/);
    await userEvent.click(await body().findByRole('menuitem', { name: '重置密码' }, T));
    await expect(await body().findByTestId('reset-confirm', {}, T)).toHaveTextContent(
      '发送至该账户的邮箱 ops@xinda.example.com',
    );
    await userEvent.click(body().getByRole('button', { name: '重置密码' }));
    await eventually(() => expect(calls['reset-password']?.[0]).toEqual({ clientid: 'a10023' }));
    await shows('新密码已发送至 ops@xinda.example.com');
  },
};

export const ResetPasswordRefused: Story = {
  name: '重置密码被拒绝（没有邮箱）',
  parameters: refusing('reset-password', 400, '该账户没有邮箱，无法发送新密码'),
  play: async ({ canvas: c }) => {
    await clickIn(rowOf(c, 'b20002'), /更多/);
    await userEvent.click(await body().findByRole('menuitem', { name: '重置密码' }, T));
    await expect(await body().findByTestId('reset-confirm', {}, T)).toHaveTextContent(/发送至该账户的邮箱，/);
    const before = listCalls();
    await userEvent.click(body().getByRole('button', { name: '重置密码' }));
    await shows('该账户没有邮箱，无法发送新密码');
    await eventually(() => expect(listCalls()).toBeGreaterThan(before));
  },
};

const openCredit = async (canvasElement: HTMLElement, clientid = 'a10023') => {
  const c = within(canvasElement);
  await clickIn(rowOf(c, clientid), '调整额度');
  return dialogNamed(`调整额度：${clientid}`);
};

/** 确定 of the credit's second question */
const creditConfirmButton = async () =>
  within((await body().findByTestId('credit-confirm')).closest('.ant-modal') as HTMLElement).getByRole('button', {
    name: /确\s*定/,
  });

export const Credit: Story = {
  name: '调整额度（降低，再确认）',
  play: async ({ canvasElement }) => {
    const dialog = await openCredit(canvasElement);
    await expect(dialog.getByRole('table')).toHaveTextContent('12,800.00');
    await userEvent.type(await fieldOf(dialog, /金额/, 'input'), '-200.50');
    await userEvent.type(await fieldOf(dialog, /备注/), '多充退回');
    await userEvent.click(dialog.getByRole('button', { name: /确\s*定/ }));
    // asked once more, naming the agent, the direction and the amount
    await expect(await body().findByTestId('credit-confirm', {}, T)).toHaveTextContent(
      '确定为代理商 a10023 降低额度 200.50 元吗？',
    );
    await userEvent.click(await creditConfirmButton());
    await eventually(() =>
      expect(calls.credit?.[0]).toEqual({ clientid: 'a10023', amount: '-200.50', remark: '多充退回' }),
    );
    await shows('已记账，当前余额 12599.50 元');
  },
};

export const CreditInvalid: Story = {
  name: '调整额度：备注必填、金额格式',
  play: async ({ canvasElement }) => {
    const dialog = await openCredit(canvasElement);
    await userEvent.type(await fieldOf(dialog, /金额/, 'input'), '1.234');
    await userEvent.click(dialog.getByRole('button', { name: /确\s*定/ }));
    await expect(await dialog.findByText('请填写备注', {}, T)).toBeInTheDocument();
    await expect(dialog.getByText('金额须为数字，最多两位小数')).toBeInTheDocument();
    await expect(calls.credit).toBeUndefined();
  },
};

export const CreditRefused: Story = {
  name: '调整额度被拒绝（余额不足）',
  parameters: refusing('credit', 409, '余额不足，当前余额 5.00 元'),
  play: async ({ canvasElement }) => {
    const dialog = await openCredit(canvasElement, 'a10011');
    await userEvent.type(await fieldOf(dialog, /金额/, 'input'), '-100');
    await userEvent.type(await fieldOf(dialog, /备注/), '扣减');
    await userEvent.click(dialog.getByRole('button', { name: /确\s*定/ }));
    await expect(await body().findByTestId('credit-confirm', {}, T)).toHaveTextContent(
      '确定为代理商 a10011 降低额度 100 元吗？',
    );
    const before = listCalls();
    await userEvent.click(await creditConfirmButton());
    await expect(await dialog.findByTestId('credit-refusal', {}, T)).toHaveTextContent('余额不足，当前余额 5.00 元');
    await eventually(() => expect(listCalls()).toBeGreaterThan(before));
  },
};

/** 更多 › 以该账户登录 of a row: its dialog */
const openLoginAs = async (canvasElement: HTMLElement, clientid: string) => {
  const c = within(canvasElement);
  await clickIn(rowOf(c, clientid), /更多/);
  await userEvent.click(await body().findByRole('menuitem', { name: '以该账户登录' }, T));
  return dialogNamed(`以该账户登录：${clientid}`);
};

/** the accounts' console the dialog would open (the story keeps the page) */
const watchConsole = () => {
  const opened = { n: 0 };
  accountConsole.open = () => void opened.n++;
  return opened;
};

export const LoginAs: Story = {
  name: '以该账户登录（原因必填，本浏览器的运营登录随即结束）',
  play: async ({ canvasElement }) => {
    const opened = watchConsole();
    const dialog = await openLoginAs(canvasElement, 'b20031');
    // said before: the account's console in this browser, this operator's login ends
    await expect(dialog.getByTestId('login-as-note')).toHaveTextContent('本浏览器的运营人员登录随即结束');
    await expect(dialog.getByRole('table')).toHaveTextContent('a10023');
    const reason = await fieldOf(dialog, /登录原因/);
    await userEvent.click(dialog.getByRole('button', { name: /登\s*录/ }));
    await expect(await dialog.findByText('请填写登录原因', {}, T)).toBeInTheDocument();
    await expect(calls['login-as']).toBeUndefined();
    await userEvent.type(reason, '客户反馈发送失败，核查其设置');
    await userEvent.click(dialog.getByRole('button', { name: /登\s*录/ }));
    await eventually(() =>
      expect(calls['login-as']?.[0]).toEqual({ clientid: 'b20031', remark: '客户反馈发送失败，核查其设置' }),
    );
    await eventually(() => expect(calls.enter?.[0]).toEqual({ token: LOGIN_AS_TOKEN }));
    await shows('登录成功');
    // the browser's note: an account's session now, so the accounts' console keeps it
    await expect(sessionKind.get()).toBe('account');
    await eventually(() => expect(opened.n).toBe(1));
  },
};

export const LoginAsRefused: Story = {
  name: '以该账户登录被拒绝',
  parameters: refusing('login-as', 500, '账户已冻结，请先解冻'),
  play: async ({ canvasElement }) => {
    const opened = watchConsole();
    const dialog = await openLoginAs(canvasElement, 'a10023');
    await userEvent.type(await fieldOf(dialog, /登录原因/), '核查');
    const before = listCalls();
    await userEvent.click(dialog.getByRole('button', { name: /登\s*录/ }));
    await expect(await dialog.findByTestId('login-as-refusal', {}, T)).toHaveTextContent('账户已冻结，请先解冻');
    await eventually(() => expect(listCalls()).toBeGreaterThan(before));
    await expect(calls.enter).toBeUndefined();
    await expect(sessionKind.get()).not.toBe('account');
    await expect(opened.n).toBe(0);
  },
};

export const LoginAsEnterRefused: Story = {
  name: '以该账户登录：令牌兑换被拒绝',
  parameters: msw(...customerApi({ calls, refuseEnter: { code: 500, msg: '账户状态异常，无法登录' } }), ...shell),
  play: async ({ canvasElement }) => {
    const opened = watchConsole();
    const dialog = await openLoginAs(canvasElement, 'a10023');
    await userEvent.type(await fieldOf(dialog, /登录原因/), '核查');
    await userEvent.click(dialog.getByRole('button', { name: /登\s*录/ }));
    await expect(await dialog.findByTestId('login-as-refusal', {}, T)).toHaveTextContent('账户状态异常，无法登录');
    await expect(sessionKind.get()).not.toBe('account');
    await expect(opened.n).toBe(0);
  },
};

/** a frozen account: 以该账户登录 is offered but disabled (unfreeze first) */
export const LoginAsFrozen: Story = {
  name: '以该账户登录：冻结的账户不可用',
  play: async ({ canvas: c }) => {
    await clickIn(rowOf(c, 'b20002'), /更多/);
    await expect(await body().findByRole('menuitem', { name: '以该账户登录' }, T)).toHaveAttribute(
      'aria-disabled',
      'true',
    );
  },
};

const states = listStates(operatorCustomers, shell);
export const Loading: Story = states.loading;
export const LoadError: Story = states.error;
export const Empty: Story = states.empty;
