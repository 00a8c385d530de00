/**
 * 子账户详情 (/customer/manager/:id/info | /auth | /auth/re): tabs 基本信息 and 资质信息.
 * Basic info: view -> edit -> confirm/cancel; callback URLs follow needreport / needmo.
 */
import { useCallback, useEffect, useState } from 'react';
import { Alert, App, Button, Card, Descriptions, Form, Image, Input, Result, Select, Space, Spin, Tabs, Tag } from 'antd';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { EnumTag } from '@/components/EnumTag/EnumTag';
import { Money } from '@/components/Money/Money';
import { enumLabel, enumOptions } from '@/schema';
import { ApiError } from '@/providers/http';
import { subAccountApi, validateWith } from './api';
import { AgentOwned, NeedMo, NeedReport, OauthStatus } from '@/generated/schemas';

export interface SubAccountDetailData {
  clientid: string;
  name: string;
  status: number;
  oauth_status: number;
  oauth_date?: string;
  client_type?: number;
  mobile: string;
  email: string;
  realname: string;
  address: string;
  needreport: number;
  needmo: number;
  deliveryurl: string;
  mourl: string;
  remarks: string;
  create_time: string;
  balance: string;
  paytype: number;
  agentOwned: number;
  idType?: number | null;
  idNbr?: string;
  imgUrl?: string;
}

const EDIT_FIELDS = ['name', 'realname', 'mobile', 'email', 'address', 'needreport', 'deliveryurl', 'needmo', 'mourl'] as const;

