/**
 * 添加黑名单号码: several numbers at once (one a line or comma-separated); an agent may pick one of
 * its sub-accounts (none: its own list). Rules and messages from schemas/forms/blacklist-add.
 */
import { useRef } from 'react';
import { useInvalidate } from '@refinedev/core';
import { ClientSelectWidget } from '@/components/ClientSelect/ClientSelect';
import { SchemaFormDialog } from '@/components/SchemaForm/SchemaFormDialog';
import blacklistAddForm from '@/generated/forms/blacklist-add';
import type { BlacklistAddForm } from '@/generated/schemas';
import { postForm } from '@/providers/http';
import { blacklist } from './data';

export interface BlacklistAddDialogProps {
  open: boolean;
  agent: boolean;
  onClose: () => void;
  /** after a successful add, with the server's message (how many were new) */
  onAdded?: (msg: string) => void;
}

const widgets = { clientSelect: ClientSelectWidget };
const uiSchema = {
  clientid: { 'ui:widget': 'clientSelect', 'ui:help': '不选择时加入本账户的黑名单' },
  phones: {
    'ui:widget': 'textarea',
    'ui:placeholder': '每行一个号码，或以逗号分隔，一次最多10000个',
    'ui:options': { rows: 6 },
  },
  remark: { 'ui:placeholder': '选填，最多50个字符' },
};

export function BlacklistAddDialog({ open, agent, onClose, onAdded }: BlacklistAddDialogProps) {
  const invalidate = useInvalidate();
  const added = useRef('');
  const save = async (v: BlacklistAddForm) => {
    const body = await postForm(
      '/blacklist/add',
      { ...(agent && v.clientid ? { clientid: v.clientid } : {}), phones: v.phones, remark: v.remark ?? '' },
      { silent: true },
    );
    added.current = body.msg ?? '';
    await invalidate({ resource: blacklist.name, invalidates: ['list'] });
  };
  return (
    <SchemaFormDialog<BlacklistAddForm>
      open={open}
      title="添加黑名单号码"
      form={blacklistAddForm}
      fields={agent ? ['clientid', 'phones', 'remark'] : ['phones', 'remark']}
      widgets={widgets}
      uiSchema={uiSchema}
      initial={{}}
      save={save}
      onClose={onClose}
      onDone={() => onAdded?.(added.current)}
      errorTestId="blacklist-add-error"
    />
  );
}

export default BlacklistAddDialog;
