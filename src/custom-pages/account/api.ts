/** The account area's calls (spec 01 §7) and the queries the screens share. */
import type { BaseRecord } from '@refinedev/core';
import { useCustom } from '@refinedev/core';
import { useQueryClient } from '@tanstack/react-query';
import type {
  AgentBaseInfo,
  CertificationInfo,
  CountryCode,
  CurrentUser,
  EnterpriseBaseInfo,
} from '@/generated/schemas';
import { get, postForm } from '@/providers/http';

export const accountApi = {
  editAgentBaseInfo: (v: Record<string, unknown>) => postForm('/admin/baseinfo/edit', v),
  updateClient: (v: Record<string, unknown>) => postForm('/account/updateClient', v),
  saveUserInfo: (v: Record<string, unknown>) => postForm('/admin/info/save', v),
  sendPhoneCode: (v: { mobile: string; countryCode: string }) => postForm('/userCenter/sendNoPicCode', v),
  changePassword: (v: Record<string, unknown>) => postForm('/password/save', v),
  addCertification: (v: Record<string, unknown>) => postForm<{ oauth_status: number }>('/admin/cer/add', v),
  editCertification: (v: Record<string, unknown>) => postForm<{ oauth_status: number }>('/admin/cer/edit', v),
  clientCertification: (clientId: string) => get<CertificationInfo>('/client/cer/info', { clientId }),
  /** an agent (re-)submits its sub-account's certification */
  editClientCertification: (clientId: string, v: Record<string, unknown>) =>
    postForm<{ oauth_status: number }>(`/client/cer/edit?clientId=${encodeURIComponent(clientId)}`, v),
};

function useGet<T>(url: string, params?: Record<string, unknown>, enabled = true) {
  const { result, query } = useCustom<BaseRecord>({
    url,
    method: 'get',
    config: params ? { query: params } : undefined,
    queryOptions: { enabled },
  });
  return {
    data: (enabled ? result.data : undefined) as T | undefined,
    isLoading: enabled && query.isLoading,
    isError: query.isError,
    refetch: query.refetch,
  };
}

export const useUserInfo = () => useGet<CurrentUser>('/admin/info');
export const useAgentBaseInfo = (enabled = true) => useGet<AgentBaseInfo>('/admin/baseinfo', undefined, enabled);
export const useEnterpriseBaseInfo = (enabled = true) =>
  useGet<EnterpriseBaseInfo>('/account/clientinfo', undefined, enabled);
export const useOwnCertification = (enabled = true) => useGet<CertificationInfo>('/admin/cer/info', undefined, enabled);
export const useClientCertification = (clientId?: string) =>
  useGet<CertificationInfo>('/client/cer/info', { clientId }, !!clientId);

export function useCountryCodes() {
  const { result, query } = useCustom<BaseRecord>({
    url: '/userCenter/getCountryCodeList',
    method: 'post',
    queryOptions: { staleTime: Infinity },
  });
  return { data: (result.data as unknown as CountryCode[] | undefined) ?? [], isLoading: query.isLoading };
}

/** After a change: every query refetches (the layout's banner, the identity, the screens). */
export function useRefreshAll() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries();
}
