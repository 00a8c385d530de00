/**
 * The dialogs of the sub-account manager and finance lists: recharge / rollback (exact amounts,
 * idempotent requestId, 3 s submit lock), remark, interface info (copy), password reset, price,
 * balance reminder and expiration.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, App, Button, DatePicker, Descriptions, Form, Input, Modal, Radio, Space, Spin, Typography } from 'antd';
import dayjs from 'dayjs';
import { Money } from '@/components/Money/Money';
import { ApiError } from '@/providers/http';
import { newRequestId, subAccountApi, validateWith, type SubAccountRow, type TransferResult } from './api';

export const SUBMIT_LOCK_MS = 3000;
export const SUBMIT_LOCK_TEXT = '3秒内不可重复提交';

const errText = (e: unknown) => (e instanceof ApiError ? e.body.msg ?? '操作失败' : '接口异常');

/** A submit button that stays locked for 3 s after each click. */
function useSubmitLock() {
  const [locked, setLocked] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const lock = () => {
    setLocked(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setLocked(false), SUBMIT_LOCK_MS);
  };
  return { locked, lock };
}

export interface DialogProps {
  account: SubAccountRow | null;
  onClose: () => void;
  /** called after a change was saved (the list reloads) */
  onDone?: (result?: unknown) => void;
}

function Footer({ onCancel, onOk, loading, locked, okText = '确定' }: { onCancel: () => void; onOk: () => void; loading?: boolean; locked?: boolean; okText?: string }) {
  return (
    <Space>
      {locked && <Typography.Text type="secondary">{SUBMIT_LOCK_TEXT}</Typography.Text>}
      <Button onClick={onCancel}>取消</Button>
      <Button type="primary" onClick={onOk} loading={loading} disabled={locked}>
        {okText}
      </Button>
    </Space>
  );
}

// ------------------------------------------------------------------ recharge / rollback

export function TransferDialog({ op, account, agentBalance, onClose, onDone }: DialogProps & { op: 'recharge' | 'rollback'; agentBalance?: string }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ amount: string; remark?: string }>();
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const { locked, lock } = useSubmitLock();
  const requestId = useRef(newRequestId());
  const title = op === 'recharge' ? '子账户充值' : '子账户回退';
  useEffect(() => {
    if (account) {
      form.resetFields();
      setError(undefined);
      requestId.current = newRequestId();
    }
  }, [account, form]);

  const submit = async () => {
    if (!account || locked) return;
    const values = form.getFieldsValue();
    const amount = String(values.amount ?? '').trim();
    const errs = validateWith('forms/recharge', { clientId: account.client_id, amount, remark: values.remark ?? '' });
    form.setFields((['amount', 'remark'] as const).map((name) => ({ name, errors: errs[name] ? [errs[name]] : [] })));
    if (Object.keys(errs).length) return;
    lock();
    setSaving(true);
    setError(undefined);
    try {
      const body = await (op === 'recharge' ? subAccountApi.recharge : subAccountApi.rollback)({
        clientId: account.client_id,
        amount,
        remark: values.remark ?? '',
        requestId: requestId.current,
      });
      message.success(body.msg ?? (op === 'recharge' ? '充值成功' : '回退成功'));
      requestId.current = newRequestId();
      onDone?.(body.data as TransferResult);
      onClose();
    } catch (e) {
      // a business refusal is final: the next submission is a new request
      if (e instanceof ApiError) requestId.current = newRequestId();
      setError(errText(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open={!!account} title={title} onCancel={onClose} destroyOnHidden footer={<Footer onCancel={onClose} onOk={submit} loading={saving} locked={locked} />}>
      {account && (
        <>
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
          {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="transfer-error" />}
          <Form form={form} layout="vertical" onFinish={submit}>
            <Form.Item name="amount" label={op === 'recharge' ? '充值金额(元)' : '回退金额(元)'} required>
              <Input inputMode="decimal" placeholder="最多两位小数" autoComplete="off" />
            </Form.Item>
            <Form.Item name="remark" label="备注">
              <Input.TextArea rows={2} maxLength={50} showCount />
            </Form.Item>
          </Form>
        </>
      )}
    </Modal>
  );
}

// ------------------------------------------------------------------ remark

export function RemarkDialog({ account, onClose, onDone }: DialogProps) {
  const { message } = App.useApp();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    setValue(account?.remarks ?? '');
    setError(undefined);
  }, [account]);
  const submit = async () => {
    if (!account) return;
    const invalid = validateWith('forms/sub-account-remark', { clientId: account.client_id, remarks: value }).remarks;
    if (invalid) return setError(invalid);
    setSaving(true);
    try {
      await subAccountApi.remark(account.client_id, value);
      message.success('备注已保存');
      onDone?.();
      onClose();
    } catch {
      /* toasted */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open={!!account} title="备注" onCancel={onClose} onOk={submit} confirmLoading={saving} destroyOnHidden>
      <Form layout="vertical">
        <Form.Item label="备注" validateStatus={error ? 'error' : undefined} help={error}>
          <Input.TextArea rows={3} value={value} onChange={(e) => (setValue(e.target.value), setError(undefined))} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}

// ------------------------------------------------------------------ interface info

interface AccountInfo {
  clientid: string;
  ipAddress: string;
  port: number;
  smsfrom_str: string;
  smstype_str: string;
  nodenum: string;
  accessSpeed: number;
  password: string;
}

export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function InterfaceInfoDialog({ account, onClose }: DialogProps) {
  const { message } = App.useApp();
  const [info, setInfo] = useState<AccountInfo>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    setInfo(undefined);
    setError(undefined);
    if (!account) return;
    subAccountApi
      .accountInfo(account.client_id)
      .then((b) => setInfo(b.data as AccountInfo))
      .catch((e) => setError(errText(e)));
  }, [account]);
  const rows: [string, ReactNode, string][] = info
    ? [
        ['接口地址', info.ipAddress, info.ipAddress],
        ['端口', String(info.port), String(info.port)],
        ['账号', info.clientid, info.clientid],
        ['密码', info.password, ''],
        ['短信类型', info.smstype_str, info.smstype_str],
        ['速率(条/秒)', String(info.accessSpeed), String(info.accessSpeed)],
        ['协议', info.smsfrom_str, info.smsfrom_str],
        ['接入号', info.nodenum || '-', info.nodenum],
      ]
    : [];
  const copyAll = async () => {
    const text = rows.filter(([, , v]) => v).map(([k, , v]) => `${k}：${v}`).join('\n');
    if (await copyText(text)) message.success('复制成功');
    else message.error('复制失败，您的浏览器不支持自动复制，请手动复制');
  };
  return (
    <Modal open={!!account} title="接口信息" onCancel={onClose} footer={<Button type="primary" onClick={copyAll} disabled={!info}>复制</Button>} destroyOnHidden>
      {error && <Alert type="error" showIcon message={error} />}
      {!info && !error && <Spin />}
      {info && (
        <Descriptions column={1} bordered size="small">
          {rows.map(([k, v]) => (
            <Descriptions.Item key={k} label={k}>
              {v}
            </Descriptions.Item>
          ))}
        </Descriptions>
      )}
    </Modal>
  );
}

