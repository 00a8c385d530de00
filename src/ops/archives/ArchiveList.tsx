/**
 * 发送记录归档 (/ops/archives): the months archived before retention dropped them
 * (entities/record-archive.json), newest first: 月份, 文件状态 (正常, or 文件缺失或大小不符 in red: a
 * key column, kept beside the month), 分区, 条数, 大小 (MB), 归档时间, 文件 and SHA-256 (copyable).
 * Above the table, how a month is read back (the CLI's archive-restore on the server: restoring
 * creates a table, a database job rather than a click).
 */
import { Alert, Card, Typography } from 'antd';
import type { RecordArchive } from '@/generated/schemas';
import { SchemaTable, type SchemaColumn } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { useScreen } from '@/layout/screens';
import { recordArchives } from './data';

const columns: (string | SchemaColumn<RecordArchive>)[] = [
  'month',
  { field: 'partition', render: (v: string) => <Typography.Text copyable>{v}</Typography.Text> },
  { field: 'rows', render: (v: number) => v.toLocaleString('zh-CN') },
  { field: 'bytes', render: (v: number) => `${(v / 1048576).toFixed(1)} MB` },
  'createdAt',
  // the schema's words (x-table.labels), a missing file's in red
  {
    field: 'fileExists',
    render: (v, _r, _i, cell) => (v ? cell : <Typography.Text type="danger">{cell}</Typography.Text>),
  },
  // the path cut at the schema's width, copied whole
  {
    field: 'file',
    render: (v, _r, _i, cell) => <Typography.Text copyable={{ text: String(v) }}>{cell}</Typography.Text>,
  },
  {
    field: 'sha256',
    render: (v: string) => (
      <Typography.Text copyable={{ text: v }} code>
        {v.slice(0, 16)}…
      </Typography.Text>
    ),
  },
];

export default function ArchiveList() {
  const screen = useScreen();
  const { tableProps } = useSchemaList<RecordArchive>(recordArchives, { pagination: { mode: 'off' } });
  return (
    <Card title={screen.label}>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        data-testid="archive-help"
        message="保留期满的发送记录月份，删除前写入压缩的 CSV 文件（每月一个）。"
        description={
          <span>
            读回某个月份：在服务器上执行 <Typography.Text code>npm run cli -- archive-restore 分区</Typography.Text>
            ，记录读入单独的表（先核对 SHA-256 与条数），供 SQL 查询。
          </span>
        }
      />
      <SchemaTable<RecordArchive> {...tableProps} rowKey="partition" entity={recordArchives.entity} columns={columns} />
    </Card>
  );
}
