/**
 * 发票申请 (/finance/invoice/add, finance_invoice_add). Fields, rules, messages and layout are
 * schemas/forms/invoice.json (ordinary electronic / VAT special electronic, enterprise / personal,
 * conditional fields by `ui:showIf`, the VAT address by the `region` widget). The page adds what
 * the schema cannot say:
 * - the invoiceable amount (POST /invoice/initInvoice) is shown, and an amount above it is refused
 *   on the field before any call (the server checks it again under the account lock);
 * - the saved information of each type fills the form (and fills a type's empty fields when the
 *   user switches type); a sub-account does not choose the type (ordinary only);
 * - submit: POST /invoice/checkObject (server errors show on their fields), then 请确认开票信息
 *   with the details, then POST /invoice/add, and on success the list (/finance/invoice/add/list).
 */
import { useEffect, useMemo, useState } from 'react';
import Decimal from 'decimal.js';
import { Alert, App, Button, Card, Descriptions, Space } from 'antd';
import { useNavigate } from 'react-router';
import { SchemaForm } from '@/components/SchemaForm';
import { SchemaDescriptions } from '@/components/SchemaDescriptions';
import { lazyWidget } from '@/components/SchemaForm/lazyWidget';
import invoiceForm from '@/generated/forms/invoice';
import { InvoiceBody, InvoiceType, type Invoice } from '@/generated/schemas';
import type { FieldError } from '../../../common/schema';
import { schemaUi } from '@/schema';
import { ApiError } from '@/providers/http';
import { INVOICE_MESSAGES, invoiceApi, type InvoiceConfig, type InvoiceInit } from './api';
import { invoiceApplyScreen, invoiceListScreen, invoices } from '.';
import { formatMoney } from '@/components/Money/money';

const FORM = 'forms/invoice';

const widgets = { region: lazyWidget(() => import('./RegionCascader')) };

const VAT_ONLY = ['companyRegAddr', 'telphone', 'bank', 'bankAccount', 'toName', 'toAddr', 'toAddrDetail'] as const;
const INFO_FIELDS = ['invoiceBody', 'invoiceHead', 'creditCode', 'email', 'toPhone', ...VAT_ONLY] as const;
const CONFIRM_FIELDS = [
  'invoiceType',
  'invoiceProject',
  'invoiceAmount',
  'invoiceBody',
  'invoiceHead',
  'creditCode',
  'companyRegAddr',
  'telphone',
  'bank',
  'bankAccount',
  'email',
  'toName',
  'toPhone',
  'toAddr',
  'toAddrDetail',
  'remark',
];

type Values = Record<string, unknown>;
const empty = (v: unknown) => v === undefined || v === null || v === '';

/** What is sent: the fields the chosen type and body show, without the empty ones. */
export function invoicePayload(v: Values): Values {
  const out: Values = { ...v };
  if (out.invoiceType !== InvoiceType.ElectronicVatSpecial) for (const k of VAT_ONLY) delete out[k];
  else delete out.email;
  if (out.invoiceBody !== InvoiceBody.Enterprise) delete out.creditCode;
  for (const k of Object.keys(out)) if (empty(out[k])) delete out[k];
  return out;
}

/** A type's saved information over the values, where the values are still empty. */
function fillFrom(values: Values, config: InvoiceConfig | undefined): Values {
  const out = { ...values };
  for (const k of INFO_FIELDS) if (empty(out[k]) && !empty(config?.[k])) out[k] = config![k];
  return out;
}

/** Is the amount (already a valid decimal) above canAmount? */
export const overAmount = (amount: unknown, canAmount: string) => {
  try {
    return typeof amount === 'string' && /^\d+(\.\d{1,2})?$/.test(amount.trim()) && new Decimal(amount.trim()).gt(canAmount);
  } catch {
    return false;
  }
};

