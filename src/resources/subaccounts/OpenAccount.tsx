/**
 * 自助开户 (/customer/selfsevicelayout/manager/open): agents in package mode, certified. Fields,
 * rules, messages and layout (`x-ui`: callback addresses only with their pushes, the customer's
 * certification with the imageUpload widget): schemas/forms/open-account.json, shown by SchemaForm.
 */
import { useMemo, useState } from 'react';
import { Alert, App, Button, Card, Result, Typography } from 'antd';
import { Link, useNavigate } from 'react-router';
import { SchemaDescriptions } from '@/components/SchemaDescriptions';
import { SchemaForm } from '@/components/SchemaForm';
import { UploadAwareSubmit } from '@/components/SchemaForm/FormButtons';
import openAccountForm from '@/generated/forms/open-account';
import type { OpenedAccount } from '@/generated/schemas';
import type { FieldError } from '../../../common/schema';
import { schemaUi } from '@/schema';
import { ApiError } from '@/providers/http';
import { useCertification, useCurrentUser } from '@/layout/hooks';
import { subAccountApi } from './api';
import { copyText } from './dialogs';
import { AgentOwned, NeedMo, NeedReport, OauthStatus } from '@/generated/schemas';
import { MESSAGES, requiredMessage } from '../../../common/schema/messages';
import openAccountSchema from '../../../schemas/forms/open-account.json';
import { useScreen } from '@/layout/screens';

const FORM = 'forms/open-account';
const INITIAL = { agentOwned: AgentOwned.AgentOwned, needreport: NeedReport.None, needmo: NeedMo.None };
const MOBILE = /^1[0-9]{10}$/;
/** spec 01 §5: the name is required (账户名称不能为空) and checked when it loses the focus */
const NAME_REQUIRED = requiredMessage(openAccountSchema, 'name');

export type Opened = OpenedAccount;

/** what is sent: the fields the choices show, without the empty ones */
function payload(v: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...v };
  for (const k of Object.keys(out)) if (out[k] === undefined || out[k] === null || out[k] === '') delete out[k];
  if (out.agentOwned === AgentOwned.AgentOwned) for (const k of ['idType', 'idNbr', 'imgUrl']) delete out[k];
  if (out.needreport !== NeedReport.SimplePush) delete out.deliveryurl;
  if (out.needmo !== NeedMo.Push) delete out.mourl;
  return out;
}

export function OpenResult({ opened, onAgain }: { opened: Opened; onAgain: () => void }) {
  const managerScreen = useScreen('service_manager');
  const { message } = App.useApp();
  const navigate = useNavigate();
  return (
    <Result
      status="success"
      title={MESSAGES.opened}
      subTitle={MESSAGES.passwordShownOnce}
      extra={[
        <Button
          key="copy"
          onClick={async () =>
            (await copyText(`账户：${opened.clientid}\n密码：${opened.password}`))
              ? message.success('复制成功')
              : message.error('复制失败，您的浏览器不支持自动复制，请手动复制')
          }
        >
          复制账户信息
        </Button>,
        <Button key="again" onClick={onAgain}>
          继续开户
        </Button>,
        <Button key="back" type="primary" onClick={() => navigate(managerScreen.path)}>
          返回{managerScreen.label}
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
  const openScreen = useScreen();
  const { user } = useCurrentUser();
  const { info, isLoading } = useCertification(user);
  const [values, setValues] = useState<Record<string, unknown>>(INITIAL);
  const [round, setRound] = useState(0);
  const [uploading, setUploading] = useState(false);
  const [errors, setErrors] = useState<FieldError[]>();
  /** the name's blur check (the form's own rules run at submit) */
  const [nameError, setNameError] = useState<FieldError>();
  const shownErrors = useMemo(() => (nameError ? [nameError, ...(errors ?? [])] : errors), [nameError, errors]);
  const checkName = (value: unknown) =>
    setNameError(String(value ?? '').trim() ? undefined : { field: 'name', message: NAME_REQUIRED });
  const [saving, setSaving] = useState(false);
  const [opened, setOpened] = useState<Opened>();
  const [uiSchema] = useState(() => {
    const ui = schemaUi(FORM);
    return { ...ui, imgUrl: { ...ui.imgUrl, 'ui:options': { ...ui.imgUrl['ui:options'], onBusy: setUploading } } };
  });

  /** the mobile number is still free (GET /client/account/validate/mobile); a refusal shows on the field */
  const checkMobile = async (value: unknown) => {
    const mobile = String(value ?? '').trim();
    if (!MOBILE.test(mobile)) return true;
    try {
      await subAccountApi.validateMobile(mobile);
      return true;
    } catch (e) {
      setErrors([
        { field: 'mobile', message: e instanceof ApiError ? (e.body.msg ?? MESSAGES.mobileExists) : '接口异常' },
      ]);
      return false;
    }
  };
  const submit = async (v: Record<string, unknown>) => {
    setNameError(undefined);
    if (!(await checkMobile(v.mobile))) return;
    setSaving(true);
    try {
      const body = await subAccountApi.open(payload(v));
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
            setValues(INITIAL);
            setErrors(undefined);
            setNameError(undefined);
            setRound((n) => n + 1);
          }}
        />
      </Card>
    );

  const certified = String(info?.oauth_status) === String(OauthStatus.Certified);
  // the certification status is known only once the user and its base info have loaded
  const loading = !user || isLoading || !info;
  return (
    <Card title={openScreen.label} loading={loading} data-testid="open-account">
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
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16, maxWidth: 640 }}
        message={MESSAGES.loginNameGenerated}
        data-testid="login-name-generated"
      />
      <div style={{ maxWidth: 640 }}>
        <SchemaForm
          key={round}
          schema={openAccountForm}
          uiSchema={uiSchema}
          formData={values}
          onChange={setValues}
          onBlur={(field, value) =>
            field === 'mobile' ? void checkMobile(value) : field === 'name' && checkName(value)
          }
          serverErrors={shownErrors}
          // a submit's own checks speak for the name then (not twice)
          onError={() => setNameError(undefined)}
          disabled={!certified}
          onSubmit={(v) => void submit(v)}
        >
          <UploadAwareSubmit uploading={uploading} loading={saving} disabled={!certified}>
            确认开户
          </UploadAwareSubmit>
        </SchemaForm>
      </div>
    </Card>
  );
}
