/**
 * The list hook of every list screen: Refine's useTable (@refinedev/antd) with the console's
 * defaults, and the filter bar's values turned into request parameters by the list's filter schema
 * (schemaFilters: dates by `format`, `x-trim`, `x-param` renames, empty values left out).
 *
 * - the resource: the page's data declaration from its folder's data.ts (layout/declarations
 *   DataResource): its name, its filter schema (`filter`) and page size (`list.pageSize`, else 15);
 * - the filters, the page and the page size are kept in the address bar (listUrl.ts), so a reload
 *   or a shared link shows the same list (lists with a filter schema; `syncUrl: false` opts out);
 * - 重置 in the filter bar (searchFormProps.onReset) puts back the first values and searches;
 * - a load failure is `tableProps.listError` (its message and a retry), which SchemaTable shows in
 *   place of 暂无数据 (the failure's one toast is the HTTP client's);
 * - 查询 with unchanged filters reloads the list (to see, e.g., the outcome of a review);
 * - `params` are the current filters as sent, for the screen's export;
 * - `initialValues`: the filter bar's first values (a default date range), sent with the first call;
 *   a filter schema's `x-default-days` on a range's start gives its range first (defaultRange.ts),
 *   and a property's `default` its value (只看待审核 on: filters/review.json);
 * - `validate`: a check of the filter values before a search (a date span rule): its message is
 *   shown as an error and the list is not asked.
 *
 * Pass `tableProps` to SchemaTable and `searchFormProps` to SchemaFilterBar.
 */
import { useContext, useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import { UNSAFE_NavigationContext, useLocation, useNavigate } from 'react-router';
import equal from 'fast-deep-equal';
import { App } from 'antd';
import { useTable, type useTableProps } from '@refinedev/antd';
import type { BaseRecord, CrudFilter, HttpError } from '@refinedev/core';
import { schemas } from '@/schema';
import { DEFAULT_PAGE_SIZE } from '@/providers/dataProvider';
import type { DataResource } from '@/layout/declarations';
import type { ListError } from './SchemaTable';
import { readListUrl, writeListUrl } from './listUrl';
import { defaultRange } from './defaultRange';
import { filterParamNames, schemaFilters, type FilterParams } from '../../../common/schema/filters';
import type { JsonSchema } from '../../../common/schema';

export interface SchemaListOptions<T extends BaseRecord, V> extends Omit<
  useTableProps<T, HttpError, V, T>,
  'resource' | 'onSearch'
> {
  /** the filter schema of the filter bar, e.g. "filters/sign" (default: the declaration's `filter`) */
  filterSchema?: string;
  /** rows per page (default: the declaration's `list.pageSize`, else 15) */
  pageSize?: number;
  /** the filter bar's initial values (sent with the first call) */
  initialValues?: Record<string, unknown>;
  /** checks the filter values before a search: a message refuses it (shown as an error toast) */
  validate?: (values: Record<string, unknown>) => string | null | undefined;
  /** keep the filters, page and page size in the address bar (default: when the list has a filter schema) */
  syncUrl?: boolean;
}

/** A filter schema's property defaults (`"default": true`), as the filter bar's first values. */
export function schemaDefaults(schema: JsonSchema): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries<JsonSchema>(schema.properties ?? {}).flatMap(([name, p]) =>
      p.default !== undefined ? [[name, p.default]] : [],
    ),
  );
}

/** The page size of a resource's list: its declaration's, else 15 (a bare name: 15). */
export const listPageSize = (resource: string | DataResource) =>
  (typeof resource === 'string' ? undefined : resource.list?.pageSize) ?? DEFAULT_PAGE_SIZE;

/** The filter bar's values -> Refine filters: every parameter of the schema, the empty ones as undefined (which clears them). */
export function searchFilters(
  filterSchema: string,
  values: Record<string, unknown> | undefined,
): { params: FilterParams; filters: CrudFilter[] } {
  const schema = schemas.get(filterSchema);
  const params = schemaFilters(schema, values);
  return {
    params,
    filters: filterParamNames(schema).map((field) => ({ field, operator: 'eq', value: params[field] })),
  };
}

/**
 * The router's current address, read when called: its history's (BrowserRouter, MemoryRouter),
 * which a navigation moves at once, before React renders it (undefined for a router without one).
 */
function useRouterAddress(): () => { pathname: string; search: string } | undefined {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  return () => (navigator as Partial<{ location: { pathname: string; search: string } }>).location;
}

