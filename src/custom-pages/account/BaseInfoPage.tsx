/**
 * /account/info/base: the account's base info, agent view (userType 1: GET /admin/baseinfo,
 * POST /admin/baseinfo/edit) or enterprise view (userType 2: GET /account/clientinfo,
 * POST /account/updateClient). View -> 修改 -> 确认 / 取消. Rules: schemas/forms/agent-base-info.json
 * and schemas/forms/enterprise-base-info.json.
 */
import { useState, type ReactNode } from 'react';
import { App, Button, Descriptions, Form, Input, Skeleton, Space } from 'antd';
import { Link } from 'react-router';
import { EnumTag } from '@/components/EnumTag/EnumTag';
import { CERTIFY_ROUTE, RECERTIFY_ROUTE, oauthStatusOf } from '@/domain/certification';
import { useCurrentUser } from '@/layout/hooks';
import { isAgent } from '@/providers/access';
import { accountApi, useAgentBaseInfo, useEnterpriseBaseInfo, useRefreshAll } from './api';
import { showErrors, validateForm } from './validate';
import { NeedMo, NeedReport, OauthStatus } from '@/generated/schemas';

/** 认证状态 with the action the state allows. */
export function CertificationState({ value, remark }: { value: unknown; remark?: string }) {
  const s = oauthStatusOf(value);
  return (
    <Space wrap data-testid="certification-state">
      <EnumTag enumName="oauth-status" value={s ?? value} />
      {s === OauthStatus.Uncertified && <Link to={CERTIFY_ROUTE}>在线认证</Link>}
      {s === OauthStatus.Rejected && (
        <>
          {remark && <span style={{ color: '#cf1322' }}>驳回原因：{remark}</span>}
          <Link to={RECERTIFY_ROUTE}>重新认证</Link>
        </>
      )}
    </Space>
  );
}

interface FieldDef {
  name: string;
  label: string;
  placeholder?: string;
}

function EditForm({ fields, initial, schema, extraCheck, onSave, onCancel }: {
  fields: FieldDef[];
  initial: Record<string, unknown>;
  schema: string;
  extraCheck?: (v: Record<string, unknown>) => { field: string; message: string } | undefined;
  onSave: (v: Record<string, unknown>) => Promise<void>;
  onCancel: () => void;
}) {
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const { message } = App.useApp();
  const names = fields.map((f) => f.name);
  const submit = async () => {
    const raw = form.getFieldsValue(names) as Record<string, unknown>;
    const values = Object.fromEntries(names.map((n) => [n, raw[n] ?? '']));
    const { data, errors } = validateForm(schema, values);
    const extra = errors.length ? undefined : extraCheck?.(data);
    const first = showErrors(form, extra ? [extra] : errors, names);
    if (first) return void message.error(first);
    setSaving(true);
    try {
      await onSave(data);
      message.success('保存成功');
    } catch {
      // the server's message is already shown
    } finally {
      setSaving(false);
    }
  };
  return (
    <Form form={form} initialValues={initial} labelCol={{ flex: '160px' }} style={{ maxWidth: 640 }} data-testid="base-info-form">
      {fields.map((f) => (
        <Form.Item key={f.name} label={f.label} name={f.name}>
          <Input placeholder={f.placeholder ?? `请输入${f.label}`} />
        </Form.Item>
      ))}
      <Form.Item label=" " colon={false}>
        <Space>
          <Button type="primary" loading={saving} onClick={submit}>
            确认
          </Button>
          <Button onClick={onCancel}>取消</Button>
        </Space>
      </Form.Item>
    </Form>
  );
}

function View({ items, onEdit }: { items: [string, ReactNode][]; onEdit: () => void }) {
  return (
    <>
      <Descriptions column={1} bordered size="middle" style={{ maxWidth: 760 }} data-testid="base-info-view">
        {items.map(([label, v]) => (
          <Descriptions.Item key={label} label={label}>
            {v === '' || v === undefined || v === null ? '-' : v}
          </Descriptions.Item>
        ))}
      </Descriptions>
      <Button type="primary" style={{ marginTop: 24 }} onClick={onEdit}>
        修改
      </Button>
    </>
  );
}

