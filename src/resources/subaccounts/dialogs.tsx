/**
 * The dialogs of the sub-account manager and finance lists: recharge / rollback (exact amounts,
 * idempotent requestId, 3 s submit lock), remark, interface info (copy), password reset, price,
 * balance reminder and expiration. The form dialogs are SchemaFormDialogs over their
 * schemas/forms (labels, rules and messages from there, as the server checks them).
 */
import { useEffect, useRef, useState } from 'react';
import { Alert, App, Button, DatePicker, Descriptions, Form, Modal, Spin } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Money } from '@/components/Money/Money';
import { formatMoney } from '@/components/Money/money';
import { SchemaFormDialog } from '@/components/SchemaForm/SchemaFormDialog';
import reminderForm from '@/generated/forms/balance-reminder';
import rechargeForm from '@/generated/forms/recharge';
import passwordForm from '@/generated/forms/sub-account-password';
import priceForm from '@/generated/forms/sub-account-price';
import remarkForm from '@/generated/forms/sub-account-remark';
import {
  type BalanceReminderForm,
  PriceType,
  type RechargeForm,
  type SubAccountPasswordForm,
  type SubAccountPriceForm,
  type SubAccountRemarkForm,
  type SubAccountRow,
} from '@/generated/schemas';
import { ApiError } from '@/providers/http';
import type { Dayjs } from 'dayjs';
import { businessNow, businessTime, type BusinessTimeInput } from '@/lib/businessTime';
import { newRequestId, subAccountApi, type TransferResult } from './api';
import {
  InterfaceEditDialog,
  InterfaceInfoView,
  interfaceApi,
  interfaceCopyText,
  type InterfaceInfoData,
} from './InterfaceInfo';
import { MESSAGES } from '../../../common/schema/messages';

/** the generated type reads the confirmation rule ({ $data }) as the value's type */
type PasswordValues = Omit<SubAccountPasswordForm, 'confirmPassword'> & { confirmPassword?: string };

export const SUBMIT_LOCK_MS = 3000;
export const SUBMIT_LOCK_TEXT = '3秒内不可重复提交';

const errText = (e: unknown) => (e instanceof ApiError ? (e.body.msg ?? '操作失败') : '接口异常');

export interface DialogProps {
  account: SubAccountRow | null;
  onClose: () => void;
  /** called after a change was saved (the list reloads) */
  onDone?: (result?: unknown) => void;
}

// ------------------------------------------------------------------ recharge / rollback

export function TransferDialog({
  op,
  account,
  agentBalance,
  onClose,
  onDone,
}: DialogProps & { op: 'recharge' | 'rollback'; agentBalance?: string }) {
  const requestId = useRef(newRequestId());
  const result = useRef<TransferResult>(undefined);
  useEffect(() => {
    if (account) requestId.current = newRequestId();
  }, [account]);
  const save = async (v: RechargeForm) => {
    try {
      const body = await (op === 'recharge' ? subAccountApi.recharge : subAccountApi.rollback)({
        ...v,
        remark: v.remark ?? '',
        requestId: requestId.current,
      });
      result.current = body.data;
      requestId.current = newRequestId();
      return body.msg ?? (op === 'recharge' ? MESSAGES.recharged : MESSAGES.rolledBack);
    } catch (e) {
      // a business refusal is final: the next submission is a new request (a lost answer is retried as the same one)
      if (e instanceof ApiError) requestId.current = newRequestId();
      throw e;
    }
  };
  return (
    <SchemaFormDialog<RechargeForm>
      open={!!account}
      title={op === 'recharge' ? '子账户充值' : '子账户回退'}
      form={rechargeForm}
      fields={['amount', 'remark']}
      uiSchema={{
        amount: {
          'ui:title': op === 'recharge' ? '充值金额(元)' : '回退金额(元)',
          'ui:placeholder': '最多两位小数',
          'ui:autocomplete': 'off',
        },
        remark: { 'ui:widget': 'textarea', 'ui:options': { rows: 2 } },
      }}
      initial={{ clientId: account?.client_id }}
      save={save}
      onClose={onClose}
      onDone={() => onDone?.(result.current)}
      lockMs={SUBMIT_LOCK_MS}
      lockText={SUBMIT_LOCK_TEXT}
      errorTestId="transfer-error"
      confirm={(v) =>
        account && (
          <span data-testid="transfer-confirm">
            {op === 'recharge'
              ? `确认给 ${account.client_name}（${account.client_id}）充值 `
              : `确认从 ${account.client_name}（${account.client_id}）回退 `}
            <b>{formatMoney(v.amount)}</b> 元？
          </span>
        )
      }
    >
      {account && (
        <Descriptions column={1} size="small" style={{ marginBottom: 16 }}>
          <Descriptions.Item label="子账户">
            {account.client_name}（{account.client_id}）
          </Descriptions.Item>
          <Descriptions.Item label="子账户余额">
            <Money value={account.balance} />
          </Descriptions.Item>
          {agentBalance !== undefined && (
            <Descriptions.Item label="可用余额">
              <Money value={agentBalance} />
            </Descriptions.Item>
          )}
        </Descriptions>
      )}
    </SchemaFormDialog>
  );
}

