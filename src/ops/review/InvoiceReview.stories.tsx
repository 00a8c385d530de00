import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { T, body, clearCalls, withApp } from '@/stories/withApp';
import { msw } from '@/stories/mockApi';
import { listStates } from '@/stories/listStates';
import { opsApi, opsAt } from '@/stories/opsApi';
import { dialogNamed, expectNoRows, openOptions, rowWith, type Scope } from '@/stories/play';
import { enumLabel } from '@/schema';
import { InvoiceStatus } from '@/generated/schemas';
import InvoiceReview from './InvoiceReview';
import { invoiceRows, reviewApi } from './review.mock';
import { reviewInvoices } from './data';

const calls: Record<string, Record<string, unknown>[]> = {};
const label = (s: InvoiceStatus) => enumLabel('invoice-status', s)!;

const meta = {
  title: 'Ops/审核/发票',
  component: InvoiceReview,
  decorators: [withApp],
  parameters: { app: opsAt('ops_review_invoices'), ...msw(...reviewApi({ calls }), ...opsApi()) },
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof InvoiceReview>;
export default meta;
type Story = StoryObj<typeof meta>;

/** opens the status dialog of an invoice's row */
async function openStatus(canvasElement: HTMLElement, invoiceNo: string) {
  const row = await rowWith(within(canvasElement), invoiceNo);
  await userEvent.click(within(row).getByRole('button', { name: /变更状态/ }));
  return dialogNamed(`变更发票状态：${invoiceNo}`);
}

/** picks a status in the dialog's select */
async function pick(dialog: Scope, status: InvoiceStatus) {
  await userEvent.click(await dialog.findByRole('combobox', {}, T));
  await userEvent.click(await body().findByTitle(label(status), {}, T));
}

export const Pending: Story = {
  name: '待处理列表',
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('FP202611240001', {}, T)).toBeInTheDocument();
    await expect(c.getByText(label(InvoiceStatus.Pending))).toBeInTheDocument();
    await expect(c.getByText(label(InvoiceStatus.Issuing))).toBeInTheDocument();
    await expect(c.getByText('12,800.00 元')).toBeInTheDocument();
    await expect(c.queryByText('FP202611200001')).toBeNull();
  },
};

/** The row's next statuses only; 开票中 needs nothing more. */
export const ToIssuing: Story = {
  name: '变更状态：开票中',
  play: async ({ canvasElement }) => {
    const dialog = await openStatus(canvasElement, 'FP202611240001');
    await expect(dialog.getByText(label(InvoiceStatus.Pending))).toBeInTheDocument();
    await userEvent.click(await dialog.findByRole('combobox', {}, T));
    await expect(openOptions()).toEqual([label(InvoiceStatus.Rejected), label(InvoiceStatus.Issuing)]);
    await userEvent.click(await body().findByTitle(label(InvoiceStatus.Issuing), {}, T));
    await expect(dialog.queryByLabelText(/原因/)).toBeNull();
    await userEvent.click(dialog.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls['invoices/status']?.[0]).toEqual({ id: 12, status: InvoiceStatus.Issuing }), T);
    await expect(await body().findByText('状态已变更', {}, T)).toBeInTheDocument();
  },
};

/** 审核不通过 asks the reason (the account sees it): required before the call. */
export const ToRejected: Story = {
  name: '变更状态：审核不通过（须填原因）',
  play: async ({ canvasElement }) => {
    const dialog = await openStatus(canvasElement, 'FP202611240001');
    // the first choice is preselected: 审核不通过
    const reason = await dialog.findByLabelText(/审核不通过原因/, {}, T);
    await userEvent.click(dialog.getByRole('button', { name: /确\s*定/ }));
    await expect(await dialog.findByTestId('invoice-status-refusal', {}, T)).toHaveTextContent('审核不通过须填写原因');
    await expect(calls['invoices/status']).toBeUndefined();
    await userEvent.type(reason, '纳税人识别号与抬头不符');
    await userEvent.click(dialog.getByRole('button', { name: /确\s*定/ }));
    await waitFor(
      () =>
        expect(calls['invoices/status']?.[0]).toEqual({
          id: 12,
          status: InvoiceStatus.Rejected,
          reason: '纳税人识别号与抬头不符',
        }),
      T,
    );
  },
};

