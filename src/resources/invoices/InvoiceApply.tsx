/**
 * 发票申请 (/finance/invoice/add, finance_invoice_add). Fields, rules, messages and layout are
 * schemas/forms/invoice.json (ordinary electronic / VAT special electronic, enterprise / personal,
 * conditional fields by `ui:showIf`, the VAT address by the `region` widget). The page adds what
 * the schema cannot say:
 * - the invoiceable amount (POST /invoice/initInvoice) is shown, and an amount above it is refused
 *   on the field before any call (the server checks it again under the account lock);
 * - the saved information of each type fills the form (and fills a type's empty fields when the
 *   user switches type); a sub-account does not choose the type (ordinary only);
 * - an agent chooses the account (开票账户, `clientId`): itself or one of its sub-accounts. Choosing
 *   one asks POST /invoice/initInvoice for that account: its invoiceable amount is shown and checked,
 *   its saved information replaces the form's, and the application is that account's (the server
 *   checks the sub-account is the agent's own). A sub-account does not choose;
 * - submit: POST /invoice/checkObject (server errors show on their fields), then 请确认开票信息
 *   with the details, then POST /invoice/add, and on success the list (/finance/invoice/add/list).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import Decimal from 'decimal.js';
import { Alert, App, Button, Card, Descriptions, Space, Spin } from 'antd';
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
import { invoices } from './data';
import { useScreen } from '@/layout/screens';
import { formatMoney } from '@/components/Money/money';
import { InvoiceAccountWidget } from './InvoiceAccountSelect';

const FORM = 'forms/invoice';

const widgets = { region: lazyWidget(() => import('./RegionCascader')), invoiceAccount: InvoiceAccountWidget };

const VAT_ONLY = ['companyRegAddr', 'telphone', 'bank', 'bankAccount', 'toName', 'toAddr', 'toAddrDetail'] as const;
const INFO_FIELDS = ['invoiceBody', 'invoiceHead', 'creditCode', 'email', 'toPhone', ...VAT_ONLY] as const;
const CONFIRM_FIELDS = [
  'accountStr',
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

/** Another account's saved information in place of the values' (the body kept when it has none). */
function replaceFrom(values: Values, config: InvoiceConfig | undefined): Values {
  const out = { ...values };
  for (const k of INFO_FIELDS) {
    if (k === 'invoiceBody' && empty(config?.[k])) continue;
    out[k] = empty(config?.[k]) ? undefined : config![k];
  }
  return out;
}

/** the chosen account of the values ('' = the caller's own) */
const accountOf = (v: Values) => (typeof v.clientId === 'string' ? v.clientId : '');

/** Is the amount (already a valid decimal) above canAmount? */
export const overAmount = (amount: unknown, canAmount: string) => {
  try {
    return (
      typeof amount === 'string' && /^\d+(\.\d{1,2})?$/.test(amount.trim()) && new Decimal(amount.trim()).gt(canAmount)
    );
  } catch {
    return false;
  }
};

export default function InvoiceApply() {
  const invoiceListScreen = useScreen('finance_invoice_list');
  const invoiceApplyScreen = useScreen();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const [init, setInit] = useState<InvoiceInit>();
  const [loadFailed, setLoadFailed] = useState(false);
  const [values, setValues] = useState<Values>({});
  const [errors, setErrors] = useState<FieldError[]>();
  const [saving, setSaving] = useState(false);
  const [round, setRound] = useState(0);
  // another account chosen: its data is being asked for (only the latest choice counts)
  const [switching, setSwitching] = useState(false);
  const switchSeq = useRef(0);

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

  const canChooseType = init?.canChooseType;
  const canChooseAccount = init?.canChooseAccount;
  const uiSchema = useMemo(() => {
    const ui = schemaUi(FORM);
    return {
      ...ui,
      ...(canChooseType === false ? { invoiceType: { ...ui.invoiceType, 'ui:widget': 'hidden' } } : {}),
      ...(!canChooseAccount ? { clientId: { ...ui.clientId, 'ui:widget': 'hidden' } } : {}),
    };
  }, [canChooseType, canChooseAccount]);

  /** 开票账户 changed: that account's amount and saved information (of the chosen type). */
  const switchAccount = async (next: Values) => {
    const seq = ++switchSeq.current;
    const previous = values;
    setValues(next);
    setSwitching(true);
    try {
      const d = (await invoiceApi.init(accountOf(next) || undefined)).data;
      if (seq !== switchSeq.current || !d) return;
      setInit(d);
      setValues(replaceFrom(next, next.invoiceType === InvoiceType.ElectronicVatSpecial ? d.addedTax : d.ordinary));
      setErrors(undefined);
      setRound((n) => n + 1);
    } catch {
      if (seq !== switchSeq.current) return;
      // the previous account stays chosen (the failure was toasted)
      setValues({ ...next, clientId: previous.clientId });
      setRound((n) => n + 1);
    } finally {
      if (seq === switchSeq.current) setSwitching(false);
    }
  };

  const onChange = (next: Values) => {
    if (init && accountOf(next) !== accountOf(values)) {
      void switchAccount(next);
      return;
    }
    if (init && next.invoiceType !== values.invoiceType) {
      const vat = next.invoiceType === InvoiceType.ElectronicVatSpecial;
      next = fillFrom(
        vat ? { ...next, invoiceBody: InvoiceBody.Enterprise } : next,
        vat ? init.addedTax : init.ordinary,
      );
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
      setErrors([
        { field: 'invoiceAmount', message: `${INVOICE_MESSAGES.overAmount}（可开票金额 ${init.canAmount} 元）` },
      ]);
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
          record={{ ...payload, invoiceProject: init.invoiceProject, accountStr: init.accountStr }}
          fields={init.canChooseAccount ? CONFIRM_FIELDS : CONFIRM_FIELDS.filter((f) => f !== 'accountStr')}
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
              <Space size={8}>
                <span>
                  <span data-testid="can-amount" data-client={init.clientId}>
                    {formatMoney(init.canAmount)}
                  </span>{' '}
                  元
                </span>
                {switching && <Spin size="small" data-testid="can-amount-loading" />}
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label="开票项目">{init.invoiceProject}</Descriptions.Item>
          </Descriptions>
          {new Decimal(init.canAmount).lte(0) && (
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 16 }}
              message="当前没有可开票金额"
              data-testid="no-amount"
            />
          )}
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
              <Button
                type="primary"
                htmlType="submit"
                loading={saving}
                disabled={switching || new Decimal(init.canAmount).lte(0)}
              >
                提交申请
              </Button>
            </Space>
          </SchemaForm>
        </div>
      )}
    </Card>
  );
}
