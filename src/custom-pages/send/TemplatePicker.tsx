/**
 * 选择模板 of the send page: approved fixed templates only, the way the template screens list
 * them: 智能模板 (POST /autoTemplate/list with state 1 审核通过, templateType 0, the chosen
 * sub-account) and 通用模板 (POST /autoTemplate/commonlist, templateType 0; always approved), both
 * of the chosen 短信类型 only; a template of a type the account may not send cannot be chosen.
 */
import { useState } from 'react';
import { Button, Modal, Tabs, Tooltip, Typography } from 'antd';
import { Link } from 'react-router';
import { useScreenPath } from '@/layout/screens';
import { SEND_MESSAGES } from '@/domain/send';
import { useTable } from '@refinedev/antd';
import { TemplateAuditState, TemplateType, type SmsTemplate, type SmsType } from '@/generated/schemas';
import { SchemaTable } from '@/components/SchemaTable/SchemaTable';
import { listPageSize } from '@/components/SchemaTable/useSchemaList';

export interface TemplatePickerProps {
  open: boolean;
  clientId?: string;
  onClose: () => void;
  onPick: (t: SmsTemplate) => void;
  /** which templates: fixed (the send page, default) or variable (the variable SMS page) */
  templateType?: TemplateType;
  /** the chosen 短信类型: only templates of that type are offered (the account may send it) */
  smstype?: SmsType;
  /** the types the account may send (POST /send/getsmstypes): a template of another type cannot be chosen */
  allowedTypes?: number[];
}

export function TemplatePicker({
  open,
  clientId,
  onClose,
  onPick,
  templateType = TemplateType.Fixed,
  smstype,
  allowedTypes,
}: TemplatePickerProps) {
  const [tab, setTab] = useState<'templates' | 'generalTemplates'>('templates');
  return (
    <Modal
      open={open}
      title={templateType === TemplateType.Variable ? '选择变量模板' : '选择模板'}
      width={860}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
    >
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as typeof tab)}
        items={[
          {
            key: 'templates',
            label: '智能模板',
            children: (
              <TemplateTable
                resource="templates"
                clientId={clientId}
                onPick={onPick}
                templateType={templateType}
                smstype={smstype}
                allowedTypes={allowedTypes}
                onShowGeneral={() => setTab('generalTemplates')}
              />
            ),
          },
          {
            key: 'generalTemplates',
            label: '通用模板',
            children: (
              <TemplateTable
                resource="generalTemplates"
                onPick={onPick}
                templateType={templateType}
                smstype={smstype}
                allowedTypes={allowedTypes}
              />
            ),
          },
        ]}
      />
    </Modal>
  );
}

function TemplateTable({
  resource,
  clientId,
  onPick,
  templateType,
  smstype,
  allowedTypes,
  onShowGeneral,
}: {
  resource: 'templates' | 'generalTemplates';
  clientId?: string;
  onPick: (t: SmsTemplate) => void;
  templateType: TemplateType;
  smstype?: SmsType;
  allowedTypes?: number[];
  /** the 通用模板 tab (the empty state of the account's own templates offers it) */
  onShowGeneral?: () => void;
}) {
  const templatesPath = useScreenPath('template_Intelligent');
  const own = resource === 'templates';
  const variable = templateType === TemplateType.Variable;
  // why nothing is offered, and where to go (issue 41 item 7): a page takes only its own kind of template
  const empty = (
    <div data-testid="template-picker-empty" style={{ padding: '8px 0' }}>
      <div>{variable ? '暂无审核通过的变量模板' : '暂无审核通过的固定模板'}</div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {variable
          ? '变量短信只能使用变量模板；固定模板请在普通短信发送页使用。'
          : '普通短信只能使用固定模板；变量模板请在变量短信发送页使用。'}
        {own ? '新模板须审核通过后才能选择。' : ''}
      </Typography.Text>
      {own && (
        <div style={{ marginTop: 8 }}>
          <Link to={templatesPath}>新增模板</Link>
          {onShowGeneral && (
            <Button type="link" size="small" onClick={onShowGeneral}>
              查看通用模板
            </Button>
          )}
        </div>
      )}
    </div>
  );
  const { tableProps } = useTable<SmsTemplate>({
    resource,
    syncWithLocation: false,
    pagination: { pageSize: listPageSize(resource) },
    filters: {
      permanent: [
        { field: 'templateType', operator: 'eq', value: templateType },
        ...(smstype !== undefined ? [{ field: 'smstype', operator: 'eq' as const, value: smstype }] : []),
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
      locale={{ emptyText: empty }}
      columns={[
        'templateId',
        'smsType',
        'smstype',
        'sign',
        { field: 'content', render: (v: string) => <div style={{ maxWidth: 420, whiteSpace: 'normal' }}>{v}</div> },
      ]}
      extraColumns={[
        {
          key: 'pick',
          title: '操作',
          render: (_: unknown, t: SmsTemplate) => {
            const refused =
              !!allowedTypes &&
              t.smstype !== undefined &&
              t.smstype !== null &&
              !allowedTypes.includes(Number(t.smstype));
            return refused ? (
              <Tooltip title={SEND_MESSAGES.typeRefused}>
                <Button type="link" size="small" disabled data-testid="template-type-refused">
                  选择
                </Button>
              </Tooltip>
            ) : (
              <Button type="link" size="small" onClick={() => onPick(t)}>
                选择
              </Button>
            );
          },
        },
      ]}
    />
  );
}
