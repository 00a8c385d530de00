/**
 * /account/info/base: the account's base info, agent view (userType 1: GET /admin/baseinfo,
 * POST /admin/baseinfo/edit) or enterprise view (userType 2: GET /account/clientinfo,
 * POST /account/updateClient). View -> 修改 -> 确认 / 取消. Rules: schemas/forms/agent-base-info.json
 * and schemas/forms/enterprise-base-info.json.
 */
import { useState } from 'react';
import { App, Button, Skeleton, Space } from 'antd';
import { Link } from 'react-router';
import { EnumTag } from '@/components/EnumTag/EnumTag';
import { SchemaDescriptions, type SchemaDescriptionsProps } from '@/components/SchemaDescriptions';
import { CERTIFY_ROUTE, RECERTIFY_ROUTE, oauthStatusOf } from '@/domain/certification';
import { useCurrentUser } from '@/layout/hooks';
import { isAgent } from '@/providers/access';
import { accountApi, useAgentBaseInfo, useEnterpriseBaseInfo, useRefreshAll } from './api';
import { ConfirmCancel } from '@/components/SchemaForm/FormButtons';
import { SchemaForm, type CompiledForm } from '@/components/SchemaForm';
import agentBaseInfoForm from '@/generated/forms/agent-base-info';
import enterpriseBaseInfoForm from '@/generated/forms/enterprise-base-info';
import { fieldLabel, schemaUi } from '@/schema';
import { MESSAGES } from '../../../common/schema/messages';
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
          {remark && (
            <span style={{ color: '#cf1322' }}>
              {fieldLabel('entities/agent-base-info', 'oauth_remark')}：{remark}
            </span>
          )}
          <Link to={RECERTIFY_ROUTE}>重新认证</Link>
        </>
      )}
    </Space>
  );
}

/**
 * 修改 mode: the form's own fields, labels, rules and messages (schemas/forms/<form>.json, its
 * `x-ui` for order and placeholders); 确认 saves, 取消 goes back to the view.
 */
function EditForm<T extends object>({
  form,
  fields,
  required,
  initial,
  onSave,
  onCancel,
}: {
  form: CompiledForm;
  fields: string[];
  /** fields this account must fill although the form leaves them optional (their message: the schema's errorMessage.required) */
  required?: string[];
  initial: Partial<T>;
  onSave: (v: T) => Promise<void>;
  onCancel: () => void;
}) {
  const [data, setData] = useState<Partial<T>>(initial);
  const [saving, setSaving] = useState(false);
  const { message } = App.useApp();
  const submit = async (values: T) => {
    setSaving(true);
    try {
      await onSave(values);
      message.success(MESSAGES.saved);
    } catch {
      // the server's message is already shown
    } finally {
      setSaving(false);
    }
  };
  return (
    <div style={{ maxWidth: 640 }} data-testid="base-info-form">
      <SchemaForm<T>
        schema={form}
        fields={fields}
        required={required}
        uiSchema={schemaUi(form.key)}
        formData={data}
        onChange={setData}
        // the shown fields only, as typed (an empty optional one as "")
        onSubmit={(v) =>
          void submit(Object.fromEntries(fields.map((n) => [n, (v as Record<string, unknown>)[n] ?? ''])) as T)
        }
        onError={(errors) => errors[0] && message.error(errors[0].message)}
      >
        <ConfirmCancel saving={saving} onCancel={onCancel} />
      </SchemaForm>
    </div>
  );
}

/** The record as its entity schema lays it out (schemas/entities/<entity>.json, `x-ui`), then 修改. */
function View<T extends object>({
  entity,
  record,
  render,
  onEdit,
}: {
  entity: string;
  record: T;
  render?: SchemaDescriptionsProps<T>['render'];
  onEdit: () => void;
}) {
  return (
    <>
      <SchemaDescriptions
        entity={entity}
        record={record}
        render={render}
        style={{ maxWidth: 760 }}
        data-testid="base-info-view"
      />
      <Button type="primary" style={{ marginTop: 24 }} onClick={onEdit}>
        修改
      </Button>
    </>
  );
}

const certificationState = (v: unknown, r: { oauth_remark?: string }) => (
  <CertificationState value={v} remark={r.oauth_remark} />
);

export function AgentBaseInfoView() {
  const { data, isLoading } = useAgentBaseInfo();
  const [editing, setEditing] = useState(false);
  const refreshAll = useRefreshAll();
  if (isLoading || !data) return <Skeleton active />;
  if (editing) {
    return (
      <EditForm
        form={agentBaseInfoForm}
        fields={['agent_name', 'address', 'mobile', 'auto_template_callback_url']}
        initial={{
          agent_name: data.agent_name,
          address: data.address,
          mobile: data.mobile,
          auto_template_callback_url: data.auto_template_callback_url ?? '',
        }}
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
      entity="entities/agent-base-info"
      record={data}
      render={{ oauth_status: certificationState }}
      onEdit={() => setEditing(true)}
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
        form={enterpriseBaseInfoForm}
        // the callback addresses show (and are required) only with the pushes they are for
        fields={[
          'name',
          'mobile',
          'email',
          'address',
          ...(needReport ? ['deliveryurl'] : []),
          ...(needMo ? ['mourl'] : []),
        ]}
        required={[...(needReport ? ['deliveryurl'] : []), ...(needMo ? ['mourl'] : [])]}
        initial={{
          name: data.name,
          mobile: data.mobile,
          email: data.email,
          address: data.address,
          deliveryurl: data.deliveryurl,
          mourl: data.mourl,
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
      entity="entities/enterprise-base-info"
      record={data}
      render={{
        oauth_status: certificationState,
        address: (_v, r) => [r.province, r.city, r.area, r.address].filter(Boolean).join(' ') || '-',
      }}
      onEdit={() => setEditing(true)}
    />
  );
}

export default function BaseInfoPage() {
  const { user, isLoading } = useCurrentUser();
  if (isLoading || !user) return <Skeleton active />;
  return isAgent(user) ? <AgentBaseInfoView /> : <EnterpriseBaseInfoView />;
}
