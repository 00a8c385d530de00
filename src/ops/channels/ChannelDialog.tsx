/**
 * 新增 / 编辑 a channel (forms/operator-channel.json, POST /operator/channels/save). Editing: the name
 * is fixed (another name is another channel) and the address may stay empty: the server keeps the
 * stored one, whose password it never shows — the field says so, with the address as listed. The
 * server's refusal (通道设置有误：…, checked by the same parser as the file and the CLI) stays in
 * the dialog.
 */
import type { UiSchema } from '@rjsf/utils';
import operatorChannelForm from '@/generated/forms/operator-channel';
import type { OperatorChannel, OperatorChannelForm } from '@/generated/schemas';
import { SchemaFormDialog } from '@/components/SchemaForm/SchemaFormDialog';
import { schemas, schemaUi } from '@/schema';
import { channelsApi } from './api';

const FIELDS = ['name', 'url', 'carriers', 'international', 'smsTypes', 'priority', 'weight', 'maxPerSecond'];
const baseUi = schemaUi<UiSchema>('forms/operator-channel');
const formMessages = schemas.get('forms/operator-channel')['x-messages'] as { keepUrl: string };

/** the form's uiSchema: editing fixes the name and says the address is kept when left empty */
export function channelUi(editing?: Pick<OperatorChannel, 'where'>): UiSchema {
  if (!editing) return baseUi;
  return {
    ...baseUi,
    name: { ...baseUi.name, 'ui:readonly': true },
    url: {
      ...baseUi.url,
      'ui:placeholder': '留空：保留原地址',
      'ui:help': formMessages.keepUrl.replace('{where}', editing.where),
    },
  };
}

/** a listed channel's settings as the form's values (the address is never listed: empty) */
export const formOf = (c: OperatorChannel): Partial<OperatorChannelForm> => ({
  name: c.name,
  // the form's maxItems make tuples of its arrays: a listed channel's are within them (the server checked them)
  carriers: c.carriers as OperatorChannelForm['carriers'],
  international: c.international,
  smsTypes: c.smsTypes as OperatorChannelForm['smsTypes'],
  priority: c.priority,
  weight: c.weight,
  maxPerSecond: c.maxPerSecond,
});

export interface ChannelDialogProps {
  open: boolean;
  /** the channel edited; none: a new one */
  channel?: OperatorChannel;
  onClose: () => void;
  /** after a save (the list is asked again) */
  onDone: () => void;
}

export function ChannelDialog({ open, channel, onClose, onDone }: ChannelDialogProps) {
  return (
    <SchemaFormDialog<OperatorChannelForm>
      open={open}
      title={channel ? `编辑通道 ${channel.name}` : '新增通道'}
      form={operatorChannelForm}
      fields={FIELDS}
      required={channel ? undefined : ['url']}
      uiSchema={channelUi(channel)}
      initial={channel ? formOf(channel) : {}}
      save={(v) => channelsApi.save(v)}
      onClose={onClose}
      onDone={onDone}
      okText="保存"
      errorTestId="channel-refusal"
    />
  );
}
