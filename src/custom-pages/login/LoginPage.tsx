/**
 * /login: user name, password, slider captcha, remember me. The slider must pass first; once it
 * has, the login is sent at once if the fields are valid (else on the button). The password
 * leaves the browser as its SHA-256 digest. On success: the `redirect` query (same-site paths
 * only) or "/"; an operator (the answer's userType 3) goes to the operator console, /ops (or the
 * `redirect` target when it is an /ops page), and the browser notes which kind of session it
 * holds (providers/sessionKind.ts). On failure: the server's message, and the slider is re-armed
 * (its token is single-use: the server consumes it at every attempt).
 *
 * An operator with a second factor: the first attempt answers 428 请输入动态验证码; the page then
 * shows the 动态验证码 field (6 digits, forms/login.json) and the next attempt (a new slider pass)
 * sends it; a wrong or reused code answers 400 动态验证码错误.
 */
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert, Button, Flex } from 'antd';
import type { FieldError } from '../../../common/schema';
import { PublicLayout } from '../../components/PublicLayout';
// not ../../components/SchemaForm (RJSF): the login's plain fields need none of it (bench/login-bundle.ts)
import { checkPlain } from '../../components/SchemaForm/check';
import { PlainSchemaForm, type PlainField } from '../../components/SchemaForm/PlainSchemaForm';
import { useStableCallback } from '../../components/SchemaForm/useStableCallback';
import { SliderCaptcha, type SliderResult } from '../../components/SliderCaptcha';
import { passwordDigest } from '../../lib/password';
import { ApiError, postForm } from '../../providers/http';
import { trimBySchema } from '../../../common/schema/trim';
import loginForm from '../../generated/forms/login';
import type { LoginForm } from '../../generated/schemas';
import { kindOfUserType, sessionKind } from '../../providers/sessionKind';
import { redirectAfterLogin } from './redirect';
import { rememberedUser } from './rememberedUser';
import { MESSAGES } from '../../../common/schema/messages';

const SLIDER_FIRST = MESSAGES.sliderRequired;
/** the login's answer when the operator's second factor is missing: the form then asks for it */
const TOTP_ASKED = 428;

export default function LoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [formData, setFormData] = useState<Partial<LoginForm>>(() => {
    const username = rememberedUser.get();
    return username ? { username, remember: true } : {};
  });
  const [captcha, setCaptcha] = useState<SliderResult | null>(null);
  const [sliderKey, setSliderKey] = useState(0);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ code: number; msg: string } | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldError[]>();
  // the server asked for the operator's 动态验证码 (428): the field shows from then on
  const [totpAsked, setTotpAsked] = useState(false);

  const inFlight = useRef(false);

  // the code is what the user types next: after the server asked for it, and after a wrong one
  useEffect(() => {
    if (totpAsked && failure) document.getElementById('root_totp')?.focus();
  }, [totpAsked, failure]);

  const login = async (data: Partial<LoginForm>, pass: SliderResult | null) => {
    if (inFlight.current) return;
    if (totpAsked && !data.totp) {
      setFieldErrors([{ field: 'totp', message: MESSAGES.totpRequired }]);
      document.getElementById('root_totp')?.focus();
      return;
    }
    if (!pass) {
      setFieldErrors([{ field: 'token', message: SLIDER_FIRST }]);
      return;
    }
    inFlight.current = true;
    setBusy(true);
    setFailure(null);
    setFieldErrors(undefined);
    try {
      const body = await postForm<{ userType?: string }>(
        '/login',
        {
          username: data.username,
          password: passwordDigest(data.password ?? ''),
          server: pass.server,
          token: pass.token,
          remember: data.remember ? 1 : undefined,
          totp: totpAsked ? data.totp : undefined,
        },
        { silent: true },
      );
      rememberedUser.set(data.remember ? data.username! : null);
      const kind = kindOfUserType(body.data?.userType);
      sessionKind.set(kind);
      void navigate(redirectAfterLogin(kind, params.get('redirect')), { replace: true });
    } catch (e) {
      const err = e instanceof ApiError ? e : new ApiError({ code: -1, msg: '接口异常' });
      setFailure({ code: err.code, msg: err.message });
      if (err.fieldErrors) setFieldErrors(err.fieldErrors);
      if (err.code === TOTP_ASKED) {
        setTotpAsked(true);
      } else if (totpAsked) {
        // a wrong or reused code: typed again
        setFormData((d) => ({ ...d, totp: undefined }));
      }
      // the captcha token is single-use: a new attempt needs a new pass
      setCaptcha(null);
      setSliderKey((k) => k + 1);
      setBusy(false);
      inFlight.current = false;
    }
  };

  const onVerified = useStableCallback((pass: SliderResult) => {
    setCaptcha(pass);
    setFieldErrors(undefined);
    const data = trimBySchema(loginForm.schema, formData);
    if (checkPlain(loginForm, data).length === 0) void login(data, pass);
  });

  const fields: PlainField[] = [
    { name: 'username', placeholder: '帐户名/邮箱/手机号', autoComplete: 'username' },
    { name: 'password', widget: 'password', placeholder: '密码', autoComplete: 'current-password' },
    ...(totpAsked ? [{ name: 'totp', placeholder: '身份验证器上的6位数字', autoComplete: 'one-time-code' }] : []),
    { name: 'token', render: (id) => <SliderCaptcha id={id} resetKey={sliderKey} onVerified={onVerified} /> },
    { name: 'remember', widget: 'checkbox' },
  ];

  return (
    <PublicLayout title="账户登录">
      {failure && (
        <Alert
          type={failure.code === 423 ? 'error' : failure.code === TOTP_ASKED ? 'info' : 'warning'}
          showIcon
          message={failure.msg}
          description={failure.code === 423 ? '如需帮助，请点击右下角“在线咨询”联系客服。' : undefined}
          style={{ marginBottom: 16 }}
          role="alert"
        />
      )}
      <PlainSchemaForm<LoginForm>
        schema={loginForm}
        fields={fields}
        formData={formData}
        onChange={setFormData}
        serverErrors={fieldErrors}
        onSubmit={(data) => void login(data, captcha)}
      >
        <Button type="primary" htmlType="submit" block loading={busy}>
          登录
        </Button>
        <Flex justify="space-between" style={{ marginTop: 16 }}>
          <Link to="/register">注册</Link>
          <Link to="/forget">忘记密码</Link>
        </Flex>
      </PlainSchemaForm>
    </PublicLayout>
  );
}
