import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fireEvent, userEvent, waitFor, within } from 'storybook/test';
import { body, withApp } from '@/stories/withApp';
import { listStates } from '@/stories/listStates';
import { msw } from '@/stories/mockApi';
import { pathOf } from '@/stories/pageRows';
import SubAccountList, { afterLoginAs } from './SubAccountList';
import { alertRows, confirmTransfer, subAccountHandlers } from './storyMocks';
import { subAccounts } from './data';

const T = { timeout: 10000 };

const meta = {
  title: 'SubAccounts/SubAccountList',
  component: SubAccountList,
  decorators: [withApp],
  parameters: { ...msw(...subAccountHandlers()), app: { path: pathOf('service_manager') } },
} satisfies Meta<typeof SubAccountList>;
export default meta;
type Story = StoryObj<typeof meta>;

type Canvas = ReturnType<typeof within>;
/** account `id`'s row */
const inRow = async (c: Canvas, id: string) => within((await c.findByText(id, {}, T)).closest('tr') as HTMLElement);
/** the dialog that account `id`'s row button `action` opens */
const openRow = async (c: Canvas, id: string, action: string) => {
  await userEvent.click((await inRow(c, id)).getByRole('button', { name: action }));
  return within(await body().findByRole('dialog', {}, T));
};
/** a dialog's or a confirm's 确定 */
const OK = { name: /确\s*定|OK/ };

export const Filled: Story = {
  name: '列表（产品包模式）',
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('苏州好易购电子商务有限公司', {}, T)).toBeInTheDocument();
    await expect(await c.findByText('子账户总数', {}, T)).toBeInTheDocument();
    await expect(c.queryByRole('columnheader', { name: '短信类型' })).toBeNull();
    const frozen = (await inRow(c, 'n4tb8w')).getByText('冻结', { selector: '.ant-tag' });
    await expect(frozen.className).toMatch(/red/);
    await expect((await inRow(c, 'n4tb8w')).getByRole('button', { name: '解冻' })).toBeInTheDocument();
    // postpaid (billed against the main account): no recharge
    await expect((await inRow(c, 'w9hx3p')).queryByRole('button', { name: '充值' })).toBeNull();
    // 未认证 leads to the agent-auth screen (spec 01); 待认证 / 已认证 are tags only
    await expect((await inRow(c, 'u3nd7e')).getByTestId('agent-auth-link')).toHaveAttribute(
      'href',
      '/customer/manager/u3nd7e/info?status=1&type=2',
    );
    await expect((await inRow(c, 'w9hx3p')).queryByTestId('agent-auth-link')).toBeNull();
    await expect(c.getByText('1,200.00 元')).toBeInTheDocument();
    await expect(c.getByRole('button', { name: /导出/ })).toBeInTheDocument();
    await expect(c.getByRole('button', { name: /自助开户/ })).toBeInTheDocument();
  },
};

export const Alerts: Story = {
  name: '子账户提醒：余额不足 / 套餐将到期',
  parameters: msw(...subAccountHandlers({ list: alertRows })),
  play: async ({ canvas: c }) => {
    // below its 余额提醒: a red tag that opens the recharge dialog
    const low = (await inRow(c, 'c7k2mq')).getByTestId('low-balance-tag');
    await expect(low).toHaveTextContent('余额不足');
    await expect((await inRow(c, 'c7k2mq')).queryByTestId('pool-expiring-tag')).toBeNull();
    // a pool about to expire: the date, and a link to 客户财务 to renew
    const expiring = (await inRow(c, 'p5ke2r')).getByTestId('pool-expiring-tag');
    await expect(expiring).toHaveTextContent('套餐将于 2026-12-03 到期');
    await expect(expiring).toHaveAttribute('href', '/customer/finance');
    await expect((await inRow(c, 'p5ke2r')).queryByTestId('low-balance-tag')).toBeNull();
    // no alert: nothing
    await expect((await inRow(c, 'w9hx3p')).queryByTestId('low-balance-tag')).toBeNull();
    await expect((await inRow(c, 'w9hx3p')).queryByTestId('pool-expiring-tag')).toBeNull();
    await userEvent.click(low);
    const dialog = within(await body().findByRole('dialog', {}, T));
    await expect(dialog.getByText('子账户充值')).toBeInTheDocument();
  },
};

export const DirectChargeMode: Story = {
  name: '列表（直充模式：短信类型列）',
  parameters: msw(...subAccountHandlers({ mode: '0' })),
  play: async ({ canvas: c }) => {
    await expect(await c.findByRole('columnheader', { name: '短信类型' }, T)).toBeInTheDocument();
    await expect(await c.findByText('验证码', undefined, T)).toBeInTheDocument(); // rows may arrive after the header
    await expect(c.queryByRole('button', { name: /自助开户/ })).toBeNull();
  },
};

