/**
 * /account/security/password: old, new and confirmation. 确认 is enabled only when all three are
 * filled. Fields, labels, rules and messages: schemas/forms/password-change.json (its `x-ui`:
 * password inputs, placeholders, the new password's hint). Agents (userType 1) send the SHA-256
 * digests of the passwords, sub-accounts the passwords themselves (the server digests them).
 * Success: every other login of the account ends.
 */
import { useState } from 'react';
import { App, Button, Card, Space } from 'antd';
import { useNavigate } from 'react-router';
import { SchemaForm } from '@/components/SchemaForm';
import passwordChangeForm from '@/generated/forms/password-change';
import { useCurrentUser } from '@/layout/hooks';
import { isAgent } from '@/providers/access';
import { schemaUi } from '@/schema';
import { accountApi } from './api';
import { passwordDigest as sha256 } from '@/lib/password';
import { MESSAGES } from '../../../common/schema/messages';
import { useScreen } from '@/layout/screens';

const FIELDS = ['oldPassword', 'newPassword', 'confirmPassword'] as const;
type Values = Record<(typeof FIELDS)[number], string>;

export default function PasswordPage() {
  const securityScreen = useScreen('account_security');
  const passwordScreen = useScreen();
  const { user } = useCurrentUser();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [saving, setSaving] = useState(false);
  const [values, setValues] = useState<Partial<Values>>({});
  // a fresh, empty form after a change (the form is keyed by it)
  const [round, setRound] = useState(0);
  const filled = FIELDS.every((f) => !!values[f]);

  const submit = async (v: Values) => {
    const payload = isAgent(user)
      ? {
          oldPassword: sha256(v.oldPassword),
          newPassword: sha256(v.newPassword),
          confirmPassword: sha256(v.confirmPassword),
        }
      : { oldPassword: v.oldPassword, newPassword: v.newPassword, confirmPassword: v.confirmPassword };
    setSaving(true);
    try {
      await accountApi.changePassword(payload);
      message.success(MESSAGES.passwordChanged);
      setValues({});
      setRound((r) => r + 1);
      void navigate(securityScreen.path);
    } catch {
      // the server's message is already shown
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={passwordScreen.label}>
      <div style={{ maxWidth: 520 }} data-testid="password-form">
        <SchemaForm<Values>
          key={round}
          schema={passwordChangeForm}
          fields={[...FIELDS]}
          uiSchema={schemaUi('forms/password-change')}
          formData={values}
          onChange={setValues}
          onSubmit={(v) => void submit(v)}
          onError={(errors) => errors[0] && message.error(errors[0].message)}
        >
          <Space>
            <Button type="primary" htmlType="submit" disabled={!filled} loading={saving}>
              确认
            </Button>
            <Button onClick={() => navigate(securityScreen.path)}>返回</Button>
          </Space>
        </SchemaForm>
      </div>
    </Card>
  );
}
