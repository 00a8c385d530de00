/**
 * 子账户详情 (/customer/manager/:id/info | /auth | /auth/re): tabs 基本信息 and 资质信息. /auth is spec 01's
 * named route customer_manager_auth (query status and type: the type preselects the certification form).
 * Basic info: view -> edit -> confirm/cancel; callback URLs follow needreport / needmo. Labels and
 * layout: schemas/entities/sub-account-detail.json; the form: schemas/forms/sub-account-edit.json.
 */
import { useState } from 'react';
import { Alert, App, Button, Card, Image, Result, Space, Spin, Tabs, Tag } from 'antd';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { EnumTag } from '@/components/EnumTag/EnumTag';
import { SchemaDescriptions } from '@/components/SchemaDescriptions';
import { SchemaForm } from '@/components/SchemaForm';
import subAccountEditForm from '@/generated/forms/sub-account-edit';
import type { SubAccountDetail, SubAccountEditForm } from '@/generated/schemas';
import { enumLabel, fieldLabel, schemaUi } from '@/schema';
import { ApiError } from '@/providers/http';
import { subAccountApi } from './api';
import { MESSAGES } from '../../../common/schema/messages';
import { AgentOwned, CertType, NeedMo, NeedReport, OauthStatus } from '@/generated/schemas';
import { useScreen } from '@/layout/screens';
import { CertificationForm } from '@/custom-pages/account/CertificationForm';

const ENTITY = 'entities/sub-account-detail';

export type SubAccountDetailData = SubAccountDetail;

const EDIT_FIELDS = [
  'name',
  'realname',
  'mobile',
  'email',
  'address',
  'needreport',
  'deliveryurl',
  'needmo',
  'mourl',
] as const;
type EditValues = SubAccountEditForm;

function BasicInfo({ data, onSaved }: { data: SubAccountDetailData; onSaved: (d: SubAccountDetailData) => void }) {
  const { message } = App.useApp();
  const [editing, setEditing] = useState(false);
  const [saving, setSaving] = useState(false);
  const [values, setValues] = useState<Partial<EditValues>>({});
  const start = () => {
    setValues({ clientid: data.clientid, ...Object.fromEntries(EDIT_FIELDS.map((k) => [k, data[k] ?? undefined])) });
    setEditing(true);
  };
  const save = async (v: EditValues) => {
    const out: Record<string, unknown> = {
      clientid: data.clientid,
      ...Object.fromEntries(EDIT_FIELDS.map((k) => [k, v[k] ?? ''])),
    };
    if (v.needreport !== NeedReport.SimplePush) out.deliveryurl = '';
    if (v.needmo !== NeedMo.Push) out.mourl = '';
    setSaving(true);
    try {
      const body = await subAccountApi.update(out);
      message.success(body.msg ?? MESSAGES.updated);
      onSaved(body.data as SubAccountDetailData);
      setEditing(false);
    } catch {
      /* toasted */
    } finally {
      setSaving(false);
    }
  };
  if (!editing)
    return (
      <>
        <SchemaDescriptions entity={ENTITY} record={data} size="small" data-testid="basic-info" />
        <Button type="primary" style={{ marginTop: 16 }} onClick={start}>
          修改
        </Button>
      </>
    );
  return (
    <div style={{ maxWidth: 640 }} data-testid="basic-edit">
      <SchemaForm<EditValues>
        schema={subAccountEditForm}
        fields={[...EDIT_FIELDS]}
        uiSchema={schemaUi('forms/sub-account-edit')}
        formData={values}
        onChange={setValues}
        onSubmit={(v) => void save(v)}
      >
        <Space>
          <Button type="primary" htmlType="submit" loading={saving}>
            确认
          </Button>
          <Button onClick={() => setEditing(false)}>取消</Button>
        </Space>
      </SchemaForm>
    </div>
  );
}