function BasicInfo({ data, onSaved }: { data: SubAccountDetailData; onSaved: (d: SubAccountDetailData) => void }) {
  const { message } = App.useApp();
  const [editing, setEditing] = useState(false);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm();
  const needreport = Form.useWatch('needreport', form);
  const needmo = Form.useWatch('needmo', form);
  const start = () => {
    form.setFieldsValue(Object.fromEntries(EDIT_FIELDS.map((k) => [k, data[k]])));
    setEditing(true);
  };
  const save = async () => {
    const v = { clientid: data.clientid, ...form.getFieldsValue(true) };
    if (v.needreport !== NeedReport.SimplePush) v.deliveryurl = '';
    if (v.needmo !== NeedMo.Push) v.mourl = '';
    const errs = validateWith('forms/sub-account-edit', v);
    form.setFields(EDIT_FIELDS.map((name) => ({ name, errors: errs[name] ? [errs[name]] : [] })));
    if (Object.keys(errs).length) return;
    setSaving(true);
    try {
      const body = await subAccountApi.update(v);
      message.success(body.msg ?? '修改成功');
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
        <Descriptions column={2} bordered size="small" data-testid="basic-info">
          <Descriptions.Item label="账户">{data.clientid}</Descriptions.Item>
          <Descriptions.Item label="账户名称">{data.name}</Descriptions.Item>
          <Descriptions.Item label="状态">
            <EnumTag enumName="account-status" value={data.status} />
          </Descriptions.Item>
          <Descriptions.Item label="余额">
            <Money value={data.balance} />
          </Descriptions.Item>
          <Descriptions.Item label="联系人">{data.realname || '-'}</Descriptions.Item>
          <Descriptions.Item label="手机号">{data.mobile || '-'}</Descriptions.Item>
          <Descriptions.Item label="邮箱">{data.email || '-'}</Descriptions.Item>
          <Descriptions.Item label="地址">{data.address || '-'}</Descriptions.Item>
          <Descriptions.Item label="状态报告">{enumLabel('need-report', data.needreport)}</Descriptions.Item>
          <Descriptions.Item label="状态报告回调地址">{data.deliveryurl || '-'}</Descriptions.Item>
          <Descriptions.Item label="上行">{enumLabel('need-mo', data.needmo)}</Descriptions.Item>
          <Descriptions.Item label="上行回调地址">{data.mourl || '-'}</Descriptions.Item>
          <Descriptions.Item label="付费方式">{enumLabel('paytype', data.paytype)}</Descriptions.Item>
          <Descriptions.Item label="创建时间">{data.create_time}</Descriptions.Item>
          <Descriptions.Item label="备注" span={2}>
            {data.remarks || '-'}
          </Descriptions.Item>
        </Descriptions>
        <Button type="primary" style={{ marginTop: 16 }} onClick={start}>
          修改
        </Button>
      </>
    );
  return (
    <Form form={form} labelCol={{ span: 5 }} wrapperCol={{ span: 12 }} data-testid="basic-edit">
      <Form.Item name="name" label="账户名称" required>
        <Input maxLength={60} />
      </Form.Item>
      <Form.Item name="realname" label="联系人">
        <Input />
      </Form.Item>
      <Form.Item name="mobile" label="手机号">
        <Input maxLength={11} />
      </Form.Item>
      <Form.Item name="email" label="邮箱">
        <Input />
      </Form.Item>
      <Form.Item name="address" label="地址">
        <Input />
      </Form.Item>
      <Form.Item name="needreport" label="状态报告">
        <Select options={enumOptions('need-report').map((o) => ({ value: o.value, label: o.label }))} />
      </Form.Item>
      {needreport === NeedReport.SimplePush && (
        <Form.Item name="deliveryurl" label="状态报告回调地址" required>
          <Input />
        </Form.Item>
      )}
      <Form.Item name="needmo" label="上行">
        <Select options={enumOptions('need-mo').map((o) => ({ value: o.value, label: o.label }))} />
      </Form.Item>
      {needmo === NeedMo.Push && (
        <Form.Item name="mourl" label="上行回调地址" required>
          <Input />
        </Form.Item>
      )}
      <Form.Item wrapperCol={{ offset: 5 }}>
        <Space>
          <Button type="primary" onClick={save} loading={saving}>
            确认
          </Button>
          <Button onClick={() => setEditing(false)}>取消</Button>
        </Space>
      </Form.Item>
    </Form>
  );
}

function Qualification({ data, re }: { data: SubAccountDetailData; re: boolean }) {
  const images = (data.imgUrl ?? '').split('|').filter(Boolean);
  const canUpload = data.agentOwned !== AgentOwned.AgentOwned && data.oauth_status !== OauthStatus.Certified;
  if (data.oauth_status === OauthStatus.Certified && !re)
    return (
      <>
        <Result status="success" title="已认证" subTitle={data.oauth_date ? `认证时间：${data.oauth_date}` : undefined} />
        {data.agentOwned !== AgentOwned.AgentOwned && (
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label="证件类型">{enumLabel('id-type', data.idType) ?? '-'}</Descriptions.Item>
            <Descriptions.Item label="证件号码">{data.idNbr || '-'}</Descriptions.Item>
          </Descriptions>
        )}
      </>
    );
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="qualification">
      <div>
        认证状态：
        {data.oauth_status === OauthStatus.Uncertified ? <Tag>未认证</Tag> : <EnumTag enumName="auth-status" value={data.oauth_status} />}
        {data.oauth_status === OauthStatus.Pending && <span style={{ color: 'red', marginLeft: 8 }}>资质审核中</span>}
      </div>
      {data.agentOwned === AgentOwned.AgentOwned ? (
        <Alert type="info" showIcon message="代理商自有账户，无需上传资质" />
      ) : (
        <Descriptions column={1} bordered size="small">
          <Descriptions.Item label="证件类型">{enumLabel('id-type', data.idType) ?? '-'}</Descriptions.Item>
          <Descriptions.Item label="证件号码">{data.idNbr || '-'}</Descriptions.Item>
          <Descriptions.Item label="证件图片">
            {images.length ? (
              <Image.PreviewGroup>
                {images.map((src) => (
                  <Image key={src} src={src} width={96} fallback="" />
                ))}
              </Image.PreviewGroup>
            ) : (
              '-'
            )}
          </Descriptions.Item>
        </Descriptions>
      )}
      {canUpload && !re && <Link to={`/customer/manager/${data.clientid}/auth/re`}>上传资质</Link>}
      {re && canUpload && <Alert type="info" showIcon message="请通过资质认证页面上传最多五张证件图片（gif、jpg、jpeg、png，每张不超过2M）" />}
    </Space>
  );
}

export default function SubAccountDetail() {
  const { id = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [data, setData] = useState<SubAccountDetailData>();
  const [error, setError] = useState<string>();
  const load = useCallback(() => {
    setError(undefined);
    subAccountApi
      .detail(id)
      .then((b) => setData(b.data as SubAccountDetailData))
      .catch((e) => setError(e instanceof ApiError ? e.body.msg : '接口异常'));
  }, [id]);
  useEffect(load, [load]);
  const tab = location.pathname.includes('/auth') ? 'auth' : 'info';
  const re = location.pathname.endsWith('/auth/re');
  return (
    <Card title="子账户详情" extra={<Link to="/customer/selfsevicelayout/manager">返回子账户管理</Link>} data-testid="subaccount-detail">
      {error && <Alert type="error" showIcon message={error} />}
      {!data && !error && <Spin />}
      {data && (
        <Tabs
          activeKey={tab}
          onChange={(k) => navigate(`/customer/manager/${id}/${k}`)}
          items={[
            { key: 'info', label: '基本信息', children: <BasicInfo data={data} onSaved={setData} /> },
            { key: 'auth', label: '资质信息', children: <Qualification data={data} re={re} /> },
          ]}
        />
      )}
    </Card>
  );
}
