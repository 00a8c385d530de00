/** Data the shell reads: current user, branding, certification status. */
import { useCustom, useGetIdentity } from '@refinedev/core';
import type { AgentBaseInfo, Branding, CurrentUser } from '@/generated/schemas';
import { isAgent } from '@/providers/access';

export function useCurrentUser() {
  const { data, isLoading } = useGetIdentity<CurrentUser | null>();
  return { user: data ?? null, isLoading };
}

/** GET /loginInfo: copyright text, logo, platform name. */
export function useBranding() {
  const { result, query } = useCustom<Branding>({ url: '/loginInfo', method: 'get', queryOptions: { staleTime: Infinity } });
  return { branding: result.data as Branding | undefined, isLoading: query.isLoading };
}

export type CertificationInfo = Pick<AgentBaseInfo, 'oauth_status' | 'oauth_remark'>;

/** Certification status of the current account: agents GET /admin/baseinfo, sub-accounts GET /client/oauth. */
export function useCertification(user: CurrentUser | null) {
  const url = isAgent(user) ? '/admin/baseinfo' : '/client/oauth';
  const { result, query } = useCustom<CertificationInfo>({
    url,
    method: 'get',
    queryOptions: { enabled: !!user },
  });
  return { info: (user ? result.data : undefined) as CertificationInfo | undefined, isLoading: query.isLoading };
}
