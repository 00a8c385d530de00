/**
 * /account/security/password: old, new and confirmation. 确认 is enabled only when all three are
 * filled. Rules and messages: schemas/forms/password-change.json. Agents (userType 1) send the
 * SHA-256 digests of the passwords, sub-accounts the passwords themselves (the server digests
 * them). Success: every other login of the account ends.
 */
import { useState } from 'react';
import { App, Button, Card, Form, Input, Space } from 'antd';
import { useNavigate } from 'react-router';
import { useCurrentUser } from '@/layout/hooks';
import { isAgent } from '@/providers/access';
import { accountApi } from './api';
import { passwordDigest as sha256 } from '@/lib/password';
import { showErrors, validateForm } from './validate';

const FIELDS = ['oldPassword', 'newPassword', 'confirmPassword'];

export default function PasswordPage() {
  const [form] = Form.useForm();
  const { user } = useCurrentUser();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [saving, setSaving] = useState(false);
  const values = Form.useWatch([], form) as Record<string, string | undefined> | undefined;
  const filled = FIELDS.every((f) => !!values?.[f]);

  const submit = async () => {
    const v = form.getFieldsValue(FIELDS) as Record<string, string>;
    const { errors } = validateForm('password-change', v);
    const first = showErrors(form, errors, FIELDS);
    if (first) return void message.error(first);
    const digest = isAgent(user);
    const payload = digest
      ? { oldPassword: sha256(v.oldPassword), newPassword: sha256(v.newPassword), confirmPassword: sha256(v.confirmPassword) }
      : { oldPassword: v.oldPassword, newPassword: v.newPassword, confirmPassword: v.confirmPassword };
    setSaving(true);
    try {
      await accountApi.changePassword(payload);
      message.success('密码修改成功');
      form.resetFields();
      navigate('/account/security');
    } catch {
      // the server's message is already shown
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title="修改密码">
      <Form form={form} labelCol={{ flex: '120px' }} style={{ maxWidth: 520 }} data-testid="password-form">
        <Form.Item label="原密码" name="oldPassword" required>
          <Input.Password placeholder="请输入原密码" autoComplete="current-password" />
        </Form.Item>
        <Form.Item label="新密码" name="newPassword" required extra="8-12位字母和数字组合">
          <Input.Password placeholder="请输入新密码" autoComplete="new-password" />
        </Form.Item>
        <Form.Item label="确认新密码" name="confirmPassword" required>
          <Input.Password placeholder="请再次输入新密码" autoComplete="new-password" />
        </Form.Item>
        <Form.Item label=" " colon={false}>
          <Space>
            <Button type="primary" disabled={!filled} loading={saving} onClick={submit}>
              确认
            </Button>
            <Button onClick={() => navigate('/account/security')}>返回</Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}
