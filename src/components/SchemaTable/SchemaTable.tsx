/**
 * A Refine list as an antd table whose columns come from an entity schema: titles are the
 * schema's Chinese labels, a property that refers to an enum ($ref to schemas/enums) renders as
 * EnumTag (the enum's label and x-color) without the screen naming the enum, and a column adds
 * only what the schema cannot say (a render, a width). Lists get their data from useSchemaList.
 *
 * Paging follows the spec: 15 rows by default, pager hidden when there is one page,
 * layout prev / pager / next / jumper.
 */
import type { ReactNode } from 'react';
import { Table, type TableColumnType, type TableProps } from 'antd';
import type { BaseRecord } from '@refinedev/core';
import { schemas } from '@/schema';
import { EnumTag } from '@/components/EnumTag/EnumTag';

export interface SchemaColumn<T> extends Omit<TableColumnType<T>, 'dataIndex' | 'title' | 'render'> {
  /** property of the entity schema */
  field: string;
  /** overrides the schema's label */
  title?: ReactNode;
  /**
   * renders the cell; `cell` is what the column shows without it (an enum's tag from the
   * property's $ref, or the text), to add to rather than redo
   */
  render?: (value: any, record: T, index: number, cell: ReactNode) => ReactNode;
  /** property holding the server's label for an enum value (e.g. stateStr) */
  labelField?: string;
}

/** antd columns from schema fields (usable without SchemaTable, e.g. in a plain Table). */
export function schemaColumns<T extends BaseRecord>(entity: string, columns: (string | SchemaColumn<T>)[]): TableColumnType<T>[] {
  return columns.map((c) => {
    const col: SchemaColumn<T> = typeof c === 'string' ? { field: c } : c;
    const info = schemas.field(entity, col.field);
    if (!info) throw new Error(`${entity} has no property ${col.field}`);
    const { field, labelField, render, title, ...rest } = col;
    const cell = info.enumName
      ? (v: unknown, r: T) => <EnumTag enumName={info.enumName!} value={v} fallback={labelField ? (r as any)[labelField] : undefined} />
      : (v: unknown) => (v === null || v === undefined || v === '' ? '-' : String(v));
    return {
      key: field,
      dataIndex: field,
      title: title ?? info.title,
      render: render ? (v: unknown, r: T, i: number) => render(v, r, i, cell(v, r)) : cell,
      ...rest,
    };
  });
}

/** Pagination settings of every list screen. */
export function listPagination(p: TableProps<any>['pagination']): TableProps<any>['pagination'] {
  if (p === false) return false;
  return {
    ...p,
    hideOnSinglePage: true,
    showQuickJumper: true,
    showSizeChanger: false,
    showTotal: (total: number) => `共 ${total} 条`,
  };
}

export interface SchemaTableProps<T extends BaseRecord> extends Omit<TableProps<T>, 'columns'> {
  /** entity schema key, e.g. "entities/sign" */
  entity: string;
  columns: (string | SchemaColumn<T>)[];
  /** extra trailing columns (actions) */
  extraColumns?: TableColumnType<T>[];
}

/** Pass Refine's `tableProps` (from @refinedev/antd useTable) straight through. */
export function SchemaTable<T extends BaseRecord>({ entity, columns, extraColumns = [], pagination, ...tableProps }: SchemaTableProps<T>) {
  return (
    <Table<T>
      rowKey="id"
      size="middle"
      scroll={{ x: 'max-content' }}
      {...tableProps}
      pagination={listPagination(pagination)}
      columns={[...schemaColumns<T>(entity, columns), ...extraColumns]}
    />
  );
}

export default SchemaTable;
