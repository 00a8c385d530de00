/** Data the shell reads: current user, branding, certification status; what access rules read of them. */
import { keys, useCustom, useGetIdentity, type AuthProvider, type DataProvider } from '@refinedev/core';
import type { QueryClient } from '@tanstack/react-query';
import type { AgentBaseInfo, Branding, CurrentUser } from '@/generated/schemas';
import { isAgent, type AccessUser } from '@/providers/access';

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

/** Where the certification status of this account comes from: agents GET /admin/baseinfo, sub-accounts GET /client/oauth. */
export const certificationUrl = (user: AccessUser | null | undefined) => (isAgent(user) ? '/admin/baseinfo' : '/client/oauth');

/** One query key for the certification status, shared by the banner and the route guard (one call). */
export const certificationQueryKey = (url: string) => ['console', 'certification', url] as const;

/** Certification status of the current account (see certificationUrl). */
export function useCertification(user: CurrentUser | null) {
  const url = certificationUrl(user);
  const { result, query } = useCustom<CertificationInfo>({
    url,
    method: 'get',
    queryOptions: { enabled: !!user, queryKey: certificationQueryKey(url) },
  });
  return { info: user ? result.data : undefined, isLoading: query.isLoading };
}

/** What the access rules read: the user with the certification status of the banner's source. */
export const accessUserOf = (user: CurrentUser | null | undefined, certification?: CertificationInfo): AccessUser | null =>
  user ? { ...user, oauth_status: certification?.oauth_status } : null;

/**
 * The current user for Refine's access control, from the same query cache as useCurrentUser and
 * useCertification: asking `can` fires no call the shell does not make anyway.
 */
export async function loadAccessUser(
  queryClient: QueryClient,
  auth: Pick<AuthProvider, 'getIdentity'>,
  data: Pick<DataProvider, 'custom'>,
  { certification }: { certification: boolean },
): Promise<AccessUser | null> {
  const user = await queryClient.fetchQuery({
    queryKey: keys().auth().action('identity').get(),
    queryFn: async () => (await auth.getIdentity?.()) ?? null,
    staleTime: Infinity,
  });
  if (!user || !certification) return (user as CurrentUser | null) ?? null;
  const url = certificationUrl(user as CurrentUser);
  const answer = await queryClient
    .fetchQuery({ queryKey: certificationQueryKey(url), queryFn: () => data.custom!({ url, method: 'get' }), staleTime: Infinity })
    .catch(() => undefined);
  return accessUserOf(user as CurrentUser, (answer as { data?: CertificationInfo } | undefined)?.data);
}
