/**
 * A Refine list as an antd table whose columns come from an entity schema: titles are the
 * schema's Chinese labels, a property that refers to an enum ($ref to schemas/enums) renders as
 * EnumTag (the enum's label and x-color) without the screen naming the enum, `format: money` as
 * <Money> (right-aligned), and a column adds only what the schema cannot say (a render, a width).
 * Lists get their data from useSchemaList.
 *
 * Layout at every width (1440, 1024, 390 px), from the entity's `x-table` hints (registry
 * TableColumnHints) and these defaults:
 * - no cell wraps (SchemaTable.css): the table scrolls sideways instead of squeezing a column
 *   to one character per line; `x-table.width` is a column's floor, `fixed: "left"` keeps an
 *   identifying column in view while scrolling;
 * - the columns users look for first (`x-table.key`: a status, then the times) come right after the
 *   leading ones (the row number, the fixed-left identifiers) on every list of the entity, so the
 *   scroll and the fixed 操作 column never hide them (keyColumnsFirst; their cells carry the
 *   class `schema-table-key`); a list adds its own (or drops one) with a column's `isKey`;
 * - plain text cells (and `x-table.ellipsis` ones) are cut at 240 px (or the hint's width) with
 *   the whole text in a tooltip (a page's render gets that cut cell to add to);
 * - amounts never wrap (Money).
 *
 * The list basics every screen gets:
 * - paging: 15 rows by default (the declaration's size), a page-size choice, pager hidden when
 *   one page of the default size holds everything, layout prev / pager / next / jumper;
 * - a load failure (`listError`, from useSchemaList) shows its message and 重试 in place of 暂无数据;
 * - `totals`: a 合计 row adding up the columns marked `x-table.sum` over the rows shown;
 * - column settings (show / hide columns, kept per entity in localStorage) on wide tables
 *   (more than COLUMN_SETTINGS_FROM columns) or when `columnSettings` is set.
 */
