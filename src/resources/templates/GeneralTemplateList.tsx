/** 通用模板 (POST /autoTemplate/commonlist): the platform's approved templates; filters attribute, type, content. */
import { Card, Typography } from 'antd';
import { useTable } from '@refinedev/antd';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable } from '@/components/SchemaTable/SchemaTable';
import type { SmsTemplate } from '@/generated/schemas';
import { templateFilters, withRefresh } from './SmartTemplateList';

type Filters = Record<string, unknown>;

export function GeneralTemplateList() {
  const { tableProps, searchFormProps, tableQuery } = useTable<SmsTemplate, any, Filters>({
    resource: 'generalTemplates',
    syncWithLocation: false,
    pagination: { pageSize: 15 },
    onSearch: templateFilters,
  });
  return (
    <Card>
      <SchemaFilterBar<Filters> filter="filters/template-general" formProps={withRefresh(searchFormProps, tableQuery.refetch)} />
      <SchemaTable<SmsTemplate>
        {...tableProps}
        entity="entities/template"
        rowKey="templateId"
        columns={[
          'orderNo',
          'smsType',
          'templateType',
          'sign',
          {
            field: 'content',
            render: (v: string) => (
              <Typography.Paragraph copyable={{ text: v, tooltips: ['复制', '复制成功'] }} style={{ marginBottom: 0, maxWidth: 480 }}>
                {v}
              </Typography.Paragraph>
            ),
          },
          'varibleCount',
        ]}
      />
    </Card>
  );
}

export default GeneralTemplateList;
