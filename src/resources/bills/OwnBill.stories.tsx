import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { body, withApp } from '@/stories/withApp';
import { msw } from '@/stories/mockApi';
import { pathOf } from '@/stories/pageRows';
import { listStates, NO_EXPORT_DATA, refusedExport } from '@/stories/listStates';
import OwnBill from './OwnBill';
import { alarmOff, ownBillHandlers } from './storyMocks';
import { ownBill } from './data';

const T = { timeout: 15000 };
const OK = /确\s*定|OK/;

const meta = {
  title: 'Finance/OwnBill',
  component: OwnBill,
  decorators: [withApp],
  parameters: { ...msw(...ownBillHandlers()), app: { path: pathOf('finance_own') } },
} satisfies Meta<typeof OwnBill>;
export default meta;
type Story = StoryObj<typeof meta>;

const openAlarm = async (c: ReturnType<typeof within>) => {
  const button = await c.findByRole('button', { name: /额度提醒/ }, T);
  await waitFor(() => expect(button).toBeEnabled(), T);
  await userEvent.click(button);
  return within(await body().findByRole('dialog', {}, T));
};

/** types into the dialog's field and submits: the form's message for that value */
async function tryValue(dialog: ReturnType<typeof within>, label: string, value: string, message: string) {
  const input = dialog.getByLabelText(label);
  await userEvent.clear(input);
  if (value) await userEvent.type(input, value);
  await userEvent.click(dialog.getByRole('button', { name: OK }));
  await expect(await dialog.findByText(message, {}, T)).toBeInTheDocument();
}

export const Rows: Story = {
  name: '账单明细',
  play: async ({ canvas: c }) => {
    await expect((await c.findAllByText('P202611250001', {}, T)).length).toBe(2);
    await expect(c.getAllByText('48,499.50 元').length).toBeGreaterThanOrEqual(2);
    await expect(c.getByText('在线充值')).toBeInTheDocument();
    await expect(c.getByText('-1,200.00 元')).toBeInTheDocument();
    await expect(c.getByTestId('credit-alarm-summary')).toHaveTextContent('13800138000,13900139000');
  },
};

export const Empty: Story = {
  name: '空账单',
  parameters: msw(...ownBillHandlers({ bill: [], credit: [], alarm: alarmOff })),
  play: async ({ canvas: c }) => {
    await expect((await c.findAllByText('暂无数据', {}, T)).length).toBeGreaterThan(0);
    await expect(c.queryByText('在线充值')).toBeNull();
    await expect(await c.findByTestId('credit-alarm-summary', {}, T)).toHaveTextContent('未设置');
  },
};

export const Loading: Story = listStates(ownBill, ownBillHandlers()).loading;

export const ExportEmpty: Story = {
  name: '导出：没有数据',
  play: refusedExport(NO_EXPORT_DATA),
};

export const CreditHistory: Story = {
  name: '额度记录',
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByRole('tab', { name: '额度记录' }, T));
    await expect(await c.findByText('降低额度', {}, T)).toBeInTheDocument();
    await expect(c.getByText('至今')).toBeInTheDocument();
    await expect(c.getByText('-300.00 元')).toBeInTheDocument();
  },
};

export const AlarmAmountMessages: Story = {
  name: '额度提醒：提醒额度的提示',
  play: async ({ canvasElement }) => {
    const d = await openAlarm(within(canvasElement));
    await tryValue(d, '提醒额度(元)', '', '提醒额度为大于0的整数，且不能为空');
    await tryValue(d, '提醒额度(元)', '12.5', '提醒额度为大于0的整数，且不能为空');
    await tryValue(d, '提醒额度(元)', '1000001', '提醒额度不能大于100万');
  },
};

export const AlarmPhoneMessages: Story = {
  name: '额度提醒：手机号的提示',
  play: async ({ canvasElement }) => {
    const d = await openAlarm(within(canvasElement));
    await tryValue(d, '提醒手机号', '1380013800', '手机号码格式不正确');
    await tryValue(d, '提醒手机号', '13800138000,13800138000', '手机号码重复');
  },
};

export const AlarmSaved: Story = {
  name: '额度提醒：保存',
  parameters: msw(...ownBillHandlers({ alarm: alarmOff })),
  play: async ({ canvas: c }) => {
    const d = await openAlarm(c);
    await tryValue(d, '提醒额度(元)', '5000', '手机号码格式不正确');
    await userEvent.type(d.getByLabelText('提醒手机号'), '13800138000');
    await userEvent.click(d.getByRole('button', { name: OK }));
    await expect(await body().findByText('额度提醒设置成功', {}, T)).toBeInTheDocument();
    await waitFor(() => expect(c.getByTestId('credit-alarm-summary')).toHaveTextContent('13800138000'), T);
  },
};

export const AlarmRefused: Story = {
  name: '额度提醒：服务器拒绝',
  parameters: msw(...ownBillHandlers({ save: 'refused' })),
  play: async ({ canvasElement }) => {
    const d = await openAlarm(within(canvasElement));
    await userEvent.click(d.getByRole('button', { name: OK }));
    await expect(await d.findByTestId('credit-alarm-error', {}, T)).toHaveTextContent('只能设置本账户的额度提醒');
  },
};