import { useMemo, useState, type Key, type ReactNode } from 'react';
import {
  Button,
  Checkbox,
  Empty,
  Popover,
  Result,
  Table,
  Tooltip,
  Typography,
  type TableColumnType,
  type TableProps,
} from 'antd';
import type { TablePaginationConfig } from 'antd/es/table';
import { ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import type { BaseRecord } from '@refinedev/core';
import { schemas } from '@/schema';
import { EnumTag } from '@/components/EnumTag/EnumTag';
import { Money } from '@/components/Money/Money';
import { formatMoney } from '@/components/Money/money';
import type { FieldInfo } from '../../../common/schema';
import './SchemaTable.css';

export interface SchemaColumn<T> extends Omit<TableColumnType<T>, 'dataIndex' | 'title' | 'render'> {
  /** property of the entity schema */
  field: string;
  /** overrides the schema's label */
  title?: ReactNode;
  /**
   * renders the cell; `cell` is what the column shows without it (an enum's tag from the
   * property's $ref, or the text), to add to rather than redo. (A method: a page may name the
   * value's type, `(v: string) => ...`.)
   */
  render?(value: unknown, record: T, index: number, cell: ReactNode): ReactNode;
  /** property holding the server's label for an enum value (e.g. stateStr) */
  labelField?: string;
  /**
   * a key column of this list (or not: `false`), whatever the entity's `x-table.key` says: what a
   * screen's users look for first beyond the entity's statuses and times (子账户管理's 余额,
   * 付费方式, 备注), or an entity key that matters less on this screen
   */
  isKey?: boolean;
}

/** Width at which plain text is cut (with a tooltip) unless the schema says otherwise. */
export const ELLIPSIS_WIDTH = 240;
/** Tables with more columns than this get the column settings. */
export const COLUMN_SETTINGS_FROM = 8;

const empty = (v: unknown) => v === null || v === undefined || v === '';

/** The words of a boolean cell (the entity's `x-table.labels`, else 是 / 否). */
const BOOLEAN_LABELS = { true: '是', false: '否' };

/** The cell a field shows without a page's render: enum tag, amount, yes / no, or text. */
function defaultCell<T extends BaseRecord>(
  info: FieldInfo,
  labelField: string | undefined,
): (v: unknown, r: T) => ReactNode {
  if (info.enumName) {
    const enumName = info.enumName;
    return (v, r) => (
      <EnumTag
        enumName={enumName}
        value={v}
        fallback={labelField ? (r[labelField] as string | undefined) : undefined}
      />
    );
  }
  if (info.format === 'money') return (v) => <Money value={v as string | number | null | undefined} />;
  if (info.type === 'boolean') {
    const labels = info.table?.labels ?? BOOLEAN_LABELS;
    return (v) => (empty(v) ? '-' : v === true || v === 'true' || v === 1 ? labels.true : labels.false);
  }
  return (v) => (empty(v) ? '-' : String(v));
}

/** The width a column's text is cut at, or undefined when it is not cut. */
function ellipsisWidth(info: FieldInfo): number | undefined {
  const hint = info.table?.ellipsis;
  if (hint === false) return undefined;
  if (typeof hint === 'number') return hint;
  if (hint === true) return ELLIPSIS_WIDTH;
  // by default plain text (not an enum, an amount, a date or a number)
  return !info.enumName && !info.format && (info.type === 'string' || info.type === undefined)
    ? ELLIPSIS_WIDTH
    : undefined;
}

/** Cut text: one line at `width` px, the whole text in a tooltip (pages' renders use it as CutText). */
function Ellipsis({ width, title, children }: { width: number; title: ReactNode; children: ReactNode }) {
  return (
    <Tooltip title={title} placement="topLeft">
      <span className="schema-table-ellipsis" style={{ maxWidth: width }}>
        {children}
      </span>
    </Tooltip>
  );
}

export { Ellipsis as CutText };

/**
 * A column's width as a floor its content cannot be squeezed under: antd's fixed columns freeze
 * the widths measured at the first paint (an empty table's header widths), under which wrapping
 * text (a content link) would fall to one character a line.
 */
function floor<T>(width: number | undefined, render: (v: unknown, r: T, i: number) => ReactNode) {
  if (!width) return render;
  return (v: unknown, r: T, i: number) => <div style={{ minWidth: width - 16 }}>{render(v, r, i)}</div>;
}

/** A row-number column (序号): it stays in front of the key columns. */
const ROW_NUMBER = /^row_?num(ber)?$/i;

/**
 * The columns with the key ones moved right after the leading columns (those up to the last
 * fixed-left one, else a leading row number). `rank` says which are key (a number; undefined: not
 * key) and their order (lower first, then as declared); the others keep their order.
 */
export function keyColumnsFirst<C extends { key?: Key; fixed?: TableColumnType<unknown>['fixed'] }>(
  columns: C[],
  rank: (c: C) => number | undefined,
): C[] {
  const lastLeft = columns.findLastIndex((c) => c.fixed === 'left' || c.fixed === true);
  let lead = lastLeft + 1;
  if (lead === 0) while (lead < columns.length && ROW_NUMBER.test(String(columns[lead].key ?? ''))) lead++;
  const tail = columns.slice(lead);
  const keys = tail.filter((c) => rank(c) !== undefined).sort((a, b) => rank(a)! - rank(b)!);
  return [...columns.slice(0, lead), ...keys, ...tail.filter((c) => rank(c) === undefined)];
}

/**
 * A key column's place among the key columns: a status (an enum) before the times and the rest.
 * Key: the list's `isKey` when it says, else the entity's `x-table.key`.
 */
function keyRank(entity: string, field: string, isKey: boolean | undefined): number | undefined {
  const info = schemas.field(entity, field);
  if (!(isKey ?? info?.table?.key)) return undefined;
  return info?.enumName ? 0 : 1;
}

/** the lists' own key choices (SchemaColumn.isKey) by field */
const listKeys = <T,>(columns: (string | SchemaColumn<T>)[]) =>
  new Map(
    columns.flatMap((c) => (typeof c === 'string' || c.isKey === undefined ? [] : [[c.field, c.isKey] as const])),
  );

/** antd columns from schema fields (usable without SchemaTable, e.g. in a plain Table). */
export function schemaColumns<T extends BaseRecord>(
  entity: string,
  columns: (string | SchemaColumn<T>)[],
): TableColumnType<T>[] {
  return columns.map((c) => {
    const col: SchemaColumn<T> = typeof c === 'string' ? { field: c } : c;
    const info = schemas.field(entity, col.field);
    if (!info) throw new Error(`${entity} has no property ${col.field}`);
    const { field, labelField, render, title, isKey, ...rest } = col;
    const plain = defaultCell<T>(info, labelField);
    const cut = ellipsisWidth(info);
    // the cell a page's render gets (and adds to) is already cut: a render that draws its own
    // content (a link, a dialog, a progress bar) lays itself out
    const cell = cut
      ? (v: unknown, r: T) =>
          empty(v) ? (
            plain(v, r)
          ) : (
            <Ellipsis width={cut} title={String(v)}>
              {plain(v, r)}
            </Ellipsis>
          )
      : plain;
    const hints = info.table ?? {};
    return {
      key: field,
      dataIndex: field,
      title: title ?? info.title,
      ...(info.format === 'money' ? { align: 'right' as const } : {}),
      ...(hints.width ? { width: hints.width } : {}),
      ...(hints.fixed ? { fixed: hints.fixed } : {}),
      ...((isKey ?? hints.key) ? { className: 'schema-table-key' } : {}),
      render: floor(
        hints.width,
        render ? (v: unknown, r: T, i: number) => render(v, r, i, cell(v, r)) : (v: unknown, r: T) => cell(v, r),
      ),
      ...rest,
    };
  });
}

/** Page sizes offered (the list's own size among them). */
export function pageSizeOptions(defaultSize: number): number[] {
  return [...new Set([10, defaultSize, 20, 50, 100])].sort((a, b) => a - b);
}

/**
 * Pagination settings of every list screen. The pager hides when one page of the default size holds
 * every row (a larger size chosen then keeps the pager, so it can be chosen back).
 */
export function listPagination(
  p: TableProps<BaseRecord>['pagination'] | undefined,
  defaultSize?: number,
): false | TablePaginationConfig {
  if (p === false) return false;
  const size = defaultSize ?? p?.defaultPageSize ?? p?.pageSize ?? 15;
  const current = p?.pageSize ?? size;
  if ((p?.total ?? 0) <= Math.min(current, size)) return false;
  return {
    ...p,
    showQuickJumper: true,
    showSizeChanger: true,
    pageSizeOptions: pageSizeOptions(size),
    showTotal: (t: number) => `共 ${t} 条`,
  };
}

/** The sums of the `x-table.sum` columns over the rows (exact decimal text for amounts). */
export function columnTotals(entity: string, fields: string[], rows: readonly BaseRecord[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of fields) {
    const info = schemas.field(entity, field);
    if (!info?.table?.sum) continue;
    // amounts are decimal strings: add them in ten-thousandths so no float creeps in
    const scale = info.format === 'money' ? 10_000 : 1;
    const total = rows.reduce((s, r) => s + Math.round(Number(r[field] ?? 0) * scale), 0);
    out[field] = info.format === 'money' ? formatMoney(String(total / scale), 2) : total.toLocaleString('zh-CN');
  }
  return out;
}

/** A list's load failure: its message and how to ask again. */
export interface ListError {
  message: string;
  retry: () => void;
}

/** The hidden columns of an entity's tables (column settings), kept in localStorage. */
function useHiddenColumns(entity: string) {
  const key = `schema-table-hidden:${entity}`;
  const [hidden, setHidden] = useState<string[]>(() => {
    try {
      const v: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
      return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
    } catch {
      return [];
    }
  });
  const update = (next: string[]) => {
    setHidden(next);
    try {
      localStorage.setItem(key, JSON.stringify(next));
    } catch {
      // private mode: the choice lasts for the page
    }
  };
  return [hidden, update] as const;
}

export interface SchemaTableProps<T extends BaseRecord> extends Omit<TableProps<T>, 'columns'> {
  /** entity schema key, e.g. "entities/sign" */
  entity: string;
  columns: (string | SchemaColumn<T>)[];
  /** extra trailing columns (actions) */
  extraColumns?: TableColumnType<T>[];
  /** a load failure (useSchemaList's tableProps carry it): shown with 重试 instead of the rows */
  listError?: ListError | null;
  /** a 合计 row over the `x-table.sum` columns */
  totals?: boolean;
  /** show / hide columns (default: on for more than COLUMN_SETTINGS_FROM columns) */
  columnSettings?: boolean;
}

/** Pass `tableProps` of useSchemaList (or Refine's useTable) straight through. */
export function SchemaTable<T extends BaseRecord>({
  entity,
  columns,
  extraColumns = [],
  pagination,
  listError,
  totals,
  columnSettings,
  className,
  locale,
  dataSource,
  ...tableProps
}: SchemaTableProps<T>) {
  const [hidden, setHidden] = useHiddenColumns(entity);
  const all = useMemo(() => {
    const own = listKeys(columns);
    return keyColumnsFirst(schemaColumns<T>(entity, columns), (c) =>
      keyRank(entity, String(c.key), own.get(String(c.key))),
    );
  }, [entity, columns]);
  const fields = all.map((c) => String(c.key));
  const hideable = all.filter((c) => schemas.field(entity, String(c.key))?.table?.hideable !== false);
  const settings = columnSettings ?? all.length + extraColumns.length > COLUMN_SETTINGS_FROM;
  const visible = settings ? all.filter((c) => !hidden.includes(String(c.key))) : all;
  // a key column fixed on the left keeps the ones before it (the row number) fixed with it
  const lastLeft = visible.findLastIndex((c) => c.fixed === 'left' || c.fixed === true);
  const shown = visible.map((c, i) => (i < lastLeft && !c.fixed ? { ...c, fixed: 'left' as const } : c));
  const rows = listError ? [] : (dataSource ?? []);
  const sums = totals && rows.length ? columnTotals(entity, fields, rows) : undefined;

  const settingsButton = settings ? (
    <Popover
      trigger="click"
      placement="bottomRight"
      title="显示列"
      content={
        <Checkbox.Group
          style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
          value={hideable.map((c) => String(c.key)).filter((k) => !hidden.includes(k))}
          options={hideable.map((c) => ({ value: String(c.key), label: c.title as ReactNode }))}
          onChange={(checked) => setHidden(hideable.map((c) => String(c.key)).filter((k) => !checked.includes(k)))}
        />
      }
    >
      <Button size="small" icon={<SettingOutlined />} aria-label="列设置">
        列设置
      </Button>
    </Popover>
  ) : null;

  const errorState = listError ? (
    <div data-testid="list-error" role="alert">
      <Result
        status="error"
        title="加载失败"
        subTitle={listError.message}
        extra={
          <Button type="primary" icon={<ReloadOutlined />} onClick={listError.retry}>
            重试
          </Button>
        }
      />
    </div>
  ) : null;

  return (
    <div className="schema-table-wrap">
      {settingsButton && <div className="schema-table-toolbar">{settingsButton}</div>}
      <Table<T>
        rowKey="id"
        size="middle"
        scroll={{ x: 'max-content' }}
        tableLayout="auto"
        {...tableProps}
        dataSource={rows}
        className={['schema-table', className].filter(Boolean).join(' ')}
        locale={
          errorState
            ? { ...locale, emptyText: errorState }
            : { emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" />, ...locale }
        }
        pagination={listError ? false : listPagination(pagination)}
        columns={[...shown, ...extraColumns]}
        summary={
          sums
            ? () => (
                <Table.Summary fixed="bottom">
                  <Table.Summary.Row data-testid="table-totals">
                    {[...shown, ...extraColumns].map((c, i) => (
                      <Table.Summary.Cell key={String(c.key ?? i)} index={i} align={c.align}>
                        {i === 0 ? (
                          <Typography.Text strong>合计</Typography.Text>
                        ) : sums[String(c.key)] !== undefined ? (
                          <Typography.Text strong>{sums[String(c.key)]}</Typography.Text>
                        ) : null}
                      </Table.Summary.Cell>
                    ))}
                  </Table.Summary.Row>
                </Table.Summary>
              )
            : tableProps.summary
        }
      />
    </div>
  );
}

export default SchemaTable;
