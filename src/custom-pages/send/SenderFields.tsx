/**
 * Who sends and as what, on the three send pages: the sub-account (agents only; POST
 * /send/getclients filtered by domestic / international), the SMS type (the account's, POST
 * /send/getsmstypes, else the sms-type enum) and the sign (2-12 characters; optional on the
 * international page). Each is one <Form.Item> with its error (useSendForm's `item`).
 */
import { Form, Input, Select } from 'antd';
import { useCustom } from '@refinedev/core';
import type { SmsType } from '@/generated/schemas';
import { ClientSelect } from '@/components/ClientSelect/ClientSelect';
import { enumOptions } from '@/schema';
import type { SmsTypeOption } from '@/domain/send';
import { MESSAGES } from '../../../common/schema/messages';
import type { FieldStatus } from './useSendForm';

/** The SMS types the account may send (POST /send/getsmstypes), else every type of the enum. */
export function useSmsTypeOptions(clientId: string | undefined) {
  const { result, query } = useCustom<SmsTypeOption[]>({
    url: '/send/getsmstypes',
    method: 'post',
    config: { payload: { clientid: clientId } },
    queryOptions: { enabled: !!clientId, staleTime: 60_000 },
  });
  const types: SmsTypeOption[] = clientId && Array.isArray(result?.data) ? (result.data) : [];
  const options = types.length ? types.map((t) => ({ value: Number(t.value), label: t.label })) : enumOptions<number>('sms-type').map((o) => ({ value: o.value, label: o.label }));
  return { options, loading: query.isFetching && !!clientId };
}

export interface AccountFieldProps {
  /** only an agent picks the sub-account; a sub-account sends as itself (nothing is shown) */
  agent: boolean;
  /** accounts allowed domestic (0) or international (1) sending */
  phoneInoutType: 0 | 1;
  value?: string;
  onChange: (clientId: string | undefined) => void;
  status?: FieldStatus;
}

/** 子账号 (agents). */
export function AccountField({ agent, phoneInoutType, value, onChange, status }: AccountFieldProps) {
  if (!agent) return null;
  return (
    <Form.Item label="子账号" required {...status}>
      <ClientSelect phoneInoutType={phoneInoutType} value={value} onChange={(v) => onChange(v || undefined)} placeholder={MESSAGES.pickSubAccount} />
    </Form.Item>
  );
}

export interface SmsTypeFieldProps {
  clientId?: string;
  value?: SmsType;
  onChange: (v: SmsType) => void;
  status?: FieldStatus;
}

/** 短信类型: the account's types. */
export function SmsTypeField({ clientId, value, onChange, status }: SmsTypeFieldProps) {
  const types = useSmsTypeOptions(clientId);
  return (
    <Form.Item label="短信类型" required {...status}>
      <Select<number>
        value={value}
        onChange={(v) => onChange(v as SmsType)}
        options={types.options}
        loading={types.loading}
        placeholder="请选择短信类型"
        style={{ width: 220 }}
        data-testid="smstype-select"
      />
    </Form.Item>
  );
}

export interface SignFieldProps {
  value: string;
  onChange: (v: string) => void;
  /** the international page's sign may be left empty */
  optional?: boolean;
  status?: FieldStatus;
}

/** 签名: 2-12 characters. */
export function SignField({ value, onChange, optional, status }: SignFieldProps) {
  return (
    <Form.Item label="签名" required={!optional} {...status}>
      <Input
        value={value}
        onChange={(e) => onChange(e.target.value)}
        maxLength={12}
        showCount
        placeholder={optional ? '选填，2-12个字符' : '签名2-12个字符'}
        style={{ width: 260 }}
        data-testid="sign-input"
      />
    </Form.Item>
  );
}