// ------------------------------------------------------------------ remark

export function RemarkDialog({ account, onClose, onDone }: DialogProps) {
  return (
    <SchemaFormDialog<SubAccountRemarkForm>
      open={!!account}
      title="备注"
      form={remarkForm}
      fields={['remarks']}
      uiSchema={{ remarks: { 'ui:widget': 'textarea', 'ui:options': { rows: 3 } } }}
      initial={{ clientId: account?.client_id, remarks: account?.remarks ?? '' }}
      save={async (v) => (await subAccountApi.remark(v.clientId, v.remarks ?? ''), MESSAGES.remarkSaved)}
      onClose={onClose}
      onDone={onDone}
    />
  );
}

// ------------------------------------------------------------------ interface info

export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** 接口信息 of a sub-account: the real doors, masked interface password with reset, settings; 修改接口设置 edits them. */
export function InterfaceInfoDialog({ account, onClose }: DialogProps) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const clientId = account?.client_id;
  const [editing, setEditing] = useState(false);
  const queryKey = ['subaccounts', 'interface-info', clientId];
  const query = useQuery({
    queryKey,
    queryFn: async () => (await interfaceApi.info(clientId)).data as InterfaceInfoData,
    enabled: !!account,
    // fetched afresh each time the dialog opens, and not kept once it closes; never another
    // account's info while this one's loads; a failed call is shown once: no retries
    gcTime: 0,
    placeholderData: undefined,
    retry: false,
  });
  const info = account ? query.data : undefined;
  const error = account && query.error ? errText(query.error) : undefined;
  const copyAll = async () => {
    if (!info) return;
    if (await copyText(interfaceCopyText(info))) message.success('复制成功');
    else message.error('复制失败，您的浏览器不支持自动复制，请手动复制');
  };
  return (
    <Modal
      open={!!account}
      title="接口信息"
      width={640}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={copyAll} disabled={!info}>
          复制
        </Button>
      }
      destroyOnHidden
    >
      {error && <Alert type="error" showIcon message={error} data-testid="interface-info-error" />}
      {!info && !error && <Spin />}
      {info && <InterfaceInfoView info={info} clientId={clientId} onEdit={() => setEditing(true)} />}
      <InterfaceEditDialog
        info={info}
        open={editing}
        onClose={() => setEditing(false)}
        onSaved={(next) => queryClient.setQueryData(queryKey, next)}
      />
    </Modal>
  );
}

// ------------------------------------------------------------------ password reset

export function ResetPasswordDialog({ account, onClose }: DialogProps) {
  return (
    <SchemaFormDialog<PasswordValues>
      open={!!account}
      title="重置密码"
      form={passwordForm}
      fields={['way', 'email', 'password', 'confirmPassword']}
      uiSchema={(v) => {
        const byEmail = v.way !== 'password';
        const hidden = { 'ui:widget': 'hidden' };
        return {
          way: { 'ui:widget': 'radio', 'ui:options': { inline: true } },
          email: byEmail ? { 'ui:autocomplete': 'email' } : hidden,
          password: byEmail ? hidden : { 'ui:widget': 'password', 'ui:autocomplete': 'new-password' },
          confirmPassword: byEmail ? hidden : { 'ui:widget': 'password', 'ui:autocomplete': 'new-password' },
        };
      }}
      initial={{ clientId: account?.client_id, way: 'email', email: account?.email ?? '' }}
      // switching the way drops the other way's values (hidden fields are neither checked nor sent)
      normalize={(next, prev) =>
        next.way === prev.way
          ? next
          : next.way === 'password'
            ? { ...next, email: undefined }
            : { ...next, email: account?.email ?? '', password: undefined, confirmPassword: undefined }
      }
      save={async (v) => {
        try {
          return (await subAccountApi.resetPassword(v)).msg ?? MESSAGES.codeSent;
        } catch (e) {
          // the spec's wording for a mail that could not be sent: 发送失败 plus the server's message
          if (v.way === 'email' && e instanceof ApiError)
            throw new ApiError({ ...e.body, msg: `发送失败 ${e.body.msg ?? ''}`.trim() }, e.timedOut);
          throw e;
        }
      }}
      onClose={onClose}
    />
  );
}

