/**
 * 运营人员's dialogs.
 *
 * 新增运营人员: the fields of forms/operator-add.json (登录名, 角色, 动态验证码: on by default for a
 * 管理员, as the server does) and the password as typed, twice (forms/operator-password.json: at
 * least 8 characters, the two the same). Both forms are checked together; the password leaves the
 * browser as its SHA-256 digest only (lib/password, as at login), in operator-add's `password`. The
 * server's refusal (登录名已被使用 …) stays in the dialog, its fields' errors on the fields.
 *
 * The result (entities/operator-added.json): the operator added and, with a second factor, its TOTP
 * secret and otpauth:// URI, shown this once (the server keeps no way to show them again), with the
 * URI as a QR code (antd's QRCode) for the authenticator app.
 */
import { useRef, useState } from 'react';
import { Alert, Button, Modal, QRCode, Result, Space, Typography } from 'antd';
import operatorAddForm from '@/generated/forms/operator-add';
import operatorPasswordForm from '@/generated/forms/operator-password';
import { OperatorRole, type OperatorAddForm, type OperatorAdded, type OperatorPasswordForm } from '@/generated/schemas';
import { SchemaForm, type SchemaFormHandle } from '@/components/SchemaForm/SchemaForm';
import { checkForm } from '@/components/SchemaForm/compiled';
import { SchemaDescriptions } from '@/components/SchemaDescriptions';
import { ApiError } from '@/providers/http';
import { passwordDigest } from '@/lib/password';
import { schemas, schemaUi } from '@/schema';
import type { FieldError } from '../../../common/schema';
import { operatorApi } from './api';
import { operators } from './data';

const addUi = schemaUi('forms/operator-add');
const passwordUi = schemaUi('forms/operator-password');

/** a new operator's first values: a 审核员 without a second factor */
const FIRST: Partial<OperatorAddForm> = { role: OperatorRole.Reviewer, totp: false };

/** the second factor follows the role (on for a 管理员) until it is set by hand */
function followRole(next: Partial<OperatorAddForm>, prev: Partial<OperatorAddForm>): Partial<OperatorAddForm> {
  return next.role !== prev.role ? { ...next, totp: next.role === OperatorRole.Admin } : next;
}

export function OperatorAddDialog({
  open,
  onClose,
  onAdded,
}: {
  open: boolean;
  onClose: () => void;
  onAdded: (added: OperatorAdded, msg?: string) => void;
}) {
  const [data, setData] = useState<Partial<OperatorAddForm>>(FIRST);
  const [password, setPassword] = useState<Partial<OperatorPasswordForm>>({});
  const [saving, setSaving] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  const [fieldErrors, setFieldErrors] = useState<FieldError[]>();
  const main = useRef<SchemaFormHandle>(null);
  const secret = useRef<SchemaFormHandle>(null);

  // a fresh form each time the dialog opens (adjusted while rendering, as SchemaFormDialog does)
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setData(FIRST);
      setPassword({});
      setRefusal(undefined);
      setFieldErrors(undefined);
    }
  }

  // what the server receives: the typed password's digest in operator-add's `password` (hidden)
  const body = { ...data, password: passwordDigest(password.newPassword ?? '') };

  const submit = async () => {
    if (saving) return;
    const mainOk = main.current?.validate() ?? false;
    const passwordOk = secret.current?.validate() ?? false;
    const checked = checkForm<OperatorAddForm>(operatorAddForm, body);
    if (!mainOk || !passwordOk || !checked.ok) return;
    setSaving(true);
    setRefusal(undefined);
    setFieldErrors(undefined);
    try {
      const { added, msg } = await operatorApi.add(checked.data);
      onAdded(added, msg);
    } catch (e) {
      const answer = e instanceof ApiError ? e : undefined;
      setFieldErrors(answer?.fieldErrors);
      setRefusal(answer?.body.msg ?? '操作失败');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title="新增运营人员"
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={saving} onClick={() => void submit()}>
            新增
          </Button>
        </Space>
      }
    >
      {refusal && (
        <Alert
          type="error"
          showIcon
          message={refusal}
          style={{ marginBottom: 16 }}
          data-testid="operator-add-refusal"
        />
      )}
      {open && (
        <>
          <SchemaForm<OperatorAddForm>
            ref={main}
            schema={operatorAddForm}
            fields={['name', 'role', 'totp']}
            uiSchema={addUi}
            formData={body}
            onChange={(next) => setData((prev) => followRole(next, prev))}
            serverErrors={fieldErrors}
          />
          <div style={{ marginTop: 16 }}>
            <SchemaForm<OperatorPasswordForm>
              ref={secret}
              schema={operatorPasswordForm}
              fields={['newPassword', 'confirmPassword']}
              uiSchema={passwordUi}
              formData={password}
              onChange={setPassword}
            />
          </div>
        </>
      )}
    </Modal>
  );
}

const addedTitle = (field: 'totpSecret' | 'totpUri') => schemas.field('entities/operator-added', field)?.title;
/** 已开启 / 未开启: the words of the operators' list (entities/operator.json's x-table labels) */
const totpLabel = (on: boolean) =>
  schemas.field(operators.entity, 'totpEnabled')?.table?.labels?.[on ? 'true' : 'false'];

/** The operator just added, and its second factor's secret and URI: shown this once. */
export function OperatorAddedDialog({
  added,
  msg,
  onClose,
}: {
  added: OperatorAdded | null;
  msg?: string;
  onClose: () => void;
}) {
  return (
    <Modal
      open={!!added}
      title="新增运营人员"
      onCancel={onClose}
      maskClosable={false}
      width={600}
      footer={
        <Button type="primary" onClick={onClose}>
          {added?.totpSecret ? '我已保存，关闭' : '关闭'}
        </Button>
      }
    >
      {added && (
        <div data-testid="operator-added">
          <Result status="success" title={msg} style={{ padding: '8px 0 16px' }} />
          <SchemaDescriptions
            entity={operators.entity}
            record={added.operator}
            fields={['name', 'role', 'totpEnabled']}
            render={{ totpEnabled: (v) => totpLabel(v) }}
            column={1}
            size="small"
            style={{ marginBottom: 16 }}
          />
          {added.totpSecret && added.totpUri && (
            <>
              <Alert
                type="warning"
                showIcon
                style={{ marginBottom: 16 }}
                message="动态验证码密钥只显示这一次"
                description="请交给该运营人员，用身份验证器（如 Google Authenticator、Microsoft Authenticator）扫描二维码或输入密钥；关闭后无法再查看。"
              />
              <Space align="start" size={24}>
                <QRCode value={added.totpUri} size={168} data-testid="totp-qrcode" />
                <Space direction="vertical" size={4} style={{ maxWidth: 340 }}>
                  <Typography.Text type="secondary">{addedTitle('totpSecret')}</Typography.Text>
                  <Typography.Text code copyable data-testid="totp-secret">
                    {added.totpSecret}
                  </Typography.Text>
                  <Typography.Text type="secondary">{addedTitle('totpUri')}</Typography.Text>
                  <Typography.Text
                    copyable={{ text: added.totpUri }}
                    ellipsis={{ tooltip: added.totpUri }}
                    style={{ maxWidth: 340 }}
                    data-testid="totp-uri"
                  >
                    {added.totpUri}
                  </Typography.Text>
                </Space>
              </Space>
            </>
          )}
        </div>
      )}
    </Modal>
  );
}
