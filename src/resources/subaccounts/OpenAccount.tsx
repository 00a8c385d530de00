/** 自助开户 (/customer/selfsevicelayout/manager/open): agents in package mode, certified. */
import { useState } from 'react';
import { Alert, App, Button, Card, Form, Input, Radio, Result, Select, Space, Typography, Upload, type UploadFile } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { Link, useNavigate } from 'react-router';
import { SchemaDescriptions } from '@/components/SchemaDescriptions';
import { validateForm } from '@/components/SchemaForm/validation';
import openAccountForm from '@/generated/forms/open-account';
import type { OpenedAccount } from '@/generated/schemas';
import { enumOptions, fieldLabel } from '@/schema';
import { ApiError } from '@/providers/http';
import { useCertification, useCurrentUser } from '@/layout/hooks';
import { subAccountApi } from './api';
import { copyText } from './dialogs';
import { AgentOwned, NeedMo, NeedReport, OauthStatus } from '@/generated/schemas';
import { MESSAGES } from '../../../common/schema/messages';

const FIELDS = ['name', 'agentOwned', 'needreport', 'deliveryurl', 'needmo', 'mourl', 'email', 'mobile', 'idType', 'idNbr', 'imgUrl', 'remarks'] as const;
const IMAGE_TYPES = ['image/gif', 'image/jpeg', 'image/png', 'image/bmp'];
const xsrf = () => document.cookie.match(/(?:^|; )XSRF-TOKEN=([^;]*)/)?.[1] ?? '';

export type Opened = OpenedAccount;

/** a field's label: its title in schemas/forms/open-account.json */
const label = (field: string) => fieldLabel('forms/open-account', field);

/** the stored path of an uploaded image from POST /file/upload's answer */
const uploadedPath = (resp: any): string | undefined => {
  const d = resp?.data ?? resp;
  return typeof d === 'string' ? d : (d?.path ?? d?.url ?? d?.imgUrl);
};

export function OpenResult({ opened, onAgain }: { opened: Opened; onAgain: () => void }) {
  const { message } = App.useApp();
  const navigate = useNavigate();
  return (
    <Result
      status="success"
      title={MESSAGES.opened}
      subTitle="请妥善保存以下账户信息，密码只显示这一次"
      extra={[
        <Button
          key="copy"
          onClick={async () => ((await copyText(`账户：${opened.clientid}\n密码：${opened.password}`)) ? message.success('复制成功') : message.error('复制失败，您的浏览器不支持自动复制，请手动复制'))}
        >
          复制账户信息
        </Button>,
        <Button key="again" onClick={onAgain}>
          继续开户
        </Button>,
        <Button key="back" type="primary" onClick={() => navigate('/customer/selfsevicelayout/manager')}>
          返回子账户管理
        </Button>,
      ]}
    >
      <SchemaDescriptions
        entity="entities/opened-account"
        record={opened}
        size="small"
        data-testid="open-result"
        render={{
          password: (v) => (
            <Typography.Text copyable code data-testid="new-password">
              {v}
            </Typography.Text>
          ),
        }}
      />
    </Result>
  );
}