export default function InvoiceApply() {
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const [init, setInit] = useState<InvoiceInit>();
  const [loadFailed, setLoadFailed] = useState(false);
  const [values, setValues] = useState<Values>({});
  const [errors, setErrors] = useState<FieldError[]>();
  const [saving, setSaving] = useState(false);
  const [round, setRound] = useState(0);

  useEffect(() => {
    let live = true;
    invoiceApi
      .init()
      .then((b) => {
        const d = b.data;
        if (!live || !d) return;
        setInit(d);
        const type = d.canChooseType ? InvoiceType.ElectronicNormal : d.invoiceTypes[0];
        setValues(fillFrom({ invoiceType: type, invoiceBody: InvoiceBody.Enterprise }, d.ordinary));
        setRound((n) => n + 1);
      })
      .catch(() => live && setLoadFailed(true));
    return () => {
      live = false;
    };
  }, []);

  const uiSchema = useMemo(() => {
    const ui = schemaUi(FORM);
    return init && !init.canChooseType ? { ...ui, invoiceType: { ...ui.invoiceType, 'ui:widget': 'hidden' } } : ui;
  }, [init]);

  const onChange = (next: Values) => {
    if (init && next.invoiceType !== values.invoiceType) {
      const vat = next.invoiceType === InvoiceType.ElectronicVatSpecial;
      next = fillFrom(vat ? { ...next, invoiceBody: InvoiceBody.Enterprise } : next, vat ? init.addedTax : init.ordinary);
      setValues(next);
      setRound((n) => n + 1);
      return;
    }
    setValues(next);
  };

  const fieldErrorsOf = (e: unknown): FieldError[] | undefined => {
    if (!(e instanceof ApiError)) return undefined;
    const list = (e.body.data as { errors?: FieldError[] } | undefined)?.errors;
    return list?.length ? list : [{ field: 'invoiceAmount', message: e.body.msg ?? '接口异常' }];
  };

  const submit = async (v: Values) => {
    if (!init) return;
    if (overAmount(v.invoiceAmount, init.canAmount)) {
      setErrors([{ field: 'invoiceAmount', message: `${INVOICE_MESSAGES.overAmount}（可开票金额 ${init.canAmount} 元）` }]);
      return;
    }
    const payload = invoicePayload(v);
    setSaving(true);
    try {
      await invoiceApi.check(payload);
    } catch (e) {
      const list = fieldErrorsOf(e);
      if (list) setErrors(list);
      else message.error('接口异常');
      setSaving(false);
      return;
    }
    setSaving(false);
    modal.confirm({
      title: INVOICE_MESSAGES.confirmTitle,
      width: 640,
      okText: '确认提交',
      cancelText: '返回修改',
      content: (
        <SchemaDescriptions<Partial<Invoice>>
          entity={invoices.entity}
          record={{ ...payload, invoiceProject: init.invoiceProject }}
          fields={CONFIRM_FIELDS}
          column={1}
          size="small"
          data-testid="invoice-confirm"
        />
      ),
      onOk: async () => {
        try {
          const body = await invoiceApi.add(payload);
          message.success(body.msg || INVOICE_MESSAGES.applied);
          void navigate(invoiceListScreen.path);
        } catch (e) {
          const list = fieldErrorsOf(e);
          if (list) setErrors(list);
        }
      },
    });
  };

  return (
    <Card
      title={invoiceApplyScreen.label}
      loading={!init && !loadFailed}
      extra={<Button onClick={() => navigate(invoiceListScreen.path)}>申请记录</Button>}
      data-testid="invoice-apply"
    >
      {loadFailed && <Alert type="error" showIcon message="获取可开票金额失败，请刷新后重试" />}
      {init && (
        <div style={{ maxWidth: 720 }}>
          <Descriptions size="small" column={2} style={{ marginBottom: 16 }} bordered>
            <Descriptions.Item label="可开票金额">
              <span data-testid="can-amount">{formatMoney(init.canAmount)}</span> 元
            </Descriptions.Item>
            <Descriptions.Item label="开票项目">{init.invoiceProject}</Descriptions.Item>
          </Descriptions>
          {new Decimal(init.canAmount).lte(0) && <Alert type="info" showIcon style={{ marginBottom: 16 }} message="当前没有可开票金额" data-testid="no-amount" />}
          <SchemaForm
            key={round}
            schema={invoiceForm}
            uiSchema={uiSchema}
            widgets={widgets}
            formData={values}
            onChange={onChange}
            serverErrors={errors}
            onSubmit={(v) => void submit(v)}
          >
            <Space>
              <Button type="primary" htmlType="submit" loading={saving} disabled={new Decimal(init.canAmount).lte(0)}>
                提交申请
              </Button>
            </Space>
          </SchemaForm>
        </div>
      )}
    </Card>
  );
}