export function useSchemaList<T extends BaseRecord = BaseRecord, V = Record<string, unknown>>(
  declaration: string | DataResource,
  {
    filterSchema: givenFilter,
    pageSize,
    pagination,
    initialValues: givenInitial,
    validate,
    syncUrl,
    ...options
  }: SchemaListOptions<T, V> = {},
) {
  const resource = typeof declaration === 'string' ? declaration : declaration.name;
  const filterSchema = givenFilter ?? (typeof declaration === 'string' ? undefined : declaration.filter);
  const defaultPageSize = pageSize ?? listPageSize(declaration);
  const urlSync = syncUrl ?? !!filterSchema;
  const { message } = App.useApp();
  // the page the list was opened on: its address is the only one it writes (below)
  const { pathname, search: address } = useLocation();
  const [listPath] = useState(pathname);
  // the address bar's state (a reload, a shared link), read once
  const [fromUrl] = useState(() => (urlSync ? readListUrl(filterSchema, new URLSearchParams(address)) : {}));
  // the schema's defaults (a property's `default`, the date range of x-default-days: defaultRange.ts)
  // under the page's own first values
  const [firstValues] = useState(() => {
    const defaults = filterSchema
      ? { ...schemaDefaults(schemas.get(filterSchema)), ...defaultRange(schemas.get(filterSchema)) }
      : {};
    return Object.keys(defaults).length ? { ...defaults, ...givenInitial } : givenInitial;
  });
  const initialValues = firstValues;
  // a link may name a few filters (?taskId=…&beginDate=…): the page's first values fill in the rest
  const startValues = fromUrl.values ? { ...initialValues, ...fromUrl.values } : initialValues;
  // the first values, as parameters and as Refine filters (computed once: a default range stays put)
  const [initial] = useState(() =>
    filterSchema && startValues ? searchFilters(filterSchema, startValues) : undefined,
  );
  const [params, setParams] = useState<FilterParams>(initial?.params ?? {});
  const sent = useRef<FilterParams>(initial?.params ?? {});
  const table = useTable<T, HttpError, V>({
    resource,
    syncWithLocation: false,
    ...options,
    ...(initial ? { filters: { ...options.filters, initial: initial.filters } } : {}),
    pagination: {
      pageSize: fromUrl.pageSize ?? defaultPageSize,
      ...(fromUrl.current ? { currentPage: fromUrl.current } : {}),
      ...pagination,
    },
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
  const { searchFormProps: base, currentPage, pageSize: size } = table;
  // the list's state into the address bar (replacing the entry: back leaves the page, not a filter),
  // only while the router's own address is still the list's page. React's location lags behind it
  // while a navigation waits in a transition: a link that leaves the list (its dialog's 查看发送记录)
  // has already moved the router, and a write relative to the list's route would replace the link's
  // address with the list's and keep the user on the list.
  const navigate = useNavigate();
  const routerAddress = useRouterAddress();
  const writeAddress = useEffectEvent(() => {
    const now = routerAddress() ?? { pathname, search: address };
    if (now.pathname !== listPath) return;
    const prev = new URLSearchParams(now.search);
    const next = writeListUrl(prev, filterSchema, { params, current: currentPage, pageSize: size, defaultPageSize });
    if (next.toString() !== prev.toString())
      void navigate({ pathname: listPath, search: `?${next}` }, { replace: true });
  });
  useEffect(() => {
    if (urlSync) writeAddress();
  }, [urlSync, pathname, address, filterSchema, params, currentPage, size, defaultPageSize]);
  const searchFormProps = useMemo(
    () => ({
      ...base,
      initialValues: startValues ?? base.initialValues,
      // 重置 (the filter bar's reset button): the first values (not the address bar's), and search
      onReset: () => {
        const names = filterSchema ? Object.keys(schemas.get(filterSchema).properties ?? {}) : [];
        base.form?.setFieldsValue({
          ...Object.fromEntries(names.map((n) => [n, undefined])),
          ...initialValues,
        } as Parameters<NonNullable<typeof base.form>['setFieldsValue']>[0]);
        base.form?.submit();
      },
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
  const { tableQuery } = table;
  const listError: ListError | null =
    tableQuery.isError && tableQuery.error
      ? { message: tableQuery.error.message || '加载失败', retry: () => void tableQuery.refetch() }
      : null;
  const tableProps = {
    ...table.tableProps,
    listError,
    pagination: table.tableProps.pagination && { ...table.tableProps.pagination, defaultPageSize },
  };
  return { ...table, tableProps, searchFormProps, params };
}

export default useSchemaList;
