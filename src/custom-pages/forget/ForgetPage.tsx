/**
 * /forget: recover the password by e-mail or by phone. The code request is checked against
 * forms/password-code (address or number, image captcha) and may be repeated after 6 s; the
 * whole form is checked against forms/password-reset. Success leads back to /login.
 */
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { App, Button } from 'antd';
import type { UiSchema } from '@rjsf/utils';
import type { FieldError } from '../../../common/schema';
import type { PasswordResetForm } from '../../generated/schemas';
import { PublicLayout } from '../../components/PublicLayout';
import { checkCompiled, SchemaForm, useStableCallback, withShownFields } from '../../components/SchemaForm';
import passwordCodeForm from '../../generated/forms/password-code';
import passwordResetForm from '../../generated/forms/password-reset';
import { ApiError, postForm } from '../../providers/http';
import { ImageCaptchaWidget } from './ImageCaptchaWidget';
import { RecoveryWay } from '@/generated/schemas';
import { MESSAGES } from '../../../common/schema/messages';

type ForgetForm = PasswordResetForm & { captcha?: string };

const BY_EMAIL = RecoveryWay.Email;
const RESEND_SECONDS = 6;
const FIELDS = ['sendType', 'countryCode', 'email', 'captcha', 'validateCode', 'password', 'confirmPassword'];
const widgets = { imageCaptcha: ImageCaptchaWidget };

/**
 * The reset form (forms/password-reset) plus the code request's image captcha field. The code
 * request's own rules (a valid e-mail / number, the captcha) are checked when a code is asked
 * for, as the server checks each call against its own schema. Compiled at build time (no ajv, no
 * `eval` in the page).
 */
const forgetForm = withShownFields(passwordResetForm, { captcha: passwordCodeForm.schema.properties?.captcha ?? {} });

const captchaSrc = () => `/api/captcha.jpg?t=${Date.now()}`;

export default function ForgetPage() {
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [formData, setFormData] = useState<Partial<ForgetForm>>({ sendType: BY_EMAIL, countryCode: '86' });
  const [fieldErrors, setFieldErrors] = useState<FieldError[]>();
  const [captcha, setCaptcha] = useState(captchaSrc);
  const [busy, setBusy] = useState(false);
  const byEmail = formData.sendType !== RecoveryWay.Mobile;

  /** what identifies the account: the address, or the number with its country code */
  const target = (d: Partial<ForgetForm>) =>
    d.sendType === RecoveryWay.Mobile
      ? { sendType: RecoveryWay.Mobile, email: d.email, countryCode: d.countryCode }
      : { sendType: RecoveryWay.Email, email: d.email };

  const refreshCaptcha = useStableCallback(() => setCaptcha(captchaSrc()));

  const sendCode = useStableCallback(async () => {
    const request = { ...target(formData), captcha: formData.captcha };
    const errors = checkCompiled(passwordCodeForm, request);
    if (errors.length) {
      setFieldErrors(errors);
      return false;
    }
    try {
      await postForm('/password/email', request, { silent: true });
      message.success(MESSAGES.codeSent);
    } finally {
      // the image captcha is single-use
      refreshCaptcha();
      setFormData((d) => ({ ...d, captcha: undefined }));
    }
  });

  const onSendError = useStableCallback((e: unknown) =>
    message.error(`发送失败：${e instanceof Error ? e.message : '接口异常'}`),
  );

  const change = (next: Partial<ForgetForm>) => {
    // another way of recovery: the old address or number no longer applies
    setFormData(next.sendType !== formData.sendType ? { ...next, email: undefined } : next);
  };

  const submit = async (data: ForgetForm) => {
    if (busy) return;
    setBusy(true);
    setFieldErrors(undefined);
    try {
      const { validateCode, password, confirmPassword } = data;
      await postForm(
        '/password/change',
        { ...target(data), validateCode, password, confirmPassword },
        { silent: true },
      );
      message.success('密码已重置，请使用新密码登录');
      void navigate('/login', { replace: true });
    } catch (e) {
      const err = e instanceof ApiError ? e : new ApiError({ code: -1, msg: '接口异常' });
      if (err.fieldErrors) setFieldErrors(err.fieldErrors);
      message.error(err.message);
      setBusy(false);
    }
  };

  const uiSchema: UiSchema = useMemo(
    () => ({
      sendType: { 'ui:widget': 'radio', 'ui:label': false, 'ui:options': { inline: true } },
      countryCode: byEmail ? { 'ui:widget': 'hidden' } : { 'ui:widget': 'countryCode' },
      email: byEmail
        ? { 'ui:title': '邮箱', 'ui:placeholder': '注册时填写的邮箱', 'ui:autocomplete': 'email' }
        : { 'ui:title': '手机号', 'ui:placeholder': '注册时填写的手机号', 'ui:autocomplete': 'tel-national' },
      captcha: {
        'ui:widget': 'imageCaptcha',
        'ui:placeholder': '图形验证码',
        'ui:options': { src: captcha, onRefresh: refreshCaptcha },
      },
      validateCode: {
        'ui:widget': 'codeButton',
        'ui:placeholder': byEmail ? '邮箱验证码' : '短信验证码',
        'ui:options': { onSend: sendCode, seconds: RESEND_SECONDS, onSendError },
      },
      password: {
        'ui:widget': 'password',
        'ui:placeholder': '8-16位，须同时包含字母和数字',
        'ui:autocomplete': 'new-password',
      },
      confirmPassword: {
        'ui:widget': 'password',
        'ui:placeholder': '再次输入新密码',
        'ui:autocomplete': 'new-password',
      },
    }),
    [byEmail, captcha, refreshCaptcha, sendCode, onSendError],
  );

  return (
    <PublicLayout title="找回密码" width={460}>
      <SchemaForm<ForgetForm>
        schema={forgetForm}
        fields={FIELDS}
        uiSchema={uiSchema}
        widgets={widgets}
        formData={formData}
        onChange={change}
        serverErrors={fieldErrors}
        onSubmit={(data) => void submit(data)}
      >
        <Button type="primary" htmlType="submit" block loading={busy}>
          重置密码
        </Button>
        <div style={{ marginTop: 16, textAlign: 'center' }}>
          <Link to="/login">返回登录</Link>
        </div>
      </SchemaForm>
    </PublicLayout>
  );
}
