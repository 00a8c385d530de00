/**
 * 新增签名: agents pick one of their sub-accounts; rules and messages from schemas/forms/sign-add
 * (checked here and again by the server, which may answer its own message, e.g. a duplicate).
 */
import { useState } from 'react';
import { Alert, Form, Input, Modal } from 'antd';
import { useInvalidate } from '@refinedev/core';
import { ClientSelect } from '@/components/ClientSelect/ClientSelect';
import { postForm, ApiError } from '@/providers/http';
import { schemas } from '@/schema';
import { checkForm } from '@/schema/validate';

export interface SignAddDialogProps {
  open: boolean;
  agent: boolean;
  onClose: () => void;
  /** after a successful add, with the server's message */
  onAdded?: (msg: string) => void;
}

interface Values {
  clientid?: string;
  sign?: string;
  remarks?: string;
}

const FORM = 'forms/sign-add';
const CLIENT_REQUIRED = (schemas.get(FORM).properties.clientid.errorMessage as { minLength: string }).minLength;

export function SignAddDialog({ open, agent, onClose, onAdded }: SignAddDialogProps) {
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();
  const invalidate = useInvalidate();
  const title = (f: string) => schemas.field(FORM, f)?.title;

  const submit = async () => {
    setError(undefined);
    const values = form.getFieldsValue();
    const payload: Values = { sign: values.sign ?? '', remarks: values.remarks ?? '', ...(agent ? { clientid: values.clientid ?? '' } : {}) };
    const checked = checkForm<Values>(FORM, { ...payload });
    const errors = [...(checked.ok ? [] : checked.errors)];
    if (agent && !payload.clientid && !errors.some((e) => e.field === 'clientid')) errors.unshift({ field: 'clientid', message: CLIENT_REQUIRED });
    form.setFields((['clientid', 'sign', 'remarks'] as const).map((name) => ({ name, errors: errors.filter((e) => e.field === name).map((e) => e.message) })));
    if (errors.length) return;
    setSaving(true);
    try {
      const body = await postForm('/sign/add', checked.data, { silent: true });
      form.resetFields();
      await invalidate({ resource: 'signs', invalidates: ['list'] });
      onAdded?.(body.msg ?? '添加成功');
      onClose();
    } catch (e) {
      const body: { msg?: string; data?: any } = e instanceof ApiError ? e.body : { msg: '接口异常' };
      const fieldErrors: { field: string; message: string }[] = body.data?.errors ?? [];
      if (fieldErrors.length) form.setFields(fieldErrors.map((f) => ({ name: f.field as keyof Values, errors: [f.message] })));
      setError(body.msg);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title="新增签名"
      open={open}
      onOk={submit}
      okText="确定"
      cancelText="取消"
      confirmLoading={saving}
      onCancel={() => {
        form.resetFields();
        setError(undefined);
        onClose();
      }}
      destroyOnHidden
      forceRender
    >
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="sign-add-error" />}
      <Form form={form} layout="vertical" preserve={false}>
        {agent && (
          <Form.Item name="clientid" label={title('clientid')} required>
            <ClientSelect />
          </Form.Item>
        )}
        <Form.Item name="sign" label={title('sign')} required extra="长度为2-12之间，无需填写【】">
          <Input placeholder="请输入签名" maxLength={20} />
        </Form.Item>
        <Form.Item name="remarks" label={title('remarks')}>
          <Input.TextArea placeholder="选填，最多50个字符" rows={3} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export default SignAddDialog;
