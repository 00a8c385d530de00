/**
 * 审计日志 (/ops/audit, POST /operator/audit/list): the filter bar of filters/audit-log.json (操作人,
 * 操作, 账户, 开始 / 结束时间: the last 30 days first), the table of entities/audit-entry.json (newest
 * first), the 对象 as the table's name with the row's number, and each row with values opening onto
 * its fields before and after (AuditDiff).
 */
import { Card, Typography } from 'antd';
import type { AuditEntry } from '@/generated/schemas';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable, type SchemaColumn } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { AuditDiff, hasValues, targetTitle } from './AuditDiff';
import { auditLog } from './data';
import { useScreen } from '@/layout/screens';

const columns: (string | SchemaColumn<AuditEntry>)[] = [
  'at',
  'operator',
  'action',
  {
    field: 'target',
    render: (v: string, r) => (
      <span>
        {targetTitle(v)} <Typography.Text type="secondary">#{r.targetId}</Typography.Text>
      </span>
    ),
  },
  'clientid',
  'remark',
];

export default function AuditLog() {
  const auditLogScreen = useScreen();
  const { tableProps, searchFormProps } = useSchemaList<AuditEntry>(auditLog);
  return (
    <Card title={auditLogScreen.label}>
      <SchemaFilterBar filter={auditLog.filter} formProps={searchFormProps} />
      <SchemaTable<AuditEntry>
        {...tableProps}
        entity={auditLog.entity}
        columns={columns}
        expandable={{
          rowExpandable: hasValues,
          expandedRowRender: (r) => <AuditDiff entry={r} />,
          columnTitle: '',
        }}
      />
    </Card>
  );
}
