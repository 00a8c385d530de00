/** 通用模板 (POST /autoTemplate/commonlist): the platform's approved templates; filters attribute, type, content. */
import { Card, Typography } from 'antd';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import type { SmsTemplate } from '@/generated/schemas';
import { generalTemplates } from './data';

export function GeneralTemplateList() {
  const { tableProps, searchFormProps } = useSchemaList<SmsTemplate>(generalTemplates);
  return (
    <Card>
      <SchemaFilterBar filter={generalTemplates.filter} formProps={searchFormProps} />
      <SchemaTable<SmsTemplate>
        {...tableProps}
        entity={generalTemplates.entity}
        rowKey="templateId"
        columns={[
          'orderNo',
          'smsType',
          'templateType',
          'sign',
          {
            field: 'content',
            render: (v: string) => (
              <Typography.Paragraph
                copyable={{ text: v, tooltips: ['复制', '复制成功'] }}
                style={{ marginBottom: 0, maxWidth: 480 }}
              >
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