export const Empty: Story = {
  name: '空列表',
  parameters: msw(...subAccountHandlers({ list: [] })),
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(canvasElement.querySelector('.ant-empty')).not.toBeNull(), T);
  },
};

export const Recharge: Story = {
  name: '充值成功',
  play: async ({ canvas: c }) => {
    const dialog = await openRow(c, 'c7k2mq', '充值');
    await expect(dialog.getByText('子账户充值')).toBeInTheDocument();
    await expect(dialog.getByText('48,499.50 元')).toBeInTheDocument();
    await userEvent.type(dialog.getByLabelText('充值金额(元)'), '100');
    await userEvent.click(dialog.getByRole('button', { name: /确\s*定/ }));
    // money moves only after a confirm that names the account and the amount
    await confirmTransfer(/^确认给 .+（c7k2mq）充值 100\.00 元？$/);
    await expect(await body().findByText('充值成功', {}, T)).toBeInTheDocument();
  },
};

export const RechargeCancelled: Story = {
  name: '充值：确认时取消',
  play: async ({ canvas: c }) => {
    const dialog = await openRow(c, 'c7k2mq', '充值');
    await userEvent.type(dialog.getByLabelText('充值金额(元)'), '5000');
    await userEvent.click(dialog.getByRole('button', { name: /确\s*定/ }));
    const question = await body().findByTestId('transfer-confirm', {}, T);
    await expect(question).toHaveTextContent('充值 5,000.00 元？');
    await userEvent.click(
      within(question.closest('.ant-modal') as HTMLElement).getByRole('button', { name: /取\s*消/ }),
    );
    // back to the form with the amount kept, nothing sent
    await expect(dialog.getByLabelText('充值金额(元)')).toHaveValue('5000');
    await expect(body().queryByText('充值成功')).toBeNull();
  },
};

export const RechargeValidation: Story = {
  name: '充值金额校验',
  play: async ({ canvas: c }) => {
    const dialog = await openRow(c, 'c7k2mq', '充值');
    await userEvent.type(dialog.getByLabelText('充值金额(元)'), '1.234');
    await userEvent.click(dialog.getByRole('button', { name: /确\s*定/ }));
    await expect(await dialog.findByText('金额必须为数字,最多保留两位小数', {}, T)).toBeInTheDocument();
    await userEvent.clear(dialog.getByLabelText('充值金额(元)'));
    await userEvent.type(dialog.getByLabelText('充值金额(元)'), '0');
    await userEvent.click(dialog.getByRole('button', { name: /确\s*定/ }));
    await expect(await dialog.findByText('金额必须大于0', {}, T)).toBeInTheDocument();
  },
};

export const InsufficientBalance: Story = {
  name: '余额不足',
  parameters: msw(...subAccountHandlers({ recharge: 'insufficient' })),
  play: async ({ canvas: c }) => {
    const dialog = await openRow(c, 'c7k2mq', '充值');
    await userEvent.type(dialog.getByLabelText('充值金额(元)'), '99999');
    await userEvent.click(dialog.getByRole('button', { name: /确\s*定/ }));
    await confirmTransfer('充值 99,999.00 元？');
    await expect(await dialog.findByText('可用余额不足，当前可用余额 48499.50 元', {}, T)).toBeInTheDocument();
    // a refusal does not lock the form: the amount can be corrected at once
    await expect(dialog.queryByText('3秒内不可重复提交')).toBeNull();
    await expect(dialog.getByRole('button', { name: /确\s*定/ })).toBeEnabled();
  },
};

export const Rollback: Story = {
  name: '回退',
  play: async ({ canvas: c }) => {
    const dialog = await openRow(c, 'c7k2mq', '回退');
    await expect(dialog.getByText('子账户回退')).toBeInTheDocument();
    await userEvent.type(dialog.getByLabelText('回退金额(元)'), '100.00');
    await userEvent.click(dialog.getByRole('button', { name: /确\s*定/ }));
    await confirmTransfer(/^确认从 .+（c7k2mq）回退 100\.00 元？$/);
    await expect(await body().findByText('回退成功', {}, T)).toBeInTheDocument();
  },
};

export const Remark: Story = {
  name: '备注（超长校验）',
  play: async ({ canvas: c }) => {
    const dialog = await openRow(c, 'c7k2mq', '备注');
    const box = dialog.getByRole('textbox');
    await userEvent.clear(box);
    await userEvent.type(box, 'x'.repeat(51));
    await userEvent.click(dialog.getByRole('button', OK));
    await expect(await dialog.findByText('备注最大长度不超过50个字符', {}, T)).toBeInTheDocument();
  },
};

