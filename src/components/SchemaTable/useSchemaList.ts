/**
 * The list hook of every list screen: Refine's useTable (@refinedev/antd) with the console's
 * defaults, and the filter bar's values turned into request parameters by the list's filter schema
 * (schemaFilters: dates by `format`, `x-trim`, `x-param` renames, empty values left out).
 *
 * - the resource: the page's data declaration from its folder's index.ts (layout/declarations
 *   DataResource): its name, its filter schema (`filter`) and page size (`list.pageSize`, else 15);
 * - filters are not kept in the address bar;
 * - 查询 with unchanged filters reloads the list (to see, e.g., the outcome of a review);
 * - `params` are the current filters as sent, for the screen's export;
 * - `initialValues`: the filter bar's first values (a default date range), sent with the first call;
 * - `validate`: a check of the filter values before a search (a date span rule): its message is
 *   shown as an error and the list is not asked.
 *
 * Pass `tableProps` to SchemaTable and `searchFormProps` to SchemaFilterBar.
 */
import { useMemo, useRef, useState } from 'react';
import equal from 'fast-deep-equal';
import { App } from 'antd';
import { useTable, type useTableProps } from '@refinedev/antd';
import type { BaseRecord, CrudFilter, HttpError } from '@refinedev/core';
import { schemas } from '@/schema';
import { DEFAULT_PAGE_SIZE } from '@/providers/dataProvider';
import type { DataResource } from '@/layout/declarations';
import { filterParamNames, schemaFilters, type FilterParams } from '../../../common/schema/filters';

export interface SchemaListOptions<T extends BaseRecord, V> extends Omit<useTableProps<T, HttpError, V, T>, 'resource' | 'onSearch'> {
  /** the filter schema of the filter bar, e.g. "filters/sign" (default: the declaration's `filter`) */
  filterSchema?: string;
  /** rows per page (default: the declaration's `list.pageSize`, else 15) */
  pageSize?: number;
  /** the filter bar's initial values (sent with the first call) */
  initialValues?: Record<string, unknown>;
  /** checks the filter values before a search: a message refuses it (shown as an error toast) */
  validate?: (values: Record<string, unknown>) => string | null | undefined;
}

/** The page size of a resource's list: its declaration's, else 15 (a bare name: 15). */
export const listPageSize = (resource: string | DataResource) => (typeof resource === 'string' ? undefined : resource.list?.pageSize) ?? DEFAULT_PAGE_SIZE;

/** The filter bar's values -> Refine filters: every parameter of the schema, the empty ones as undefined (which clears them). */
export function searchFilters(filterSchema: string, values: Record<string, unknown> | undefined): { params: FilterParams; filters: CrudFilter[] } {
  const schema = schemas.get(filterSchema);
  const params = schemaFilters(schema, values);
  return { params, filters: filterParamNames(schema).map((field) => ({ field, operator: 'eq', value: params[field] })) };
}

export function useSchemaList<T extends BaseRecord = BaseRecord, V = Record<string, unknown>>(
  declaration: string | DataResource,
  { filterSchema: givenFilter, pageSize, pagination, initialValues, validate, ...options }: SchemaListOptions<T, V> = {},
) {
  const resource = typeof declaration === 'string' ? declaration : declaration.name;
  const filterSchema = givenFilter ?? (typeof declaration === 'string' ? undefined : declaration.filter);
  const { message } = App.useApp();
  // the first values, as parameters and as Refine filters (computed once: a default range stays put)
  const [initial] = useState(() => (filterSchema && initialValues ? searchFilters(filterSchema, initialValues) : undefined));
  const [params, setParams] = useState<FilterParams>(initial?.params ?? {});
  const sent = useRef<FilterParams>(initial?.params ?? {});
  const table = useTable<T, HttpError, V>({
    resource,
    syncWithLocation: false,
    ...options,
    ...(initial ? { filters: { ...options.filters, initial: initial.filters } } : {}),
    pagination: { pageSize: pageSize ?? listPageSize(declaration), ...pagination },
    onSearch: (values) => {
      if (!filterSchema) return [];
      const next = searchFilters(filterSchema, values as Record<string, unknown>);
      // `table` is this render's result: onSearch only runs later, from the filter bar's submit
      if (equal(next.params, sent.current)) void table.tableQuery.refetch();
      sent.current = next.params;
      setParams(next.params);
      return next.filters;
    },
  });
  const { searchFormProps: base } = table;
  const searchFormProps = useMemo(
    () => ({
      ...base,
      initialValues: initialValues ?? base.initialValues,
      onFinish: (values: V) => {
        const problem = validate?.(values as Record<string, unknown>);
        if (problem) {
          message.error(problem);
          return;
        }
        return base.onFinish?.(values);
      },
    }),
    // initialValues are read on the form's first render only
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [base, validate, message],
  );
  return { ...table, searchFormProps, params };
}

export default useSchemaList;