function Qualification({
  data,
  re,
  certType,
  onSubmitted,
}: {
  data: SubAccountDetailData;
  re: boolean;
  certType?: CertType;
  onSubmitted: () => void;
}) {
  const images = (data.imgUrl ?? '').split('|').filter(Boolean);
  const canUpload = data.agentOwned !== AgentOwned.AgentOwned && data.oauth_status !== OauthStatus.Certified;
  if (data.oauth_status === OauthStatus.Certified && !re)
    return (
      <>
        <Result
          status="success"
          title={enumLabel('auth-status', OauthStatus.Certified)}
          subTitle={data.oauth_date ? `${fieldLabel(ENTITY, 'oauth_date')}：${data.oauth_date}` : undefined}
        />
        {data.agentOwned !== AgentOwned.AgentOwned && (
          <SchemaDescriptions entity={ENTITY} record={data} fields={['idType', 'idNbr']} column={1} size="small" />
        )}
      </>
    );
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="qualification">
      <div>
        {fieldLabel(ENTITY, 'oauth_status')}：
        {data.oauth_status === OauthStatus.Uncertified ? (
          <Tag>{enumLabel('oauth-status', OauthStatus.Uncertified)}</Tag>
        ) : (
          <EnumTag enumName="auth-status" value={data.oauth_status} />
        )}
        {data.oauth_status === OauthStatus.Pending && <span style={{ color: 'red', marginLeft: 8 }}>资质审核中</span>}
      </div>
      {data.agentOwned === AgentOwned.AgentOwned ? (
        <Alert type="info" showIcon message="代理商自有账户，无需上传资质" />
      ) : (
        <SchemaDescriptions
          entity={ENTITY}
          record={data}
          fields={['idType', 'idNbr', 'imgUrl']}
          column={1}
          size="small"
          render={{
            imgUrl: () =>
              images.length ? (
                <Image.PreviewGroup>
                  {images.map((src) => (
                    <Image key={src} src={src} width={96} fallback="" />
                  ))}
                </Image.PreviewGroup>
              ) : (
                '-'
              ),
          }}
        />
      )}
      {canUpload && !re && (
        <Link to={`/customer/manager/${data.clientid}/auth/re${certType ? `?type=${certType}` : ''}`}>上传资质</Link>
      )}
      {re &&
        canUpload &&
        (data.oauth_status === OauthStatus.Pending ? (
          <Alert type="info" showIcon message="资质审核中，请等待审核结果" data-testid="qualification-pending" />
        ) : (
          // the same form and rules as the account's own, submitted for this sub-account (POST /client/cer/edit)
          <CertificationForm mode="edit" clientId={data.clientid} defaultType={certType} onSubmitted={onSubmitted} />
        ))}
    </Space>
  );
}

export default function SubAccountDetail() {
  const managerScreen = useScreen('service_manager');
  const detailScreen = useScreen();
  const { id = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const queryKey = ['subaccounts', 'detail', id];
  const query = useQuery({
    queryKey,
    queryFn: async () => (await subAccountApi.detail(id)).data as SubAccountDetailData,
    // a failed call is toasted once, as any other call: no retries
    retry: false,
  });
  const { data } = query;
  const error = query.error ? (query.error instanceof ApiError ? query.error.body.msg : '接口异常') : undefined;
  /** what the server answered to a change becomes the account shown */
  const setData = (d: SubAccountDetailData) => queryClient.setQueryData(queryKey, d);
  const tab = location.pathname.includes('/auth') ? 'auth' : 'info';
  const re = location.pathname.endsWith('/auth/re');
  // spec 01: /customer/manager/:id/info?status=1&type= is the agent-auth screen while the account is not certified
  const search = new URLSearchParams(location.search);
  const agentAuth =
    tab === 'info' &&
    search.get('status') === '1' &&
    !!data &&
    data.agentOwned !== AgentOwned.AgentOwned &&
    (data.oauth_status === OauthStatus.Uncertified || data.oauth_status === OauthStatus.Rejected);
  const certType = search.get('type') === String(CertType.Personal) ? CertType.Personal : CertType.Enterprise;
  // customer_manager_auth (/auth?status=&type=): the type asked preselects the certification form's kind
  const authType = search.get('type') ? certType : undefined;
  return (
    <Card
      title={detailScreen.label}
      extra={<Link to={managerScreen.path}>返回{managerScreen.label}</Link>}
      data-testid="subaccount-detail"
    >
      {error && <Alert type="error" showIcon message={error} />}
      {!data && !error && <Spin />}
      {data && (
        <Tabs
          activeKey={tab}
          onChange={(k) => navigate(`/customer/manager/${id}/${k}`)}
          items={[
            {
              key: 'info',
              label: '基本信息',
              children: agentAuth ? (
                <Space direction="vertical" style={{ width: '100%' }} data-testid="agent-auth">
                  <Alert
                    type="warning"
                    showIcon
                    message={`子账户 ${data.clientid}（${data.name}）未通过资质认证，认证通过后才能发送短信。请为其提交资质认证：`}
                  />
                  <CertificationForm
                    mode="edit"
                    clientId={data.clientid}
                    defaultType={certType}
                    onSubmitted={() => {
                      void query.refetch();
                      void navigate(`/customer/manager/${id}/auth`);
                    }}
                  />
                </Space>
              ) : (
                <BasicInfo data={data} onSaved={setData} />
              ),
            },
            {
              key: 'auth',
              label: '资质信息',
              children: (
                <Qualification
                  data={data}
                  re={re}
                  certType={authType}
                  onSubmitted={() => {
                    void query.refetch();
                    void navigate(`/customer/manager/${id}/auth`);
                  }}
                />
              ),
            },
          ]}
        />
      )}
    </Card>
  );
}
