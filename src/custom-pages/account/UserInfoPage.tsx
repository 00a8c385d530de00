/**
 * /account/userinfo: e-mail and mobile of the logged-in account. 修改 switches to edit mode,
 * where the mobile is changed with an SMS code sent to the new number (country code select,
 * code button with a 60 s countdown, then 点击重新发送); 确认 saves through /admin/info/save,
 * 取消 leaves edit mode. Rules and messages: schemas/forms/user-info.json.
 */
import { useState } from 'react';
import { App, Button, Card, Descriptions, Form, Input, Select, Skeleton, Space } from 'antd';
import { accountApi, useCountryCodes, useRefreshAll, useUserInfo } from './api';
import { CountdownButton } from '@/components/CountdownButton';
import { firstErrorOf, validateForm } from './validate';

const FIELDS = ['email', 'countryCode', 'mobile', 'valcode'];

export default function UserInfoPage() {
  const { data: user, isLoading } = useUserInfo();
  const [editing, setEditing] = useState(false);
  const [saving, setSaving] = useState(false);
  const [errs, setErrs] = useState<Record<string, string>>({});
  const [form] = Form.useForm();
  const { data: countries } = useCountryCodes();
  const refreshAll = useRefreshAll();
  const { message } = App.useApp();

  if (isLoading || !user) return <Card title="用户信息"><Skeleton active /></Card>;

  const values = () => form.getFieldsValue(FIELDS) as Record<string, string | undefined>;
  const payload = () => {
    const v = values();
    return { email: v.email?.trim() || undefined, countryCode: v.countryCode ?? '', mobile: (v.mobile ?? '').trim(), valcode: (v.valcode ?? '').trim() };
  };

  const sendCode = async () => {
    const p = payload();
    const { errors } = validateForm('user-info', { ...p, valcode: 'x' });
    const err = firstErrorOf(errors, ['countryCode', 'mobile']);
    setErrs(err ? { [err.field]: err.message } : {});
    if (err) {
      message.error(err.message);
      return false;
    }
    await accountApi.sendPhoneCode({ mobile: p.mobile, countryCode: p.countryCode });
    message.success('验证码已发送');
    return true;
  };

  const save = async () => {
    const { data, errors } = validateForm('user-info', payload());
    setErrs(Object.fromEntries(errors.filter((e) => FIELDS.includes(e.field)).reverse().map((e) => [e.field, e.message])));
    if (errors.length) return void message.error(errors[0].message);
    setSaving(true);
    try {
      await accountApi.saveUserInfo(data);
      message.success('保存成功');
      setEditing(false);
      await refreshAll();
    } catch {
      // the server's message is already shown
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title="用户信息" data-testid="user-info">
      {!editing ? (
        <>
          <Descriptions column={1} bordered size="middle" style={{ maxWidth: 640 }}>
            <Descriptions.Item label="账户">{user.clientid}</Descriptions.Item>
            <Descriptions.Item label="邮箱">{user.email || '-'}</Descriptions.Item>
            <Descriptions.Item label="手机号">{user.mobile || '-'}</Descriptions.Item>
          </Descriptions>
          <Button
            type="primary"
            style={{ marginTop: 24 }}
            onClick={() => {
              form.setFieldsValue({ email: user.email, countryCode: '86', mobile: '', valcode: '' });
              setErrs({});
              setEditing(true);
            }}
          >
            修改
          </Button>
        </>
      ) : (
        <Form form={form} layout="horizontal" labelCol={{ flex: '100px' }} style={{ maxWidth: 560 }} initialValues={{ countryCode: '86' }}>
          <Form.Item label="邮箱" name="email" help={errs.email} validateStatus={errs.email ? 'error' : undefined}>
            <Input placeholder="请输入邮箱" />
          </Form.Item>
          <Form.Item label="原手机号">{user.mobile || '-'}</Form.Item>
          <Form.Item label="新手机号" required help={errs.countryCode ?? errs.mobile} validateStatus={errs.countryCode || errs.mobile ? 'error' : undefined}>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="countryCode" noStyle>
                <Select
                  style={{ width: 140 }}
                  showSearch
                  aria-label="国家代码"
                  optionFilterProp="label"
                  options={(countries.length ? countries : [{ countryCode: '86', countryName: '中国' }]).map((c) => ({ value: c.countryCode, label: `${c.countryName} +${c.countryCode}` }))}
                />
              </Form.Item>
              <Form.Item name="mobile" noStyle>
                <Input placeholder="请输入新手机号" aria-label="新手机号" />
              </Form.Item>
            </Space.Compact>
          </Form.Item>
          <Form.Item label="验证码" required help={errs.valcode} validateStatus={errs.valcode ? 'error' : undefined}>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="valcode" noStyle>
                <Input placeholder="请输入短信验证码" aria-label="验证码" maxLength={10} />
              </Form.Item>
              <CountdownButton
                onSend={sendCode}
                resendText="点击重新发送"
                // the HTTP client already shows a refused send's message
                onError={() => undefined}
              />
            </Space.Compact>
          </Form.Item>
          <Form.Item label=" " colon={false}>
            <Space>
              <Button type="primary" loading={saving} onClick={save}>
                确认
              </Button>
              <Button onClick={() => setEditing(false)}>取消</Button>
            </Space>
          </Form.Item>
        </Form>
      )}
    </Card>
  );
}