/** the edit dialog (over the 接口信息 dialog): the modal holding the speed field */
const editDialog = async () => {
  // the number input loads on first use: wait until the real one replaces its disabled stand-in
  const speed = await waitFor(() => {
    const el = body().getByLabelText(/速率/);
    if ((el as HTMLInputElement).disabled) throw new Error('the number input is still loading');
    return el;
  }, T);
  return speed.closest('.ant-modal') as HTMLElement;
};

const openInterfaceInfo = (c: Canvas) => openRow(c, 'c7k2mq', '接口信息');
/** 接口信息's dialog and, over it, its 修改接口设置 form */
const openInterfaceEdit = async (c: Canvas) => {
  const dialog = await openInterfaceInfo(c);
  await userEvent.click(await dialog.findByRole('button', { name: '修改接口设置' }, T));
  return { dialog, edit: await editDialog() };
};

export const InterfaceInfo: Story = {
  name: '接口信息',
  play: async ({ canvas: c }) => {
    const dialog = await openInterfaceInfo(c);
    await expect(await dialog.findByText('sms.yunxun.example:2775', {}, T)).toBeInTheDocument();
    // CMPP's door with the account's short login (a clientid over 6 characters has one of its own)
    await expect(dialog.getByText('sms.yunxun.example:7890')).toBeInTheDocument();
    await expect(dialog.getByTestId('cmpp-login')).toHaveTextContent('登录名 cli001');
    // SMGP's door: its ClientID is the same short login
    await expect(dialog.getByText('sms.yunxun.example:8890')).toBeInTheDocument();
    await expect(dialog.getByTestId('smgp-login')).toHaveTextContent('登录名 cli001');
    await expect(dialog.getByText('https://sms.yunxun.example/openapi/v1')).toBeInTheDocument();
    await expect(dialog.getByTestId('interface-password')).toHaveTextContent('********');
    await expect(dialog.getByText('203.0.113.10')).toBeInTheDocument();
    await expect(dialog.getByText('透传状态报告')).toBeInTheDocument();
    // the interface password's reset shows the new one once
    await userEvent.click(dialog.getByRole('button', { name: '重置接口密码' }));
    await userEvent.click(await body().findByRole('button', OK, T));
    await expect(await dialog.findByTestId('interface-password-fresh', {}, T)).toHaveTextContent('Kp7mW2xa');
    // the dialog's own 复制 (antd's copy icons beside each line are labelled 复制 too under zh_CN)
    const copy = dialog.getAllByRole('button', { name: /复\s*制/ }).find((b) => /复\s*制/.test(b.textContent ?? ''));
    await userEvent.click(copy!);
    await expect(await body().findByText(/复制成功|复制失败/, {}, T)).toBeInTheDocument();
  },
};

export const InterfaceInfoSmppOff: Story = {
  name: '接口信息（SMPP、CMPP、SMGP 未开通）',
  parameters: msw(...subAccountHandlers({ smppOff: true })),
  play: async ({ canvas: c }) => {
    const dialog = await openInterfaceInfo(c);
    await expect(await dialog.findByTestId('smpp-off', {}, T)).toHaveTextContent('未开通');
    await expect(dialog.getByTestId('cmpp-off')).toHaveTextContent('未开通');
    await expect(dialog.getByTestId('smgp-off')).toHaveTextContent('未开通');
    await expect(dialog.queryByText(/:2775|:7890|:8890/)).toBeNull();
  },
};

export const InterfaceInfoError: Story = {
  name: '接口信息（读取失败）',
  parameters: msw(...subAccountHandlers({ interfaceInfo: 'error' })),
  play: async ({ canvas: c }) => {
    const dialog = await openInterfaceInfo(c);
    await expect(await dialog.findByTestId('interface-info-error', {}, T)).toHaveTextContent('服务器繁忙，请稍后再试');
    await expect(dialog.getByRole('button', { name: /复\s*制/ })).toBeDisabled();
  },
};

/**
 * Sets a field of the edit form in one change, the input looked up afresh each try: under load a late
 * re-render of the lazily loaded widgets may replace the input (a cleared one "could not be focused")
 * or drop keys typed one by one.
 */
async function setField(edit: HTMLElement, label: RegExp, value: string) {
  await waitFor(async () => {
    const input = within(edit).getByLabelText<HTMLInputElement>(label);
    if (input.value !== value) await fireEvent.change(input, { target: { value } });
    await expect(within(edit).getByLabelText<HTMLInputElement>(label).value).toBe(value);
  }, T);
}

export const InterfaceEdit: Story = {
  name: '修改接口设置',
  play: async ({ canvas: c }) => {
    const { dialog, edit } = await openInterfaceEdit(c);
    // the form's own rules, before any call
    await setField(edit, /最大连接数/, '11');
    await userEvent.click(within(edit).getByRole('button', OK));
    await expect(await within(edit).findByText('最大连接数须为1-10之间的整数', {}, T)).toBeInTheDocument();
    await setField(edit, /最大连接数/, '4');
    await setField(edit, /速率/, '200');
    await setField(edit, /IP白名单/, '198.51.100.0/24');
    await userEvent.click(within(edit).getByRole('button', OK));
    await expect(await body().findByText('接口设置已保存', {}, T)).toBeInTheDocument();
    await waitFor(() => expect(dialog.getByText('198.51.100.0/24')).toBeInTheDocument(), T);
    await expect(dialog.getByText('200')).toBeInTheDocument();
  },
};

