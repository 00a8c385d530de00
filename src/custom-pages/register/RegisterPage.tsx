/**
 * /register: agent registration. The code button needs the slider captcha passed first (the
 * server refuses an anonymous SMS code without it), checks the number (forms/send-code), posts
 * POST /userCenter/sendCode with the slider's server and token, and then counts down 60 s; the
 * slider token is single-use, so the slider is re-armed after every send. Submitting is blocked while a request is
 * in flight; a 501 answer asks (提示) whether to replace an unfinished registration and, if so,
 * sends again with flag 1. Success shows the certification view (when the server opened a
 * session) or the "go to login" view.
 */
import { useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { App, Button, Checkbox, Form, Typography } from 'antd';
import type { UiSchema } from '@rjsf/utils';
import type { FieldError } from '../../../common/schema';
import type { RegisterForm } from '../../generated/schemas';
import { PublicLayout } from '../../components/PublicLayout';
import { checkCompiled, SchemaForm, useStableCallback } from '../../components/SchemaForm';
import registerForm from '../../generated/forms/register';
import sendCodeForm from '../../generated/forms/send-code';
import { ApiError, postForm } from '../../providers/http';
import { RegisteredAndLoggedIn, RegisteredGoLogin } from './RegisterResult';
import { ServiceAgreement } from './ServiceAgreement';
import type { SliderResult } from '../../components/SliderCaptcha';
import { MESSAGES } from '../../../common/schema/messages';

const FIELDS = ['realName', 'email', 'countryCode', 'mobile', 'token', 'validateCode', 'password', 'confirmPassword'];
const SLIDER_FIRST = MESSAGES.sliderRequired;
const MUST_AGREE = '请阅读并同意《服务协议》';

export default function RegisterPage() {
  const { message, modal } = App.useApp();
  const [formData, setFormData] = useState<Partial<RegisterForm>>({ countryCode: '86' });
  const [fieldErrors, setFieldErrors] = useState<FieldError[]>();
  const [agreed, setAgreed] = useState(false);
  const [agreementError, setAgreementError] = useState(false);
  const [agreementOpen, setAgreementOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ autoLogin: boolean } | null>(null);
  const inFlight = useRef(false);
  const [slider, setSlider] = useState<SliderResult | null>(null);
  const [sliderKey, setSliderKey] = useState(0);

  const onVerified = useStableCallback((pass: SliderResult) => {
    setSlider(pass);
    setFieldErrors((errs) => errs?.filter((e) => e.field !== 'token'));
  });

  const sendCode = useStableCallback(async () => {
    const target = { mobile: formData.mobile, countryCode: formData.countryCode };
    const errors = checkCompiled(sendCodeForm, target);
    if (!slider) errors.push({ field: 'token', message: SLIDER_FIRST });
    if (errors.length) {
      setFieldErrors(errors);
      return false;
    }
    try {
      const body = await postForm(
        '/userCenter/sendCode',
        { ...target, server: slider!.server, token: slider!.token },
        { silent: true },
      );
      message.success(body.msg || MESSAGES.codeSent);
    } finally {
      // the token is used up by any try: the next code needs a new pass
      setSlider(null);
      setSliderKey((k) => k + 1);
    }
  });

  const release = () => {
    inFlight.current = false;
    setBusy(false);
  };

  const register = async (data: RegisterForm, flag?: '1') => {
    if (inFlight.current) return;
    if (!agreed) {
      setAgreementError(true);
      return;
    }
    inFlight.current = true;
    setBusy(true);
    setFieldErrors(undefined);
    try {
      const { server: _server, token: _token, ...fields } = data;
      const body = await postForm<{ autoLogin?: boolean }>(
        '/userCenter/agentRegister',
        { ...fields, flag },
        { silent: true },
      );
      setDone({ autoLogin: !!body.data?.autoLogin });
    } catch (e) {
      const err = e instanceof ApiError ? e : new ApiError({ code: -1, msg: '接口异常' });
      if (err.code === 501) {
        // stays blocked until the question is answered
        modal.confirm({
          title: '提示',
          content: err.message,
          okText: '继续注册',
          cancelText: '取消',
          onOk: () => {
            release();
            return register(data, '1');
          },
          onCancel: release,
        });
        return;
      }
      if (err.fieldErrors) setFieldErrors(err.fieldErrors);
      message.error(err.message);
      release();
    }
  };

  const uiSchema: UiSchema = useMemo(
    () => ({
      realName: { 'ui:placeholder': '个人或公司名称' },
      email: { 'ui:placeholder': '用于登录和接收通知', 'ui:autocomplete': 'email' },
      countryCode: { 'ui:widget': 'countryCode' },
      mobile: { 'ui:placeholder': '手机号', 'ui:autocomplete': 'tel-national' },
      token: { 'ui:widget': 'slider', 'ui:label': false, 'ui:options': { onVerified, resetKey: sliderKey } },
      validateCode: { 'ui:widget': 'codeButton', 'ui:placeholder': '短信验证码', 'ui:options': { onSend: sendCode } },
      password: { 'ui:widget': 'password', 'ui:placeholder': '8-12位数字字母组合', 'ui:autocomplete': 'new-password' },
      confirmPassword: { 'ui:widget': 'password', 'ui:placeholder': '再次输入密码', 'ui:autocomplete': 'new-password' },
    }),
    [sendCode, onVerified, sliderKey],
  );

  if (done) {
    return (
      <PublicLayout title="注册账户">{done.autoLogin ? <RegisteredAndLoggedIn /> : <RegisteredGoLogin />}</PublicLayout>
    );
  }

  return (
    <PublicLayout title="注册账户" width={480}>
      <SchemaForm<RegisterForm>
        schema={registerForm}
        fields={FIELDS}
        uiSchema={uiSchema}
        formData={formData}
        onChange={setFormData}
        serverErrors={fieldErrors}
        onSubmit={(data) => void register(data)}
      >
        <Form.Item
          validateStatus={agreementError && !agreed ? 'error' : undefined}
          help={agreementError && !agreed ? MUST_AGREE : undefined}
        >
          <Checkbox checked={agreed} onChange={(e) => setAgreed(e.target.checked)}>
            我已阅读并同意
          </Checkbox>
          <Typography.Link onClick={() => setAgreementOpen(true)}>《服务协议》</Typography.Link>
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy} onClick={() => setAgreementError(!agreed)}>
          注册
        </Button>
        <div style={{ marginTop: 16, textAlign: 'center' }}>
          已有账户？<Link to="/login">立即登录</Link>
        </div>
      </SchemaForm>
      <ServiceAgreement open={agreementOpen} onClose={() => setAgreementOpen(false)} />
    </PublicLayout>
  );
}