/** 已邮寄 asks the express company and number. */
export const ToMailed: Story = {
  name: '变更状态：已邮寄（快递公司、单号）',
  play: async ({ canvasElement }) => {
    const dialog = await openStatus(canvasElement, 'FP202611230002');
    await pick(dialog, InvoiceStatus.Mailed);
    await userEvent.type(await dialog.findByLabelText(/快递公司/, {}, T), '顺丰速运');
    await userEvent.type(dialog.getByLabelText(/快递单号/), 'SF1098765432');
    await expect(dialog.queryByLabelText(/原因/)).toBeNull();
    await userEvent.click(dialog.getByRole('button', { name: /确\s*定/ }));
    await waitFor(
      () =>
        expect(calls['invoices/status']?.[0]).toEqual({
          id: 11,
          status: InvoiceStatus.Mailed,
          expressCompany: '顺丰速运',
          expressNo: 'SF1098765432',
        }),
      T,
    );
  },
};

/** A VAT invoice mailed without its express data: said before the call, on the fields. */
export const MailedVatNeedsExpress: Story = {
  name: '专票邮寄未填快递信息',
  parameters: msw(
    ...reviewApi({
      calls,
      invoices: [
        { ...invoiceRows[0], status: InvoiceStatus.Issuing, next: [InvoiceStatus.Rejected, InvoiceStatus.Mailed] },
      ],
    }),
    ...opsApi(),
  ),
  play: async ({ canvasElement }) => {
    const dialog = await openStatus(canvasElement, 'FP202611240001');
    await pick(dialog, InvoiceStatus.Mailed);
    await userEvent.click(dialog.getByRole('button', { name: /确\s*定/ }));
    await expect(await dialog.findByText('增值税专用发票邮寄须填写快递单号', {}, T)).toBeInTheDocument();
    await expect(dialog.getByTestId('invoice-status-refusal')).toHaveTextContent('增值税专用发票邮寄须填写快递公司');
    await expect(calls['invoices/status']).toBeUndefined();
  },
};

/** The server refuses (the status was changed meanwhile): its message stays in the dialog. */
export const Refused: Story = {
  name: '变更被拒绝',
  parameters: msw(
    ...reviewApi({ calls, refuse: { code: 409, msg: '发票 12 的状态刚被修改，请重新查看后再试' } }),
    ...opsApi(),
  ),
  play: async ({ canvasElement }) => {
    const dialog = await openStatus(canvasElement, 'FP202611240001');
    await pick(dialog, InvoiceStatus.Issuing);
    await userEvent.click(dialog.getByRole('button', { name: /确\s*定/ }));
    await expect(await dialog.findByTestId('invoice-status-refusal', {}, T)).toHaveTextContent(
      '发票 12 的状态刚被修改，请重新查看后再试',
    );
  },
};

export const All: Story = {
  name: '全部（含已邮寄）',
  parameters: { app: opsAt('ops_review_invoices', '?pending=false') },
  play: async ({ canvas: c }) => {
    const row = await rowWith(c, 'FP202611200001');
    await expect(within(row).getByText('顺丰速运 SF1234567890')).toBeInTheDocument();
    await expect(within(row).getByText(label(InvoiceStatus.Mailed))).toBeInTheDocument();
  },
};

export const Empty: Story = {
  name: '无待处理',
  parameters: msw(...reviewApi({ invoices: [] }), ...opsApi()),
  play: ({ canvasElement }) => expectNoRows(canvasElement),
};

const states = listStates(reviewInvoices, opsApi());
export const Loading: Story = states.loading;
export const LoadError: Story = states.error;