export default function OpenAccount() {
  const { user } = useCurrentUser();
  const { info, isLoading } = useCertification(user);
  const [form] = Form.useForm();
  const agentOwned = Form.useWatch('agentOwned', form) ?? AgentOwned.AgentOwned;
  const needreport = Form.useWatch('needreport', form) ?? NeedReport.None;
  const needmo = Form.useWatch('needmo', form) ?? NeedMo.None;
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [saving, setSaving] = useState(false);
  const [opened, setOpened] = useState<Opened>();

  const values = () => {
    const v = form.getFieldsValue(true);
    const imgUrl = files.map((f) => uploadedPath(f.response)).filter(Boolean).join('|');
    const out: Record<string, unknown> = { ...v, imgUrl };
    for (const k of Object.keys(out)) if (out[k] === undefined || out[k] === null) delete out[k];
    if (out.agentOwned === AgentOwned.AgentOwned) for (const k of ['idType', 'idNbr', 'imgUrl']) delete out[k];
    if (out.needreport !== NeedReport.SimplePush) delete out.deliveryurl;
    if (out.needmo !== NeedMo.Push) delete out.mourl;
    return out;
  };
  const check = (only?: string) => {
    const errs: Record<string, string> = {};
    for (const e of validateForm(openAccountForm, values()).errors) errs[e.field] ??= e.message;
    const names = only ? [only] : [...FIELDS];
    form.setFields(names.map((name) => ({ name, errors: errs[name] ? [errs[name]] : [] })));
    return errs;
  };
  const checkMobile = async () => {
    const mobile = String(form.getFieldValue('mobile') ?? '').trim();
    if (check('mobile').mobile || !mobile) return true;
    try {
      await subAccountApi.validateMobile(mobile);
      return true;
    } catch (e) {
      form.setFields([{ name: 'mobile', errors: [e instanceof ApiError ? (e.body.msg ?? MESSAGES.mobileExists) : '接口异常'] }]);
      return false;
    }
  };
  const submit = async () => {
    const errs = check();
    if (Object.keys(errs).length) return;
    if (!(await checkMobile())) return;
    setSaving(true);
    try {
      const body = await subAccountApi.open(values());
      setOpened(body.data);
    } catch {
      /* toasted */
    } finally {
      setSaving(false);
    }
  };

  if (opened)
    return (
      <Card>
        <OpenResult
          opened={opened}
          onAgain={() => {
            setOpened(undefined);
            form.resetFields();
            setFiles([]);
          }}
        />
      </Card>
    );

  const certified = String(info?.oauth_status) === String(OauthStatus.Certified);
  // the certification status is known only once the user and its base info have loaded
  const loading = !user || isLoading || !info;
  return (
    <Card title="自助开户" loading={loading} data-testid="open-account">
      {!loading && !certified && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message={MESSAGES.certifyBeforeOpening}
          action={<Link to="/account/info/base/auth">去认证</Link>}
          data-testid="not-certified"
        />
      )}
      <Form form={form} layout="horizontal" labelCol={{ span: 5 }} wrapperCol={{ span: 12 }} initialValues={{ agentOwned: AgentOwned.AgentOwned, needreport: NeedReport.None, needmo: NeedMo.None }} disabled={!certified}>
        <Form.Item name="name" label={label('name')} required>
          <Input onBlur={() => check('name')} maxLength={60} />
        </Form.Item>
        <Form.Item name="agentOwned" label={label('agentOwned')}>
          <Radio.Group options={enumOptions('agent-owned').map((o) => ({ value: o.value, label: o.label }))} />
        </Form.Item>
        <Form.Item name="needreport" label={label('needreport')}>
          <Select options={enumOptions('need-report').map((o) => ({ value: o.value, label: o.label }))} />
        </Form.Item>
        {needreport === NeedReport.SimplePush && (
          <Form.Item name="deliveryurl" label={label('deliveryurl')} required>
            <Input placeholder="https://" onBlur={() => check('deliveryurl')} />
          </Form.Item>
        )}
        <Form.Item name="needmo" label={label('needmo')}>
          <Select options={enumOptions('need-mo').map((o) => ({ value: o.value, label: o.label }))} />
        </Form.Item>
        {needmo === NeedMo.Push && (
          <Form.Item name="mourl" label={label('mourl')} required>
            <Input placeholder="https://" onBlur={() => check('mourl')} />
          </Form.Item>
        )}
        <Form.Item name="email" label={label('email')} extra="可用于登录">
          <Input onBlur={() => check('email')} />
        </Form.Item>
        <Form.Item name="mobile" label={label('mobile')}>
          <Input onBlur={checkMobile} maxLength={11} />
        </Form.Item>
        {agentOwned === AgentOwned.Customer && (
          <>
            <Form.Item name="idType" label={label('idType')} required>
              <Select options={enumOptions('id-type').map((o) => ({ value: o.value, label: o.label }))} placeholder="请选择" />
            </Form.Item>
            <Form.Item name="idNbr" label={label('idNbr')} required>
              <Input maxLength={20} onBlur={() => check('idNbr')} />
            </Form.Item>
            <Form.Item name="imgUrl" label={label('imgUrl')} required extra="支持 gif、jpg、jpeg、png、bmp，最多五张，每张不超过2M">
              <Upload
                action="/api/file/upload"
                name="photoFile"
                listType="picture-card"
                accept=".gif,.jpg,.jpeg,.png,.bmp"
                headers={{ 'X-XSRF-TOKEN': xsrf() }}
                fileList={files}
                maxCount={5}
                beforeUpload={(f) => {
                  if (!IMAGE_TYPES.includes(f.type)) {
                    form.setFields([{ name: 'imgUrl', errors: ['请上传图片'] }]);
                    return Upload.LIST_IGNORE;
                  }
                  if (f.size > 2 * 1024 * 1024) {
                    form.setFields([{ name: 'imgUrl', errors: ['图片大小不能超过2M'] }]);
                    return Upload.LIST_IGNORE;
                  }
                  if (files.length >= 5) {
                    form.setFields([{ name: 'imgUrl', errors: ['最多五张图片'] }]);
                    return Upload.LIST_IGNORE;
                  }
                  return true;
                }}
                onChange={({ fileList }) => {
                  setFiles(fileList);
                  if (fileList.some((f) => f.status === 'error' || (f.response && f.response.code !== 0 && f.response.code !== undefined))) {
                    form.setFields([{ name: 'imgUrl', errors: [MESSAGES.imageUploadFailed] }]);
                  }
                }}
              >
                {files.length < 5 && (
                  <Space direction="vertical" size={0}>
                    <UploadOutlined />
                    上传
                  </Space>
                )}
              </Upload>
            </Form.Item>
          </>
        )}
        <Form.Item name="remarks" label={label('remarks')}>
          <Input.TextArea rows={2} onBlur={() => check('remarks')} />
        </Form.Item>
        <Form.Item wrapperCol={{ offset: 5 }}>
          <Button type="primary" onClick={submit} loading={saving}>
            确认开户
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}