// ------------------------------------------------------------------ price, reminder, expiration

const PRICES = ['unifiedPrice', 'mobilePrice', 'unicomPrice', 'telecomPrice'] as const;

export function PriceDialog({ account, onClose, onDone }: DialogProps) {
  return (
    <SchemaFormDialog<SubAccountPriceForm>
      open={!!account}
      title="价格设置"
      form={priceForm}
      fields={['priceType', ...PRICES, 'gjSmsDiscount']}
      uiSchema={(v) => {
        const unified = (v.priceType ?? PriceType.Unified) === PriceType.Unified;
        const shown = (name: (typeof PRICES)[number]) =>
          unified === (name === 'unifiedPrice') ? {} : { 'ui:widget': 'hidden' };
        return {
          priceType: { 'ui:widget': 'radio', 'ui:options': { inline: true } },
          ...Object.fromEntries(PRICES.map((p) => [p, shown(p)])),
        };
      }}
      initial={{
        clientId: account?.client_id,
        priceType: account?.priceType ?? 0,
        unifiedPrice: account?.unifiedPrice ?? undefined,
        mobilePrice: account?.mobilePrice ?? undefined,
        unicomPrice: account?.unicomPrice ?? undefined,
        telecomPrice: account?.telecomPrice ?? undefined,
        gjSmsDiscount: account?.gjSmsDiscount ?? undefined,
      }}
      save={async (v) => (await subAccountApi.price(v), MESSAGES.priceSet)}
      onClose={onClose}
      onDone={onDone}
    />
  );
}

export function ReminderDialog({ account, onClose, onDone }: DialogProps) {
  return (
    <SchemaFormDialog<BalanceReminderForm>
      open={!!account}
      title="余额提醒"
      form={reminderForm}
      fields={['balanceAlarm', 'alarmMobile']}
      initial={{
        clientId: account?.client_id,
        balanceAlarm: account?.balanceAlarm ?? '0.00',
        alarmMobile: account?.alarmMobile ?? account?.mobile ?? '',
      }}
      save={async (v) => (await subAccountApi.remind({ ...v, alarmMobile: v.alarmMobile ?? '' }), MESSAGES.reminderSet)}
      onClose={onClose}
      onDone={onDone}
    />
  );
}

/** Days the expiry picker may not choose: before today (Shanghai's). */
export const expiryDayDisabled = (d: Dayjs, now: BusinessTimeInput = businessNow()) =>
  businessTime(d).isBefore(businessTime(now).startOf('day'));

export function ExpirationDialog({ account, onClose, onDone }: DialogProps) {
  const { message } = App.useApp();
  // the expiry is a business day (Asia/Shanghai): shown as the API writes it, today is Shanghai's
  const expiry = (a: SubAccountRow | null) => (a?.expireDate ? businessTime(a.expireDate) : null);
  const [date, setDate] = useState(() => expiry(account));
  // each opening (another account, or none) starts from the account's own date: adjusted while rendering
  const [dateOf, setDateOf] = useState(account);
  if (account !== dateOf) {
    setDateOf(account);
    setDate(expiry(account));
  }
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    if (!account) return;
    setSaving(true);
    try {
      await subAccountApi.expire({ clientId: account.client_id, expireDate: date ? date.format('YYYY-MM-DD') : '' });
      message.success(MESSAGES.expirySet);
      onDone?.();
      onClose();
    } catch {
      /* toasted */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open={!!account} title="到期时间" onCancel={onClose} onOk={submit} confirmLoading={saving} destroyOnHidden>
      <Form layout="vertical">
        <Form.Item label="到期日期（不填为长期有效）">
          <DatePicker value={date} onChange={setDate} disabledDate={(d) => expiryDayDisabled(d)} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