export const InterfaceEditUnlimited: Story = {
  name: '修改接口设置：最大连接数留空为不限',
  play: async ({ canvas: c }) => {
    const { dialog, edit } = await openInterfaceEdit(c);
    const nodes = within(edit).getByLabelText(/最大连接数/);
    await expect(within(edit).getByText('1-10，留空为不限')).toBeInTheDocument();
    await userEvent.clear(nodes);
    await userEvent.click(within(edit).getByRole('button', OK));
    await expect(await body().findByText('接口设置已保存', {}, T)).toBeInTheDocument();
    await waitFor(() => expect(dialog.getByText('不限')).toBeInTheDocument(), T);
  },
};

export const InterfaceEditPrivateUrl: Story = {
  name: '修改接口设置：回调地址为内网地址',
  parameters: msw(...subAccountHandlers({ interfaceSave: 'privateUrl' })),
  play: async ({ canvas: c }) => {
    const { edit } = await openInterfaceEdit(c);
    await userEvent.click(within(edit).getByRole('button', OK));
    // why, not 请填写: on the alert and on the field
    await expect(await within(edit).findByTestId('interface-edit-error', {}, T)).toHaveTextContent(
      '状态报告回调地址不能使用内网地址',
    );
  },
};

export const InterfaceEditRefused: Story = {
  name: '修改接口设置（服务器拒绝）',
  parameters: msw(...subAccountHandlers({ interfaceSave: 'refused' })),
  play: async ({ canvas: c }) => {
    const { edit } = await openInterfaceEdit(c);
    await setField(edit, /IP白名单/, '10.0.0.0/4');
    await userEvent.click(within(edit).getByRole('button', OK));
    await expect(await within(edit).findByTestId('interface-edit-error', {}, T)).toHaveTextContent(
      'IP白名单格式不正确：10.0.0.0/4',
    );
  },
};

export const ResetPassword: Story = {
  name: '重置密码',
  play: async ({ canvas: c }) => {
    const dialog = await openRow(c, 'c7k2mq', '重置密码');
    await userEvent.click(await dialog.findByLabelText('直接设置新密码', {}, T));
    await userEvent.type(dialog.getByLabelText('新密码'), 'abc');
    await userEvent.click(dialog.getByRole('button', OK));
    await expect(await dialog.findByText('密码长度为8-12位之间', {}, T)).toBeInTheDocument();
    await expect(dialog.getByText('两次输入密码不一致')).toBeInTheDocument();
    await userEvent.click(dialog.getByLabelText('发送新密码到邮箱'));
    await userEvent.click(dialog.getByRole('button', OK));
    await expect(await body().findByText('发送成功', {}, T)).toBeInTheDocument();
  },
};

export const ResetPasswordMailFails: Story = {
  name: '重置密码：发送失败',
  parameters: msw(...subAccountHandlers({ resetMail: 'fail' })),
  play: async ({ canvas: c }) => {
    const dialog = await openRow(c, 'c7k2mq', '重置密码');
    await userEvent.click(dialog.getByRole('button', OK));
    await expect(await dialog.findByText('发送失败 发送失败，请稍后再试', {}, T)).toBeInTheDocument();
    // the dialog stays open with what was entered
    await expect(dialog.getByLabelText('接收邮箱')).not.toHaveValue('');
  },
};

export const LoginAs: Story = {
  name: '登录子账户',
  play: async ({ canvasElement }) => {
    let reloaded = false;
    afterLoginAs.reload = () => {
      reloaded = true;
    };
    const c = within(canvasElement);
    await userEvent.click((await inRow(c, 'c7k2mq')).getByRole('button', { name: '登录' }));
    await userEvent.click(await body().findByRole('button', OK, T));
    await expect(await body().findByText('登录成功', {}, T)).toBeInTheDocument();
    await waitFor(() => expect(reloaded).toBe(true), T);
  },
};

export const Freeze: Story = {
  name: '冻结',
  play: async ({ canvas: c }) => {
    await userEvent.click((await inRow(c, 'c7k2mq')).getByRole('button', { name: '冻结' }));
    await userEvent.click(await body().findByRole('button', OK, T));
    await expect(await body().findByText('冻结成功', {}, T)).toBeInTheDocument();
  },
};

const states = listStates(subAccounts, subAccountHandlers());
export const Loading: Story = states.loading;
export const LoadError: Story = states.error;
