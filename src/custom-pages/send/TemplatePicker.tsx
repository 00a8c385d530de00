/**
 * 选择模板 of the send page: approved fixed templates only, the way the template screens list
 * them: 智能模板 (POST /autoTemplate/list with state 1 审核通过, templateType 0, the chosen
 * sub-account) and 通用模板 (POST /autoTemplate/commonlist, templateType 0; always approved).
 */
import { useState } from 'react';
import { Button, Modal, Tabs } from 'antd';
import { useTable } from '@refinedev/antd';
import { TemplateAuditState, TemplateType, type SmsTemplate } from '@/generated/schemas';
import { SchemaTable } from '@/components/SchemaTable/SchemaTable';
import { listPageSize } from '@/components/SchemaTable/useSchemaList';

export interface TemplatePickerProps {
  open: boolean;
  clientId?: string;
  onClose: () => void;
  onPick: (t: SmsTemplate) => void;
  /** which templates: fixed (the send page, default) or variable (the variable SMS page) */
  templateType?: TemplateType;
}

export function TemplatePicker({ open, clientId, onClose, onPick, templateType = TemplateType.Fixed }: TemplatePickerProps) {
  const [tab, setTab] = useState<'templates' | 'generalTemplates'>('templates');
  return (
    <Modal open={open} title={templateType === TemplateType.Variable ? '选择变量模板' : '选择模板'} width={860} footer={null} onCancel={onClose} destroyOnHidden>
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as typeof tab)}
        items={[
          { key: 'templates', label: '智能模板', children: <TemplateTable resource="templates" clientId={clientId} onPick={onPick} templateType={templateType} /> },
          { key: 'generalTemplates', label: '通用模板', children: <TemplateTable resource="generalTemplates" onPick={onPick} templateType={templateType} /> },
        ]}
      />
    </Modal>
  );
}

function TemplateTable({ resource, clientId, onPick, templateType }: { resource: 'templates' | 'generalTemplates'; clientId?: string; onPick: (t: SmsTemplate) => void; templateType: TemplateType }) {
  const own = resource === 'templates';
  const { tableProps } = useTable<SmsTemplate>({
    resource,
    syncWithLocation: false,
    pagination: { pageSize: listPageSize(resource) },
    filters: {
      permanent: [
        { field: 'templateType', operator: 'eq', value: templateType },
        ...(own ? [{ field: 'state', operator: 'eq' as const, value: TemplateAuditState.Approved }] : []),
        ...(own && clientId ? [{ field: 'clientId', operator: 'eq' as const, value: clientId }] : []),
      ],
    },
  });
  return (
    <SchemaTable<SmsTemplate>
      {...tableProps}
      rowKey="templateId"
      entity="entities/template"
      size="small"
      locale={{ emptyText: '暂无审核通过的模板' }}
      columns={['templateId', 'smsType', 'smstype', 'sign', { field: 'content', render: (v: string) => <div style={{ maxWidth: 420, whiteSpace: 'normal' }}>{v}</div> }]}
      extraColumns={[
        {
          key: 'pick',
          title: '操作',
          render: (_: unknown, t: SmsTemplate) => (
            <Button type="link" size="small" onClick={() => onPick(t)}>
              选择
            </Button>
          ),
        },
      ]}
    />
  );
}
