/**
 * 新增模板 / 编辑模板: sub-account (agents), attribute, SMS type (product-package mode), type,
 * business, sign, content with a live character counter and the variable count. Checked with the
 * shared schema and rules before sending; the server's refusals (e.g. sensitive words) are shown
 * on the field and above the form.
 */
import { useEffect, useState } from 'react';
import { Alert, App, Form, Input, Modal, Radio, Select, Typography } from 'antd';
import { Link } from 'react-router';
import { useApprovedSigns } from '@/resources/signs/useApprovedSigns';
import { useScreenPath } from '@/layout/screens';
import { useInvalidate } from '@refinedev/core';
import { enumOptions, schemas } from '@/schema';
import { ApiError, type ApiBody } from '@/providers/http';
import type { FieldError } from '../../../common/schema';
import { saveTemplate } from './api';
import { TemplateAccountSelect } from './TemplateAccountSelect';
import {
  contentMaxLength,
  countVariables,
  TEMPLATE_FORM,
  validateTemplate,
  type TemplateFormValues,
} from './validation';
import { OperationMode, SmsType, TemplateBusiness, TemplateCategory, TemplateType } from '@/generated/schemas';
import { MESSAGES } from '../../../common/schema/messages';
import { templates } from './data';

export interface TemplateFormDialogProps {
  open: boolean;
  /** the template being edited; none: a new one */
  template?: TemplateFormValues | null;
  agent: boolean;
  /** the agent's clientid (agents: its sub-accounts are offered) */
  agentId?: string;
  operationMode: string;
  onClose: () => void;
  onSaved?: () => void;
}

const DEFAULTS: TemplateFormValues = {
  smsType: TemplateCategory.Industry,
  templateType: TemplateType.Fixed,
  business: TemplateBusiness.Domestic,
  smstype: SmsType.VerificationCode,
  sign: '',
  content: '',
};
const FORM_FIELDS = Object.keys(schemas.get(TEMPLATE_FORM).properties ?? {}).filter((f) => f !== 'templateId');
const title = (f: string) => schemas.field(TEMPLATE_FORM, f)?.title ?? f;
const smsTypeLabel = (v: number) => enumOptions('sms-type').find((o) => o.value === v)?.label ?? String(v);

