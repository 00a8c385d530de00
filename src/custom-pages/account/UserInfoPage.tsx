/**
 * /account/userinfo: e-mail and mobile of the logged-in account (schemas/entities/current-user.json
 * lays the view out). 修改 switches to edit mode, where the mobile is changed with an SMS code sent
 * to the new number (country code select, code button with a 60 s countdown, then 点击重新发送);
 * 确认 saves through /admin/info/save, 取消 leaves edit mode. Fields, labels, rules, messages and
 * widgets: schemas/forms/user-info.json (and its `x-ui`).
 */
import { useMemo, useState } from 'react';
import { App, Button, Card, Form, Skeleton } from 'antd';
import type { UiSchema } from '@rjsf/utils';
import { SchemaDescriptions } from '@/components/SchemaDescriptions';
import { ConfirmCancel } from '@/components/SchemaForm/FormButtons';
import { SchemaForm, checkCompiled, useStableCallback } from '@/components/SchemaForm';
import { CodeButtonWidget } from '@/components/SchemaForm/widgets/CodeButtonWidget';
import { CountryCodeWidget } from '@/components/SchemaForm/widgets/CountryCodeWidget';
import userInfoForm from '@/generated/forms/user-info';
import type { FieldError } from '../../../common/schema';
import { schemaUi } from '@/schema';
import { accountApi, useRefreshAll, useUserInfo } from './api';
import { MESSAGES } from '../../../common/schema/messages';
import { useScreen } from '@/layout/screens';

const FIELDS = ['email', 'countryCode', 'mobile', 'valcode'];
// in the console bundle already: no lazy loading (the code button shows with the form)
const WIDGETS = { codeButton: CodeButtonWidget, countryCode: CountryCodeWidget };
type Values = { email?: string; countryCode: string; mobile: string; valcode: string };

function EditUserInfo({
  email,
  mobile,
  onDone,
  onCancel,
}: {
  email?: string;
  mobile?: string;
  onDone: () => Promise<void>;
  onCancel: () => void;
}) {
  const { message } = App.useApp();
  const [data, setData] = useState<Partial<Values>>({ email, countryCode: '86' });
  const [fieldErrors, setFieldErrors] = useState<FieldError[]>();
  const [saving, setSaving] = useState(false);

  const sendCode = useStableCallback(async () => {
    const target = { countryCode: data.countryCode ?? '', mobile: (data.mobile ?? '').trim() };
    // only the number's own rules (the code is what this sends)
    const err = checkCompiled(userInfoForm, { ...data, ...target, valcode: 'x' }).find(
      (e) => e.field === 'countryCode' || e.field === 'mobile',
    );
    setFieldErrors(err ? [err] : undefined);
    if (err) {
      message.error(err.message);
      return false;
    }
    await accountApi.sendPhoneCode(target);
    message.success('验证码已发送');
    return true;
  });

  const uiSchema: UiSchema = useMemo(() => {
    const ui = schemaUi<UiSchema>('forms/user-info');
    // the HTTP client already shows a refused send's message
    return {
      ...ui,
      valcode: {
        ...ui.valcode,
        'ui:options': { ...ui.valcode?.['ui:options'], onSend: sendCode, onSendError: () => undefined },
      },
    };
  }, [sendCode]);

  const save = async (v: Values) => {
    setSaving(true);
    try {
      await accountApi.saveUserInfo({
        email: v.email?.trim() || undefined,
        countryCode: v.countryCode,
        mobile: v.mobile.trim(),
        valcode: v.valcode.trim(),
      });
      message.success(MESSAGES.saved);
      await onDone();
    } catch {
      // the server's message is already shown
    } finally {
      setSaving(false);
    }
  };

  return (
    <div style={{ maxWidth: 560 }}>
      <Form.Item label="原手机号">{mobile || '-'}</Form.Item>
      <SchemaForm<Values>
        schema={userInfoForm}
        fields={FIELDS}
        uiSchema={uiSchema}
        widgets={WIDGETS}
        formData={data}
        onChange={setData}
        serverErrors={fieldErrors}
        onSubmit={(v) => void save(v)}
        onError={(errors) => errors[0] && message.error(errors[0].message)}
      >
        <ConfirmCancel saving={saving} onCancel={onCancel} />
      </SchemaForm>
    </div>
  );
}

export default function UserInfoPage() {
  const userInfoScreen = useScreen();
  const { data: user, isLoading } = useUserInfo();
  const [editing, setEditing] = useState(false);
  const refreshAll = useRefreshAll();

  if (isLoading || !user)
    return (
      <Card title={userInfoScreen.label}>
        <Skeleton active />
      </Card>
    );

  return (
    <Card title={userInfoScreen.label} data-testid="user-info">
      {!editing ? (
        <>
          <SchemaDescriptions entity="entities/current-user" record={user} style={{ maxWidth: 640 }} />
          <Button type="primary" style={{ marginTop: 24 }} onClick={() => setEditing(true)}>
            修改
          </Button>
        </>
      ) : (
        <EditUserInfo
          email={user.email}
          mobile={user.mobile}
          onCancel={() => setEditing(false)}
          onDone={async () => {
            setEditing(false);
            await refreshAll();
          }}
        />
      )}
    </Card>
  );
}
