/**
 * The sub-account picker of every agent screen: options `clientid-name` from POST /send/getclients
 * (getAll), searchable, with an optional leading 全部账户 option (value ''). A controlled antd
 * input (value / onChange), so it sits in antd forms and filter bars; `ClientSelectWidget` adapts
 * it for schema forms (x-widget: client-select).
 */
import { useCustom } from '@refinedev/core';
import { Select, type SelectProps } from 'antd';

export interface ClientOption {
  clientid: string;
  name: string;
}

export interface ClientSelectProps extends Omit<SelectProps<string>, 'options' | 'loading'> {
  /** a leading 全部账户 option (value '') */
  allOption?: boolean;
  /** only accounts allowed domestic (0) or international (1) sending */
  phoneInoutType?: 0 | 1;
}

export const ALL_ACCOUNTS_LABEL = '全部账户';

/** The picker's options, from /send/getclients. */
export function useClientOptions(phoneInoutType?: 0 | 1) {
  const { result, query } = useCustom<ClientOption[]>({
    url: '/send/getclients',
    method: 'post',
    config: { payload: { getAll: 1, ...(phoneInoutType !== undefined ? { phoneInoutType } : {}) } },
    queryOptions: { staleTime: 60_000 },
  });
  const list = Array.isArray(result?.data) ? result.data : [];
  return { clients: list, isLoading: query.isLoading };
}

export function ClientSelect({
  allOption,
  phoneInoutType,
  placeholder = '请选择子账户',
  style,
  ...rest
}: ClientSelectProps) {
  const { clients, isLoading } = useClientOptions(phoneInoutType);
  const options = [
    ...(allOption ? [{ value: '', label: ALL_ACCOUNTS_LABEL }] : []),
    ...clients.map((c) => ({ value: c.clientid, label: `${c.clientid}-${c.name}` })),
  ];
  return (
    <Select<string>
      showSearch
      optionFilterProp="label"
      allowClear={!allOption}
      placeholder={placeholder}
      loading={isLoading}
      notFoundContent={isLoading ? '加载中…' : '暂无子账户'}
      style={{ minWidth: 220, ...style }}
      data-testid="client-select"
      options={options}
      {...rest}
    />
  );
}

/** RJSF widget (x-widget: client-select) over ClientSelect. */
export function ClientSelectWidget(props: {
  id?: string;
  value?: string;
  disabled?: boolean;
  readonly?: boolean;
  onChange: (v: string | undefined) => void;
  placeholder?: string;
}) {
  return (
    <ClientSelect
      id={props.id}
      value={props.value || undefined}
      disabled={props.disabled || props.readonly}
      placeholder={props.placeholder || undefined}
      onChange={(v) => props.onChange(v || undefined)}
    />
  );
}

export default ClientSelect;
