import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { T, body, clearCalls, withApp } from '@/stories/withApp';
import { msw } from '@/stories/mockApi';
import { listStates } from '@/stories/listStates';
import { columns, dialogNamed, eventually, fieldOf, popconfirmButton, rowWith, shows } from '@/stories/play';
import { admin, opsApi, opsAt } from '@/stories/opsApi';
import { enumLabel } from '@/schema';
import { passwordDigest } from '@/lib/password';
import { OperatorRole, OperatorStatus } from '@/generated/schemas';
import OperatorList from './OperatorList';
import { operatorsApi, TOTP_SECRET } from './operators.mock';
import { operators } from './data';

const shell = opsApi({ operator: admin });
const calls: Record<string, Record<string, unknown>[]> = {};

const meta = {
  title: 'Ops/运营人员',
  component: OperatorList,
  decorators: [withApp],
  parameters: { app: opsAt('ops_operators'), ...msw(...operatorsApi({ calls }), ...shell) },
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof OperatorList>;
export default meta;
type Story = StoryObj<typeof meta>;

const listCalls = () => calls.list?.length ?? 0;

export const List: Story = {
  name: '列表',
  play: async ({ canvas: c }) => {
    const row = await rowWith(c, 'chief.admin');
    await expect(row).toHaveTextContent(enumLabel('operator-role', OperatorRole.Admin)!);
    await expect(row).toHaveTextContent('已开启');
    await expect(c.getByText('reviewer1').closest('tr')).toHaveTextContent('未开启');
    const former = c.getByText('former.staff').closest('tr') as HTMLElement;
    await expect(former).toHaveTextContent(enumLabel('operator-status', OperatorStatus.Disabled)!);
    // an active operator may be disabled, a disabled one enabled
    await expect(within(row).getByRole('button', { name: /停\s*用/ })).toBeInTheDocument();
    await expect(within(former).getByRole('button', { name: /启\s*用/ })).toBeInTheDocument();
    await expect(columns(c)).toEqual(['登录名', '角色', '状态', '动态验证码', '最近登录', '创建时间', '操作']);
    await expect(c.getByRole('button', { name: /新增运营人员/ })).toBeInTheDocument();
  },
};

/** 新增运营人员: its dialog, once its forms' code has loaded */
const openAdd = async (canvasElement: HTMLElement) => {
  const c = within(canvasElement);
  await c.findByText('chief.admin', {}, T);
  await userEvent.click(c.getByRole('button', { name: /新增运营人员/ }));
  const dialog = await dialogNamed('新增运营人员');
  await fieldOf(dialog, /^登录名/, 'input');
  await fieldOf(dialog, /^确认密码/, 'input');
  // the role's radios (their code loads with the form: a text box holds the place until then)
  await waitFor(() => dialog.getByRole('radio', { name: enumLabel('operator-role', OperatorRole.Reviewer)! }), T);
  return dialog;
};
const fill = async (dialog: ReturnType<typeof within>, name: string, password: string, confirm = password) => {
  await userEvent.type(dialog.getByLabelText(/^登录名/, { selector: 'input' }), name);
  await userEvent.type(dialog.getByLabelText(/^密码/, { selector: 'input' }), password);
  await userEvent.type(dialog.getByLabelText(/^确认密码/, { selector: 'input' }), confirm);
};

export const Add: Story = {
  name: '新增审核员（无动态验证码）',
  play: async ({ canvasElement }) => {
    const dialog = await openAdd(canvasElement);
    await expect(dialog.getByRole('radio', { name: enumLabel('operator-role', OperatorRole.Reviewer)! })).toBeChecked();
    await expect(dialog.getByRole('checkbox', { name: /动态验证码/ })).not.toBeChecked();
    await fill(dialog, '  new.reviewer ', 'Passw0rd!');
    const before = listCalls();
    await userEvent.click(dialog.getByRole('button', { name: /新\s*增/ }));
    // the password leaves the browser as its SHA-256 digest only; the name trimmed
    await waitFor(
      () =>
        expect(calls.add?.[0]).toEqual({
          name: 'new.reviewer',
          password: passwordDigest('Passw0rd!'),
          role: OperatorRole.Reviewer,
          totp: false,
        }),
      T,
    );
    const result = within(await body().findByTestId('operator-added', {}, T));
    await expect(result.getByText('新增成功')).toBeInTheDocument();
    await expect(result.getByRole('table')).toHaveTextContent('new.reviewer');
    await expect(result.getByRole('table')).toHaveTextContent('未开启');
    await expect(result.queryByTestId('totp-secret')).toBeNull();
    await eventually(() => expect(listCalls()).toBeGreaterThan(before));
    await userEvent.click(body().getByRole('button', { name: /^关\s*闭$/ }));
    await eventually(() => expect(body().queryByRole('dialog', { name: '新增运营人员' })).toBeNull());
  },
};

export const AddAdmin: Story = {
  name: '新增管理员：动态验证码密钥只显示一次（二维码）',
  play: async ({ canvasElement }) => {
    const dialog = await openAdd(canvasElement);
    await userEvent.click(dialog.getByRole('radio', { name: enumLabel('operator-role', OperatorRole.Admin)! }));
    // on by default for a 管理员
    await eventually(() => expect(dialog.getByRole('checkbox', { name: /动态验证码/ })).toBeChecked());
    await fill(dialog, 'second.admin', 'Admin12345');
    await userEvent.click(dialog.getByRole('button', { name: /新\s*增/ }));
    await eventually(() =>
      expect(calls.add?.[0]).toMatchObject({ name: 'second.admin', role: OperatorRole.Admin, totp: true }),
    );
    const result = within(await body().findByTestId('operator-added', {}, T));
    await expect(result.getByText('动态验证码密钥只显示这一次')).toBeInTheDocument();
    await expect(result.getByRole('table')).toHaveTextContent('已开启');
    await expect(result.getByTestId('totp-secret')).toHaveTextContent(TOTP_SECRET);
    await expect(result.getByTestId('totp-uri')).toHaveTextContent(/^otpauth:\/\/totp\//);
    await eventually(() => expect(result.getByTestId('totp-qrcode').querySelector('canvas')).not.toBeNull());
    await expect(body().getByRole('button', { name: '我已保存，关闭' })).toBeInTheDocument();
  },
};

export const AddInvalid: Story = {
  name: '新增：登录名与密码的规则',
  play: async ({ canvasElement }) => {
    const dialog = await openAdd(canvasElement);
    await fill(dialog, 'a1234567', 'short', 'other');
    await userEvent.click(dialog.getByRole('button', { name: /新\s*增/ }));
    await expect(
      await dialog.findByText('登录名须以字母开头，7-32位字母、数字、下划线、点或横线（不能是 a 加数字）', {}, T),
    ).toBeInTheDocument();
    await expect(dialog.getByText('密码至少8位')).toBeInTheDocument();
    await expect(dialog.getByText('两次输入密码不一致')).toBeInTheDocument();
    await expect(calls.add).toBeUndefined();
  },
};

export const AddRefused: Story = {
  name: '新增被拒绝（登录名已被使用）',
  parameters: msw(...operatorsApi({ calls, refuse: { add: { code: 400, msg: '登录名已被使用' } } }), ...shell),
  play: async ({ canvasElement }) => {
    const dialog = await openAdd(canvasElement);
    await fill(dialog, 'reviewer1', 'Passw0rd!');
    await userEvent.click(dialog.getByRole('button', { name: /新\s*增/ }));
    await expect(await dialog.findByTestId('operator-add-refusal', {}, T)).toHaveTextContent('登录名已被使用');
    await expect(body().queryByTestId('operator-added')).toBeNull();
  },
};

export const Disable: Story = {
  name: '停用',
  play: async ({ canvas: c }) => {
    await userEvent.click(within(await rowWith(c, 'operator1')).getByRole('button', { name: /停\s*用/ }));
    await shows('确定停用 operator1 吗？其登录立即结束，且不能再登录。');
    const before = listCalls();
    await userEvent.click(await popconfirmButton(/停\s*用/));
    await eventually(() => expect(calls.status?.[0]).toEqual({ id: 2, status: OperatorStatus.Disabled }));
    await shows('状态已更新');
    await eventually(() => expect(listCalls()).toBeGreaterThan(before));
  },
};

export const Enable: Story = {
  name: '启用',
  play: async ({ canvas: c }) => {
    await userEvent.click(within(await rowWith(c, 'former.staff')).getByRole('button', { name: /启\s*用/ }));
    await userEvent.click(await popconfirmButton(/启\s*用/));
    await eventually(() => expect(calls.status?.[0]).toEqual({ id: 4, status: OperatorStatus.Active }));
    await shows('状态已更新');
  },
};

/** one's own row: the server refuses, its message is shown */
export const DisableSelfRefused: Story = {
  name: '停用自己：被拒绝',
  parameters: msw(...operatorsApi({ calls, refuse: { status: { code: 400, msg: '不能停用自己' } } }), ...shell),
  play: async ({ canvas: c }) => {
    await userEvent.click(within(await rowWith(c, 'chief.admin')).getByRole('button', { name: /停\s*用/ }));
    const before = listCalls();
    await userEvent.click(await popconfirmButton(/停\s*用/));
    await eventually(() => expect(calls.status?.[0]).toEqual({ id: 3, status: OperatorStatus.Disabled }));
    await shows('不能停用自己');
    await eventually(() => expect(listCalls()).toBeGreaterThan(before));
  },
};

const states = listStates(operators, shell);
export const Loading: Story = states.loading;
export const LoadError: Story = states.error;
export const Empty: Story = states.empty;
