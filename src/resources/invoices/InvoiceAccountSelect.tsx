/**
 * 开票账户 (ui:widget `invoiceAccount` of forms/invoice.json `clientId`): an agent applies for
 * itself (本账户, value '') or on behalf of one of its sub-accounts (`clientid-name`, from POST
 * /send/getclients as every sub-account picker). Sub-accounts never see it (the page hides it).
 */
import { Select } from 'antd';
import type { WidgetProps } from '@rjsf/utils';
import { useClientOptions } from '@/components/ClientSelect/ClientSelect';

/** the option of the agent's own account */
export const OWN_ACCOUNT_LABEL = '本账户';

export function InvoiceAccountWidget({ id, value, onChange, onBlur, disabled, readonly }: WidgetProps) {
  const { clients, isLoading } = useClientOptions();
  const options = [
    { value: '', label: OWN_ACCOUNT_LABEL },
    ...clients.map((c) => ({ value: c.clientid, label: `${c.clientid}-${c.name}` })),
  ];
  return (
    <Select<string>
      id={id}
      data-testid="invoice-account"
      showSearch
      optionFilterProp="label"
      options={options}
      loading={isLoading}
      value={typeof value === 'string' ? value : ''}
      disabled={disabled || readonly}
      notFoundContent={isLoading ? '加载中…' : '暂无子账户'}
      onChange={(v) => onChange(v || undefined)}
      onBlur={() => onBlur(id, value)}
      style={{ width: '100%' }}
    />
  );
}

export default InvoiceAccountWidget;