// ------------------------------------------------------------------ password reset

export function ResetPasswordDialog({ account, onClose }: DialogProps) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ way: 'email' | 'password'; email?: string; password?: string; confirm?: string }>();
  const way = Form.useWatch('way', form) ?? 'email';
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (account) form.setFieldsValue({ way: 'email', email: account.email ?? '', password: '', confirm: '' });
  }, [account, form]);
  const submit = async () => {
    if (!account) return;
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setSaving(true);
    try {
      const body = await subAccountApi.resetPassword(v.way === 'email' ? { clientId: account.client_id, email: v.email } : { clientId: account.client_id, password: v.password });
      message.success(body.msg ?? '发送成功');
      onClose();
    } catch (e) {
      if (v.way === 'email' && e instanceof ApiError) message.error(`发送失败 ${e.body.msg ?? ''}`);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open={!!account} title="重置密码" onCancel={onClose} onOk={submit} confirmLoading={saving} destroyOnHidden forceRender>
      <Form form={form} layout="vertical" initialValues={{ way: 'email' }}>
        <Form.Item name="way" label="重置方式">
          <Radio.Group options={[{ value: 'email', label: '发送新密码到邮箱' }, { value: 'password', label: '直接设置新密码' }]} />
        </Form.Item>
        {way === 'email' ? (
          <Form.Item name="email" label="接收邮箱" rules={[{ required: true, message: '请输入有效的邮箱' }, { type: 'email', message: '邮箱格式不正确' }]}>
            <Input />
          </Form.Item>
        ) : (
          <>
            <Form.Item
              name="password"
              label="新密码"
              rules={[
                { required: true, message: '密码长度为8-12位之间' },
                { min: 8, max: 12, message: '密码长度为8-12位之间' },
                { pattern: /^(?=.*\d)(?=.*[A-Za-z])[A-Za-z\d]+$/, message: '密码格式为8-12为数字字母组合' },
              ]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Form.Item
              name="confirm"
              label="确认密码"
              dependencies={['password']}
              rules={[({ getFieldValue }) => ({ validator: (_, v) => (v === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error('两次输入密码不一致'))) })]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}

// ------------------------------------------------------------------ price, reminder, expiration

export function PriceDialog({ account, onClose, onDone }: DialogProps) {
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const priceType = Form.useWatch('priceType', form) ?? 0;
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (account)
      form.setFieldsValue({
        priceType: account.priceType ?? 0,
        unifiedPrice: account.unifiedPrice,
        mobilePrice: account.mobilePrice,
        unicomPrice: account.unicomPrice,
        telecomPrice: account.telecomPrice,
        gjSmsDiscount: account.gjSmsDiscount,
      });
  }, [account, form]);
  const submit = async () => {
    if (!account) return;
    const v = { clientId: account.client_id, ...form.getFieldsValue() };
    const errs = validateWith('forms/sub-account-price', v);
    form.setFields(['unifiedPrice', 'mobilePrice', 'unicomPrice', 'telecomPrice', 'gjSmsDiscount'].map((name) => ({ name, errors: errs[name] ? [errs[name]] : [] })));
    if (Object.keys(errs).length) return;
    setSaving(true);
    try {
      await subAccountApi.price(v);
      message.success('价格设置成功');
      onDone?.();
      onClose();
    } catch {
      /* toasted */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open={!!account} title="价格设置" onCancel={onClose} onOk={submit} confirmLoading={saving} destroyOnHidden forceRender>
      <Form form={form} layout="vertical">
        <Form.Item name="priceType" label="计价方式">
          <Radio.Group options={[{ value: 0, label: '统一价格' }, { value: 1, label: '按运营商' }]} />
        </Form.Item>
        {priceType === 0 ? (
          <Form.Item name="unifiedPrice" label="统一价格(元/条)">
            <Input inputMode="decimal" />
          </Form.Item>
        ) : (
          <>
            <Form.Item name="mobilePrice" label="移动(元/条)">
              <Input inputMode="decimal" />
            </Form.Item>
            <Form.Item name="unicomPrice" label="联通(元/条)">
              <Input inputMode="decimal" />
            </Form.Item>
            <Form.Item name="telecomPrice" label="电信(元/条)">
              <Input inputMode="decimal" />
            </Form.Item>
          </>
        )}
        <Form.Item name="gjSmsDiscount" label="国际短信折扣(%)">
          <Input inputMode="decimal" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function ReminderDialog({ account, onClose, onDone }: DialogProps) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ balanceAlarm: string; alarmMobile?: string }>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (account) form.setFieldsValue({ balanceAlarm: account.balanceAlarm ?? '0.00', alarmMobile: account.alarmMobile ?? account.mobile ?? '' });
  }, [account, form]);
  const submit = async () => {
    if (!account) return;
    const v = form.getFieldsValue();
    const payload = { clientId: account.client_id, balanceAlarm: String(v.balanceAlarm ?? '').trim(), alarmMobile: (v.alarmMobile ?? '').trim() };
    const errs = validateWith('forms/balance-reminder', payload);
    form.setFields((['balanceAlarm', 'alarmMobile'] as const).map((name) => ({ name, errors: errs[name] ? [errs[name]] : [] })));
    if (Object.keys(errs).length) return;
    setSaving(true);
    try {
      await subAccountApi.remind(payload);
      message.success('提醒设置成功');
      onDone?.();
      onClose();
    } catch {
      /* toasted */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open={!!account} title="余额提醒" onCancel={onClose} onOk={submit} confirmLoading={saving} destroyOnHidden forceRender>
      <Form form={form} layout="vertical">
        <Form.Item name="balanceAlarm" label="余额低于(元)时提醒">
          <Input inputMode="decimal" />
        </Form.Item>
        <Form.Item name="alarmMobile" label="提醒手机号">
          <Input />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function ExpirationDialog({ account, onClose, onDone }: DialogProps) {
  const { message } = App.useApp();
  const [date, setDate] = useState<dayjs.Dayjs | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => setDate(account?.expireDate ? dayjs(account.expireDate) : null), [account]);
  const submit = async () => {
    if (!account) return;
    setSaving(true);
    try {
      await subAccountApi.expire({ clientId: account.client_id, expireDate: date ? date.format('YYYY-MM-DD') : '' });
      message.success('到期时间设置成功');
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
          <DatePicker value={date} onChange={setDate} disabledDate={(d) => d.isBefore(dayjs().startOf('day'))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
