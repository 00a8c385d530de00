/**
 * A dialog around one schema form: the form's own fields, rules and messages (a form compiled from
 * schemas/forms), a 确定 button that submits it, the save in flight (button loading), the
 * server's refusal in an alert with its field errors on the fields, and on success the server's
 * message as a toast, then `onDone` and close. The values start from `initial` each time it opens.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Alert, App, Button, Modal, Space, Typography } from 'antd';
import type { RegistryWidgetsType, UiSchema } from '@rjsf/utils';
import type { FieldError } from '../../../common/schema';
import { ApiError } from '../../providers/http';
import type { CompiledForm } from './compiled';
import { SchemaForm } from './SchemaForm';

export interface SchemaFormDialogProps<T extends object> {
  open: boolean;
  title: ReactNode;
  form: CompiledForm;
  /** the fields to show, in order (the form's other values, e.g. clientId, go along unseen) */
  fields: string[];
  /** fields this dialog requires although the schema leaves them optional (see SchemaForm) */
  required?: string[];
  /** uiSchema, or one computed from the current values (fields that depend on a choice) */
  uiSchema?: UiSchema | ((data: Partial<T>) => UiSchema);
  widgets?: RegistryWidgetsType;
  /** the values when the dialog opens */
  initial: Partial<T>;
  /** keeps the values coherent as they change (e.g. drops what another choice made irrelevant) */
  normalize?: (next: Partial<T>, prev: Partial<T>) => Partial<T>;
  /** saves the valid, trimmed values; resolves with the message to show (default: the server's) */
  save: (data: T) => Promise<string | undefined | void>;
  onClose: () => void;
  onDone?: () => void;
  okText?: string;
  /** after each successful submit the 确定 button stays disabled this long, with `lockText` beside it (a refusal can be corrected at once) */
  lockMs?: number;
  lockText?: string;
  /** shown above the form (what the dialog is about) */
  children?: ReactNode;
  /** data-testid of the refusal alert */
  errorTestId?: string;
  /** asks before saving (money moves): the question for these values; 取消 returns to the form */
  confirm?: (data: T) => ReactNode;
}

function useLock(ms = 0) {
  const [locked, setLocked] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const lock = () => {
    if (!ms) return;
    setLocked(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setLocked(false), ms);
  };
  return { locked, lock };
}

export function SchemaFormDialog<T extends object>({
  open,
  title,
  form,
  fields,
  required,
  uiSchema,
  widgets,
  initial,
  normalize,
  save,
  onClose,
  onDone,
  okText = '确定',
  lockMs,
  lockText,
  children,
  errorTestId,
  confirm,
}: SchemaFormDialogProps<T>) {
  const { message, modal } = App.useApp();
  const formId = `schema-dialog-${useId().replace(/:/g, '')}`;
  const [data, setData] = useState<Partial<T>>(initial);
  const [saving, setSaving] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  const [fieldErrors, setFieldErrors] = useState<FieldError[]>();
  const { locked, lock } = useLock(lockMs);

  // a fresh start each time the dialog opens (initial is read only then): adjusted while rendering
  // the render in which `open` turns true, so the form never shows the previous opening's values
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setData(initial);
      setRefusal(undefined);
      setFieldErrors(undefined);
    }
  }

  const submit = async (values: T) => {
    if (saving || locked) return;
    if (
      confirm &&
      !(await modal.confirm({ title: '请确认', content: confirm(values), okText: '确定', cancelText: '取消' }))
    )
      return;
    setSaving(true);
    setRefusal(undefined);
    setFieldErrors(undefined);
    try {
      const msg = await save(values);
      lock();
      if (msg) message.success(msg);
      onDone?.();
      onClose();
    } catch (e) {
      const body: { msg?: string; data?: unknown } = e instanceof ApiError ? e.body : { msg: '接口异常' };
      const errors = (body.data as { errors?: unknown } | undefined)?.errors;
      if (Array.isArray(errors)) setFieldErrors(errors as FieldError[]);
      setRefusal(body.msg ?? '操作失败');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Space>
          {locked && lockText && <Typography.Text type="secondary">{lockText}</Typography.Text>}
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" htmlType="submit" form={formId} loading={saving} disabled={locked}>
            {okText}
          </Button>
        </Space>
      }
    >
      {children}
      {refusal && (
        <Alert type="error" showIcon message={refusal} style={{ marginBottom: 16 }} data-testid={errorTestId} />
      )}
      {open && (
        <SchemaForm<T>
          id={formId}
          schema={form}
          fields={fields}
          required={required}
          uiSchema={typeof uiSchema === 'function' ? uiSchema(data) : uiSchema}
          widgets={widgets}
          formData={data}
          onChange={(next) => setData((prev) => (normalize ? normalize(next, prev) : next))}
          serverErrors={fieldErrors}
          onSubmit={(values) => void submit(values)}
        />
      )}
    </Modal>
  );
}
