/**
 * 新增签名: agents pick one of their sub-accounts; rules and messages from schemas/forms/sign-add
 * (checked here and again by the server, which may answer its own message, e.g. a duplicate).
 */
import { useRef } from 'react';
import { useInvalidate } from '@refinedev/core';
import { ClientSelectWidget } from '@/components/ClientSelect/ClientSelect';
import { SchemaFormDialog } from '@/components/SchemaForm/SchemaFormDialog';
import signAddForm from '@/generated/forms/sign-add';
import type { SignAddForm } from '@/generated/schemas';
import { postForm } from '@/providers/http';
import { signs } from './data';

export interface SignAddDialogProps {
  open: boolean;
  agent: boolean;
  onClose: () => void;
  /** after a successful add, with the server's message */
  onAdded?: (msg: string) => void;
}

const widgets = { clientSelect: ClientSelectWidget };
const uiSchema = {
  clientid: { 'ui:widget': 'clientSelect' },
  sign: { 'ui:placeholder': '请输入签名', 'ui:help': '长度为2-12之间，无需填写【】' },
  remarks: { 'ui:widget': 'textarea', 'ui:placeholder': '选填，最多50个字符', 'ui:options': { rows: 3 } },
};

export function SignAddDialog({ open, agent, onClose, onAdded }: SignAddDialogProps) {
  const invalidate = useInvalidate();
  const added = useRef('添加成功');
  const save = async (v: SignAddForm) => {
    const payload = { ...(agent ? { clientid: v.clientid } : {}), sign: v.sign, remarks: v.remarks ?? '' };
    const body = await postForm('/sign/add', payload, { silent: true });
    added.current = body.msg ?? '添加成功';
    await invalidate({ resource: signs.name, invalidates: ['list'] });
  };
  return (
    <SchemaFormDialog<SignAddForm>
      open={open}
      title="新增签名"
      form={signAddForm}
      fields={agent ? ['clientid', 'sign', 'remarks'] : ['sign', 'remarks']}
      // a main account adds signs for one of its sub-accounts
      required={agent ? ['clientid'] : []}
      widgets={widgets}
      uiSchema={uiSchema}
      initial={{}}
      save={save}
      onClose={onClose}
      onDone={() => onAdded?.(added.current)}
      errorTestId="sign-add-error"
    />
  );
}

export default SignAddDialog;