export function AgentBaseInfoView() {
  const { data, isLoading } = useAgentBaseInfo();
  const [editing, setEditing] = useState(false);
  const refreshAll = useRefreshAll();
  if (isLoading || !data) return <Skeleton active />;
  if (editing) {
    return (
      <EditForm
        schema="agent-base-info"
        fields={[
          { name: 'agent_name', label: '代理商名称' },
          { name: 'address', label: '地址' },
          { name: 'mobile', label: '手机号' },
          { name: 'auto_template_callback_url', label: '智能模板审核回调地址', placeholder: '选填，http:// 或 https:// 开头' },
        ]}
        initial={{ agent_name: data.agent_name, address: data.address, mobile: data.mobile, auto_template_callback_url: data.auto_template_callback_url ?? '' }}
        onSave={async (v) => {
          await accountApi.editAgentBaseInfo(v);
          setEditing(false);
          await refreshAll();
        }}
        onCancel={() => setEditing(false)}
      />
    );
  }
  return (
    <View
      onEdit={() => setEditing(true)}
      items={[
        ['代理商ID', data.agent_id],
        ['代理商名称', data.agent_name],
        ['地址', data.address],
        ['手机号', data.mobile],
        ['智能模板审核回调地址', data.auto_template_callback_url],
        ['状态', <EnumTag key="s" enumName="account-status" value={data.status} />],
        ['认证状态', <CertificationState key="c" value={data.oauth_status} remark={data.oauth_remark} />],
        ['认证时间', data.oauth_date],
        ['创建时间', data.create_time],
      ]}
    />
  );
}

export function EnterpriseBaseInfoView() {
  const { data, isLoading } = useEnterpriseBaseInfo();
  const [editing, setEditing] = useState(false);
  const refreshAll = useRefreshAll();
  if (isLoading || !data) return <Skeleton active />;
  const needReport = Number(data.needreport) === NeedReport.SimplePush;
  const needMo = Number(data.needmo) === NeedMo.Push;
  if (editing) {
    return (
      <EditForm
        schema="enterprise-base-info"
        fields={[
          { name: 'name', label: '账户名称' },
          { name: 'mobile', label: '手机号' },
          { name: 'email', label: '邮箱' },
          { name: 'address', label: '地址' },
          ...(needReport ? [{ name: 'deliveryurl', label: '状态报告回调地址' }] : []),
          ...(needMo ? [{ name: 'mourl', label: '上行回调地址' }] : []),
        ]}
        initial={{ name: data.name, mobile: data.mobile, email: data.email, address: data.address, deliveryurl: data.deliveryurl, mourl: data.mourl }}
        extraCheck={(v) => {
          if (needReport && !String(v.deliveryurl ?? '').trim()) return { field: 'deliveryurl', message: '请填写状态报告回调地址' };
          if (needMo && !String(v.mourl ?? '').trim()) return { field: 'mourl', message: '请填写上行回调地址' };
          return undefined;
        }}
        onSave={async (v) => {
          await accountApi.updateClient(v);
          setEditing(false);
          await refreshAll();
        }}
        onCancel={() => setEditing(false)}
      />
    );
  }
  return (
    <View
      onEdit={() => setEditing(true)}
      items={[
        ['账户', data.clientid],
        ['账户名称', data.name],
        ['联系人', data.realname],
        ['手机号', data.mobile],
        ['邮箱', data.email],
        ['地址', [data.province, data.city, data.area, data.address].filter(Boolean).join(' ')],
        ['所属代理商', data.agent_id],
        ['状态', <EnumTag key="s" enumName="account-status" value={data.status} />],
        ['认证状态', <CertificationState key="c" value={data.oauth_status} remark={data.oauth_remark} />],
        ['状态报告', <EnumTag key="r" enumName="need-report" value={data.needreport} plain />],
        ...(needReport ? ([['状态报告回调地址', data.deliveryurl]] as [string, ReactNode][]) : []),
        ['上行', <EnumTag key="m" enumName="need-mo" value={data.needmo} plain />],
        ...(needMo ? ([['上行回调地址', data.mourl]] as [string, ReactNode][]) : []),
        ['审核方式', <EnumTag key="a" enumName="need-audit" value={data.needaudit} plain />],
        ['创建时间', data.createtime],
        ['备注', data.remarks],
      ]}
    />
  );
}

export default function BaseInfoPage() {
  const { user, isLoading } = useCurrentUser();
  if (isLoading || !user) return <Skeleton active />;
  return isAgent(user) ? <AgentBaseInfoView /> : <EnterpriseBaseInfoView />;
}
