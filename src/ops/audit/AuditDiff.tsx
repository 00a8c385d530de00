/**
 * An audit row's values before and after, readable: one line per field with its title and both
 * values, the changed ones marked. How a field reads comes from the schemas: entities/audit-entry's
 * `x-targets` names, per table acted on, its title and the entity whose properties give the fields'
 * titles and enum labels (a sign's `state` 2 reads 审核不通过), plus `fields` for what the entity
 * lacks. A field no schema knows shows its key and its JSON.
 */
import { Table, Tag, Typography } from 'antd';
import type { AuditEntry } from '@/generated/schemas';
import { EnumTag } from '@/components/EnumTag/EnumTag';
import { schemas } from '@/schema';

const ENTRY = 'entities/audit-entry';

interface TargetField {
  title: string;
  'x-enum'?: string;
}

interface Target {
  title: string;
  entity?: string;
  fields?: Record<string, TargetField>;
}

const targets = (): Record<string, Target> => (schemas.get(ENTRY)['x-targets'] ?? {}) as Record<string, Target>;

/** The name of the table acted on (资质认证, 签名 …), else the table's own name. */
export const targetTitle = (target: string) => targets()[target]?.title ?? target;

/** How a field of a target's values reads: its title and its enum. */
export function fieldOf(target: string, key: string): { title: string; enumName?: string } {
  const t = targets()[target];
  const own = t?.fields?.[key];
  if (own) return { title: own.title, enumName: own['x-enum'] };
  const info = t?.entity ? schemas.field(t.entity, key) : undefined;
  return info ? { title: info.title, enumName: info.enumName } : { title: key };
}

const empty = (v: unknown) => v === undefined || v === null || v === '';

function Value({ value, enumName }: { value: unknown; enumName?: string }) {
  if (empty(value)) return <Typography.Text type="secondary">-</Typography.Text>;
  if (enumName) return <EnumTag enumName={enumName} value={value} />;
  if (typeof value === 'object') return <Typography.Text code>{JSON.stringify(value)}</Typography.Text>;
  if (typeof value === 'boolean') return <>{value ? '是' : '否'}</>;
  return <span style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{String(value)}</span>;
}

interface Row {
  key: string;
  title: string;
  enumName?: string;
  before: unknown;
  after: unknown;
  changed: boolean;
}

const same = (a: unknown, b: unknown) => (empty(a) && empty(b)) || JSON.stringify(a) === JSON.stringify(b);

/**
 * The rows of the diff: every key of either side, in the order they were written. Changed: a value
 * the action wrote (a key of `after`) that differs from the one before (no value and '' alike); a
 * key only `before` has was not written, so not changed.
 */
export function diffRows(entry: Pick<AuditEntry, 'target' | 'before' | 'after'>): Row[] {
  const before = (entry.before ?? {}) as Record<string, unknown>;
  const after = (entry.after ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.map((key) => {
    const f = fieldOf(entry.target, key);
    const b = before[key];
    const a = after[key];
    return { key, ...f, before: b, after: a, changed: key in after && !same(b, a) };
  });
}

export const hasValues = (entry: Pick<AuditEntry, 'before' | 'after'>) =>
  Object.keys(entry.before ?? {}).length + Object.keys(entry.after ?? {}).length > 0;

export function AuditDiff({ entry }: { entry: AuditEntry }) {
  const rows = diffRows(entry);
  const beforeTitle = schemas.field(ENTRY, 'before')?.title;
  const afterTitle = schemas.field(ENTRY, 'after')?.title;
  const onlyAfter = !entry.before;
  return (
    <Table<Row>
      data-testid="audit-diff"
      size="small"
      rowKey="key"
      pagination={false}
      style={{ maxWidth: 760 }}
      dataSource={rows}
      columns={[
        {
          key: 'title',
          title: '字段',
          width: 160,
          render: (_, r) => (
            <>
              {r.title} {r.changed && !onlyAfter && <Tag color="blue">已变更</Tag>}
            </>
          ),
        },
        ...(onlyAfter
          ? []
          : [
              {
                key: 'before',
                title: beforeTitle,
                render: (_: unknown, r: Row) => <Value value={r.before} enumName={r.enumName} />,
              },
            ]),
        { key: 'after', title: afterTitle, render: (_, r) => <Value value={r.after} enumName={r.enumName} /> },
      ]}
    />
  );
}
