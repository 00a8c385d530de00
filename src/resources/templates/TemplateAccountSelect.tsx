/** The agent's sub-accounts for templates (GET /autoTemplate/autoTemplateAccounts), shown as clientid-name. */
import { Select, type SelectProps } from 'antd';
import { useCustom } from '@refinedev/core';
import type { TemplateAccount } from './api';
import { MESSAGES } from '../../../common/schema/messages';

export function useTemplateAccounts(agentId: string | undefined, enabled = true) {
  const { result, query } = useCustom<TemplateAccount[]>({
    url: '/autoTemplate/autoTemplateAccounts',
    method: 'get',
    config: { query: { agentId } },
    queryOptions: { enabled: enabled && !!agentId, staleTime: 60_000 },
  });
  const data = result?.data as unknown;
  return { data: (Array.isArray(data) ? data : []) as TemplateAccount[], isLoading: query.isLoading };
}

export function TemplateAccountSelect({ agentId, ...props }: SelectProps & { agentId?: string }) {
  const { data, isLoading } = useTemplateAccounts(agentId);
  return (
    <Select
      allowClear
      showSearch
      optionFilterProp="label"
      placeholder={MESSAGES.pickSubAccount}
      style={{ minWidth: 200 }}
      loading={isLoading}
      options={data.map((a) => ({ value: a.clientid, label: `${a.clientid}-${a.name}` }))}
      {...props}
    />
  );
}
