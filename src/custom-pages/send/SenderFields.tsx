/**
 * Who sends and as what, on the three send pages: the sub-account (agents only; POST
 * /send/getclients filtered by domestic / international), the SMS type (the account's, POST
 * /send/getsmstypes, else the sms-type enum) and the sign (2-12 characters; optional on the
 * international page). Each is one <Form.Item> with its error (useSendForm's `item`).
 */
import { useEffect, useState } from 'react';
import { Alert, Form, Select, Typography } from 'antd';
import { SEND_MESSAGES } from '@/domain/send';
import { Link } from 'react-router';
import { useCustom } from '@refinedev/core';
import { useApprovedSigns } from '@/resources/signs/useApprovedSigns';
import type { SmsType } from '@/generated/schemas';
import { useScreenPath } from '@/layout/screens';
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
  const types: SmsTypeOption[] = clientId && Array.isArray(result?.data) ? result.data : [];
  const options = types.length
    ? types.map((t) => ({ value: Number(t.value), label: t.label }))
    : enumOptions<number>('sms-type').map((o) => ({ value: o.value, label: o.label }));
  return { options, loading: query.isFetching && !!clientId, known: types.length > 0 };
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
      <ClientSelect
        phoneInoutType={phoneInoutType}
        value={value}
        onChange={(v) => onChange(v || undefined)}
        placeholder={MESSAGES.pickSubAccount}
      />
    </Form.Item>
  );
}

export interface SmsTypeFieldProps {
  clientId?: string;
  value?: SmsType;
  onChange: (v: SmsType) => void;
  status?: FieldStatus;
}

/**
 * 短信类型: the account's types, always by their labels: a value the account may not send (an
 * older task's) is not shown as a raw code but left empty, so it has to be chosen again.
 */
export function SmsTypeField({ clientId, value, onChange, status }: SmsTypeFieldProps) {
  const types = useSmsTypeOptions(clientId);
  const shown = value !== undefined && types.options.some((o) => o.value === Number(value)) ? Number(value) : undefined;
  return (
    <Form.Item label="短信类型" required {...status}>
      <Select<number>
        value={shown}
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
  /** whose approved signs are offered (none chosen yet: nothing to pick) */
  clientId?: string;
  value: string;
  onChange: (v: string) => void;
  /** the international page's sign may be left empty */
  optional?: boolean;
  status?: FieldStatus;
}

export { useApprovedSigns };

/**
 * 签名: picked from the account's approved signs (a sign not approved would only be refused at the
 * end, so none other is offered); with none approved, links to 签名报备 and 模板管理. A value that is
 * not an approved sign (a re-edited task's, a template's) is not shown as chosen: it has to be
 * picked again. The international page's sign may stay empty (allowClear).
 */
export function SignField({ clientId, value, onChange, optional, status }: SignFieldProps) {
  const signReportPath = useScreenPath('template_SignReport');
  const templatesPath = useScreenPath('template_Intelligent');
  const { signs, loaded, loading } = useApprovedSigns(clientId);
  const typed = value.trim();
  const none = loaded && !signs.length;
  /** a value dropped because it is not approved (a template's or a re-edited task's sign): said once */
  const [dropped, setDropped] = useState('');
  const refused = loaded && !!typed && !signs.includes(typed);
  // remembered while rendering (React's "adjusting state on a prop change"), cleared from the page's state below
  if (refused && dropped !== typed) setDropped(typed);
  const key = signs.join('\n');
  useEffect(() => {
    if (!loaded) return;
    if (refused) onChange('');
    else if (!typed && !optional && signs.length === 1) onChange(signs[0]);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on a new value or a new list only
  }, [loaded, typed, key]);
  return (
    <Form.Item label="签名" required={!optional} {...status}>
      <Select<string>
        value={typed && (!loaded || signs.includes(typed)) ? typed : undefined}
        onChange={(v) => {
          setDropped('');
          onChange(v ?? '');
        }}
        options={signs.map((s) => ({ value: s, label: s }))}
        loading={loading}
        disabled={!clientId || none}
        allowClear={optional}
        showSearch
        placeholder={
          !clientId
            ? '请先选择子账号'
            : none
              ? '暂无审核通过的签名'
              : optional
                ? '选填，请选择已审核通过的签名'
                : '请选择已审核通过的签名'
        }
        notFoundContent="暂无审核通过的签名"
        style={{ width: 260 }}
        data-testid="sign-select"
      />
      {none && (
        <Alert
          type={optional ? 'info' : 'warning'}
          showIcon
          style={{ marginTop: 8 }}
          data-testid="no-approved-sign"
          message={
            <span>
              该账户暂无审核通过的签名{optional ? '（国际短信可不带签名发送）' : ''}，请先到{' '}
              <Link to={signReportPath}>签名报备</Link> 申请签名，并在 <Link to={templatesPath}>模板管理</Link> 申请模板
            </span>
          }
        />
      )}
      {dropped && !typed && (
        <Typography.Text type="warning" style={{ display: 'block', marginTop: 6 }} data-testid="sign-not-approved">
          「{dropped}」{SEND_MESSAGES.signNotApproved.replace(/^该签名/, '')}，请从列表中选择
        </Typography.Text>
      )}
    </Form.Item>
  );
}
