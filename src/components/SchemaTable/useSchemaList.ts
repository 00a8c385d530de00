/**
 * The list hook of every list screen: Refine's useTable (@refinedev/antd) with the console's
 * defaults, and the filter bar's values turned into request parameters by the list's filter schema
 * (schemaFilters: dates by `format`, `x-trim`, `x-param` renames, empty values left out).
 *
 * - page size: the resource's `list.pageSize` (src/providers/resources.ts), else 15;
 * - filters are not kept in the address bar;
 * - 查询 with unchanged filters reloads the list (to see, e.g., the outcome of a review);
 * - `params` are the current filters as sent, for the screen's export.
 *
 * Pass `tableProps` to SchemaTable and `searchFormProps` to SchemaFilterBar.
 */
import { useRef, useState } from 'react';
import equal from 'fast-deep-equal';
import { useTable, type useTableProps } from '@refinedev/antd';
import type { BaseRecord, CrudFilter, HttpError } from '@refinedev/core';
import { schemas } from '@/schema';
import { DEFAULT_PAGE_SIZE, resources } from '@/providers/resources';
import { filterParamNames, schemaFilters, type FilterParams } from '../../../common/schema/filters';

export interface SchemaListOptions<T extends BaseRecord, V> extends Omit<useTableProps<T, HttpError, V, T>, 'resource' | 'onSearch'> {
  /** the filter schema of the filter bar, e.g. "filters/sign" */
  filterSchema?: string;
  /** rows per page when neither the screen nor the resource says (resources.ts `list.pageSize`) */
  pageSize?: number;
}

/** The page size of a resource's list: its declaration's, else 15. */
export const listPageSize = (resource: string) => resources[resource]?.list?.pageSize ?? DEFAULT_PAGE_SIZE;

/** The filter bar's values -> Refine filters: every parameter of the schema, the empty ones as undefined (which clears them). */
export function searchFilters(filterSchema: string, values: Record<string, unknown> | undefined): { params: FilterParams; filters: CrudFilter[] } {
  const schema = schemas.get(filterSchema);
  const params = schemaFilters(schema, values);
  return { params, filters: filterParamNames(schema).map((field) => ({ field, operator: 'eq', value: params[field] })) };
}

export function useSchemaList<T extends BaseRecord = BaseRecord, V = Record<string, unknown>>(
  resource: string,
  { filterSchema, pageSize, pagination, ...options }: SchemaListOptions<T, V> = {},
) {
  const [params, setParams] = useState<FilterParams>({});
  const sent = useRef<FilterParams>({});
  const table = useTable<T, HttpError, V>({
    resource,
    syncWithLocation: false,
    ...options,
    pagination: { pageSize: pageSize ?? listPageSize(resource), ...pagination },
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
  return { ...table, params };
}

export default useSchemaList;