export function TemplateFormDialog({
  open,
  template,
  agent,
  agentId,
  operationMode,
  onClose,
  onSaved,
}: TemplateFormDialogProps) {
  const signReportPath = useScreenPath('template_SignReport');
  const [form] = Form.useForm<TemplateFormValues>();
  const { message } = App.useApp();
  const invalidate = useInvalidate();
  const [saving, setSaving] = useState(false);
  const [serverError, setServerError] = useState<string>();
  const editing = !!template?.templateId;
  const content = Form.useWatch('content', form) ?? '';
  const smsType = Form.useWatch('smsType', form);
  const chosenClient = Form.useWatch('clientId', form);
  // whose approved signs are offered: the chosen sub-account (agents), else the account itself
  const signOwner: string | undefined = agent ? chosenClient || undefined : agentId;
  const { signs, loaded: signsLoaded, loading: signsLoading } = useApprovedSigns(signOwner);
  const editingSign = template?.sign ?? '';
  const signKey = signs.join('\n');
  // a sign the (newly chosen) account has not had approved is not kept; a single approved one is chosen
  useEffect(() => {
    if (!signsLoaded) return;
    const current = form.getFieldValue('sign') as string | undefined;
    if (current && !signs.includes(current)) form.setFieldValue('sign', '');
    else if (!current && signs.length === 1) form.setFieldValue('sign', signs[0]);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on a new list only
  }, [signsLoaded, signKey]);
  const packageMode = operationMode === OperationMode.Package;

  // each opening (or another template while open) starts without the previous refusal: adjusted while rendering
  const [shown, setShown] = useState({ open, template });
  if (open !== shown.open || template !== shown.template) {
    setShown({ open, template });
    if (open) setServerError(undefined);
  }

  useEffect(() => {
    if (!open) return;
    // the form instance outlives the dialog's content: start from this template's values each time
    form.resetFields();
    form.setFieldsValue({ ...DEFAULTS, ...template });
  }, [open, template, form]);

  // marketing templates are always 营销; industry ones choose 验证码 or 通知
  useEffect(() => {
    if (smsType === TemplateCategory.MemberMarketing) form.setFieldValue('smstype', SmsType.Marketing);
    else if (smsType === TemplateCategory.Industry && form.getFieldValue('smstype') === SmsType.Marketing)
      form.setFieldValue('smstype', SmsType.VerificationCode);
  }, [smsType, form]);

  const showErrors = (errors: FieldError[]) =>
    form.setFields(
      errors.filter((e) => e.field).map((e) => ({ name: e.field as keyof TemplateFormValues, errors: [e.message] })),
    );

  const submit = async () => {
    setServerError(undefined);
    // only the form's own fields (the edited row carries list columns too)
    const all = form.getFieldsValue(true) as Record<string, unknown>;
    const values = Object.fromEntries(
      FORM_FIELDS.map((f) => [f, all[f]]).filter(([, v]) => v !== undefined),
    ) as TemplateFormValues;
    if (template?.templateId) values.templateId = template.templateId;
    if (!agent) delete values.clientId;
    if (!packageMode) delete values.smstype;
    const errors = validateTemplate(values, { agent, operationMode });
    // clear old messages, then show the current ones
    form.setFields(
      (['clientId', 'smsType', 'smstype', 'templateType', 'business', 'sign', 'content'] as const).map((name) => ({
        name,
        errors: [],
      })),
    );
    if (errors.length) return showErrors(errors);
    setSaving(true);
    try {
      const body = await saveTemplate({ ...values, sign: values.sign?.trim() });
      message.success(body.msg || (editing ? MESSAGES.updated : '新增成功'));
      await invalidate({ resource: templates.name, invalidates: ['list'] });
      onSaved?.();
      onClose();
    } catch (e) {
      const body: ApiBody = e instanceof ApiError ? e.body : { code: -1, msg: '接口异常' };
      setServerError(body.msg);
      const fieldErrors = e instanceof ApiError ? e.fieldErrors : undefined;
      if (fieldErrors) showErrors(fieldErrors);
    } finally {
      setSaving(false);
    }
  };

  const max = contentMaxLength();
  const variables = countVariables(content);
  return (
    <Modal
      open={open}
      title={editing ? '编辑模板' : '新增模板'}
      okText="提交审核"
      cancelText="取消"
      confirmLoading={saving}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
      width={640}
    >
      {serverError && (
        <Alert
          type="error"
          showIcon
          message={serverError}
          style={{ marginBottom: 16 }}
          data-testid="template-save-error"
        />
      )}
      <Form
        form={form}
        name="template"
        layout="horizontal"
        labelCol={{ span: 5 }}
        wrapperCol={{ span: 18 }}
        preserve={false}
        initialValues={{ ...DEFAULTS, ...template }}
      >
        {agent && (
          <Form.Item name="clientId" label={title('clientId')} required>
            <TemplateAccountSelect agentId={agentId} allowClear={false} />
          </Form.Item>
        )}
        <Form.Item name="smsType" label={title('smsType')} required>
          <Radio.Group options={enumOptions('template-category').map((o) => ({ value: o.value, label: o.label }))} />
        </Form.Item>
        {packageMode && (
          <Form.Item name="smstype" label={title('smstype')} required>
            <Radio.Group
              options={(smsType === TemplateCategory.MemberMarketing
                ? [SmsType.Marketing]
                : [SmsType.VerificationCode, SmsType.Notification]
              ).map((v) => ({
                value: v,
                label: smsTypeLabel(v),
                disabled: smsType === TemplateCategory.MemberMarketing,
              }))}
            />
          </Form.Item>
        )}
        <Form.Item
          name="templateType"
          label={title('templateType')}
          required
          extra="变量模板的变量以 {变量名} 标记，例如：您的验证码为{code}"
        >
          <Radio.Group options={enumOptions('template-type').map((o) => ({ value: o.value, label: o.label }))} />
        </Form.Item>
        <Form.Item name="business" label={title('business')} required>
          <Radio.Group options={enumOptions('template-business').map((o) => ({ value: o.value, label: o.label }))} />
        </Form.Item>
        <Form.Item
          name="sign"
          label={title('sign')}
          required
          extra={
            signsLoaded && !signs.length ? (
              <span data-testid="template-no-sign">
                该账户暂无审核通过的签名，请先到 <Link to={signReportPath}>签名报备</Link> 申请签名
              </span>
            ) : undefined
          }
        >
          {/* only a sign the account has had approved (the server refuses any other) */}
          <Select<string>
            options={[...new Set([...signs, ...(signsLoaded || !editingSign ? [] : [editingSign])])].map((s) => ({
              value: s,
              label: s,
            }))}
            loading={signsLoading}
            disabled={!signOwner || (signsLoaded && !signs.length)}
            showSearch
            placeholder={!signOwner ? '请先选择子账户' : '请选择已审核通过的签名'}
            notFoundContent="暂无审核通过的签名"
            data-testid="template-sign"
          />
        </Form.Item>
        <Form.Item name="content" label={title('content')} required style={{ marginBottom: 4 }}>
          <Input.TextArea rows={5} placeholder="请输入模板内容" />
        </Form.Item>
        <Form.Item wrapperCol={{ offset: 5, span: 18 }} style={{ marginBottom: 0 }}>
          <Typography.Text type={content.length > max ? 'danger' : 'secondary'} data-testid="template-counter">
            已输入 {content.length}/{max} 个字符，变量 {variables} 个
          </Typography.Text>
        </Form.Item>
      </Form>
    </Modal>
  );
}

export default TemplateFormDialog;
