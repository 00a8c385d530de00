/**
 * 审核 / 发票 (/ops/review/invoices): the accounts' invoice applications (POST
 * /operator/review/invoices/list; 只看待审核: 待审核 and 开票中, what an operator still has to move).
 * 变更状态 offers the row's `next` statuses (the transitions `npm run cli -- invoice-status` knows,
 * labelled by enums/invoice-status.json) and asks what the chosen one needs (forms/
 * invoice-status-change.json: a reason for 审核不通过 / 已退回, the express company and number for
 * 已邮寄): what the chosen status needs is checked before the call (missingFor), and the server
 * checks it again and says what is missing or why the move is refused.
 */
import { useState } from 'react';
import { Button, Typography } from 'antd';
import { SwapOutlined } from '@ant-design/icons';
import type { UiSchema } from '@rjsf/utils';
import invoiceStatusForm from '@/generated/forms/invoice-status-change';
import { InvoiceStatus, InvoiceType, type InvoiceStatusForm, type ReviewInvoice } from '@/generated/schemas';
import { ApiError } from '@/providers/http';
import { requiredMessage } from '../../../common/schema/messages';
import type { FieldError } from '../../../common/schema';
import type { SchemaColumn } from '@/components/SchemaTable/SchemaTable';
import { SchemaFormDialog } from '@/components/SchemaForm/SchemaFormDialog';
import { SchemaDescriptions } from '@/components/SchemaDescriptions';
import { schemaUi } from '@/schema';
import { ReviewList, withReason } from './ReviewList';
import { reviewApi } from './api';
import { reviewInvoices } from './data';
import { useScreen } from '@/layout/screens';

/** the statuses whose reason the account sees */
const WITH_REASON: readonly number[] = [InvoiceStatus.Rejected, InvoiceStatus.Returned];

const columns: (string | SchemaColumn<ReviewInvoice>)[] = [
  'invoiceNo',
  'clientid',
  'invoiceType',
  'invoiceAmount',
  'invoiceHead',
  { field: 'status', render: (v: number, r, _i, cell) => withReason(cell, r.reason, WITH_REASON.includes(v)) },
  'express',
  'createTime',
  'reviewedBy',
];

const statusUi = schemaUi<UiSchema>('forms/invoice-status-change');

/**
 * What the chosen status still needs (the server's own rules, checked first so its refusal is
 * rarely seen): a reason for 审核不通过, the express company and number for a VAT invoice mailed.
 * The messages are the form's (`errorMessage.required`).
 */
export function missingFor(invoice: Pick<ReviewInvoice, 'invoiceType'>, v: Partial<InvoiceStatusForm>): FieldError[] {
  const fields: (keyof InvoiceStatusForm)[] = [];
  if (v.status === InvoiceStatus.Rejected && !v.reason) fields.push('reason');
  if (v.status === InvoiceStatus.Mailed && invoice.invoiceType === InvoiceType.ElectronicVatSpecial) {
    if (!v.expressCompany) fields.push('expressCompany');
    if (!v.expressNo) fields.push('expressNo');
  }
  return fields.map((field) => ({ field, message: requiredMessage(invoiceStatusForm.schema, field) }));
}

/** A choice's values only: a reason for a status that takes one, the express data for 已邮寄. */
function keepRelevant(next: Partial<InvoiceStatusForm>): Partial<InvoiceStatusForm> {
  const out = { ...next };
  if (!WITH_REASON.includes(Number(out.status))) delete out.reason;
  if (out.status !== InvoiceStatus.Mailed) {
    delete out.expressCompany;
    delete out.expressNo;
  }
  return out;
}

export function InvoiceStatusDialog({
  invoice,
  onClose,
  done,
}: {
  invoice: ReviewInvoice | null;
  onClose: () => void;
  done: () => void;
}) {
  const save = async (v: InvoiceStatusForm) => {
    const missing = missingFor(invoice!, v);
    // shown as a refusal would be: the alert and the fields' messages
    if (missing.length) throw new ApiError({ code: 400, msg: missing[0].message, data: { errors: missing } });
    try {
      return await reviewApi.invoiceStatus(reviewInvoices, invoice!.id, v);
    } finally {
      done();
    }
  };
  return (
    <SchemaFormDialog<InvoiceStatusForm>
      open={!!invoice}
      title={`变更发票状态：${invoice?.invoiceNo ?? ''}`}
      form={invoiceStatusForm}
      fields={['status', 'reason', 'expressCompany', 'expressNo']}
      uiSchema={{ ...statusUi, status: { ...statusUi.status, 'ui:enumValues': invoice?.next ?? [] } }}
      initial={{ status: invoice?.next[0] }}
      normalize={keepRelevant}
      save={save}
      onClose={onClose}
      errorTestId="invoice-status-refusal"
    >
      {invoice && (
        <SchemaDescriptions
          entity={reviewInvoices.entity}
          record={invoice}
          fields={['clientid', 'status', 'invoiceType', 'invoiceAmount', 'invoiceHead']}
          column={2}
          size="small"
          style={{ marginBottom: 16 }}
        />
      )}
    </SchemaFormDialog>
  );
}

export default function InvoiceReview() {
  const invoiceReview = useScreen();
  const [changing, setChanging] = useState<{ invoice: ReviewInvoice; done: () => void } | null>(null);
  return (
    <>
      <ReviewList<ReviewInvoice>
        screen={invoiceReview}
        resource={reviewInvoices}
        columns={columns}
        actionsWidth={120}
        actions={(r, done) =>
          r.next.length ? (
            <Button type="link" size="small" icon={<SwapOutlined />} onClick={() => setChanging({ invoice: r, done })}>
              变更状态
            </Button>
          ) : (
            <Typography.Text type="secondary">-</Typography.Text>
          )
        }
      />
      <InvoiceStatusDialog
        invoice={changing?.invoice ?? null}
        onClose={() => setChanging(null)}
        done={() => changing?.done()}
      />
    </>
  );
}
