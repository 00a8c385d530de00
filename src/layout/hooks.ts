/** Data the shell reads: current user, branding, certification status; what access rules read of them. */
import { keys, useCustom, useGetIdentity, type AuthProvider, type DataProvider } from '@refinedev/core';
import { useCallback, useEffect, useRef } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { OauthStatus, type AgentBaseInfo, type Branding, type CurrentUser } from '@/generated/schemas';
import { oauthStatusOf } from '@/domain/certification';
import { isAgent, type AccessUser } from '@/providers/access';

export function useCurrentUser() {
  const { data, isLoading } = useGetIdentity<CurrentUser | null>();
  return { user: data ?? null, isLoading };
}

/** GET /loginInfo: copyright text, logo, platform name. */
export function useBranding() {
  const { result, query } = useCustom<Branding>({
    url: '/loginInfo',
    method: 'get',
    queryOptions: { staleTime: Infinity },
  });
  return { branding: result.data as Branding | undefined, isLoading: query.isLoading };
}

export type CertificationInfo = Pick<AgentBaseInfo, 'oauth_status' | 'oauth_remark'>;

/** Where the certification status of this account comes from: agents GET /admin/baseinfo, sub-accounts GET /client/oauth. */
export const certificationUrl = (user: AccessUser | null | undefined) =>
  isAgent(user) ? '/admin/baseinfo' : '/client/oauth';

/** the prefix of the certification status's query keys */
const CERTIFICATION_QUERY = ['console', 'certification'] as const;

/** One query key for the certification status, shared by the banner and the route guard (one call). */
export const certificationQueryKey = (url: string) => [...CERTIFICATION_QUERY, url] as const;

/** How often the shell asks again while the documents are under review (待认证). */
export const CERTIFICATION_POLL_MS = 30_000;

const underReview = (answer: { data?: CertificationInfo } | undefined) =>
  oauthStatusOf(answer?.data?.oauth_status) === OauthStatus.Pending;

/**
 * Certification status of the current account (see certificationUrl). `watchEveryMs` (the shell
 * only: one observer polls): while the status is 待认证 the query asks again that often and when
 * the window gets the focus back, so an approval shows without a reload.
 */
export function useCertification(user: CurrentUser | null, { watchEveryMs }: { watchEveryMs?: number } = {}) {
  const url = certificationUrl(user);
  const { result, query } = useCustom<CertificationInfo>({
    url,
    method: 'get',
    queryOptions: {
      enabled: !!user,
      queryKey: certificationQueryKey(url),
      ...(watchEveryMs
        ? {
            refetchInterval: (q) => (underReview(q.state.data) ? watchEveryMs : false),
            refetchOnWindowFocus: (q) => underReview(q.state.data),
          }
        : {}),
    },
  });
  return { info: user ? result.data : undefined, isLoading: query.isLoading };
}

/**
 * The shell's watch of the certification status (issue 41 item 3): polls while 待认证
 * (useCertification's `watchEveryMs`), and when the status it last saw changes (approved,
 * rejected: by the operator, or a submit) every query is refetched: the identity, the menus and
 * the guard's access decisions, the certification and base-info pages all show the new state
 * without a reload. Returns the status as useCertification does.
 */
export function useCertificationWatch(user: CurrentUser | null, everyMs = CERTIFICATION_POLL_MS) {
  const queryClient = useQueryClient();
  const answer = useCertification(user, { watchEveryMs: everyMs });
  const status = oauthStatusOf(answer.info?.oauth_status);
  const seen = useRef<OauthStatus | undefined>(undefined);
  useEffect(() => {
    if (status === undefined) return;
    const before = seen.current;
    seen.current = status;
    if (before !== undefined && before !== status) void queryClient.invalidateQueries();
  }, [status, queryClient]);
  return answer;
}

/** Asks the shell's certification status again now (a page that shows the status, when it opens). */
export function useRefreshCertification() {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: [...CERTIFICATION_QUERY] }), [queryClient]);
}

/** What the access rules read: the user with the certification status of the banner's source. */
export const accessUserOf = (
  user: CurrentUser | null | undefined,
  certification?: CertificationInfo,
): AccessUser | null => (user ? { ...user, oauth_status: certification?.oauth_status } : null);

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
    .fetchQuery({
      queryKey: certificationQueryKey(url),
      queryFn: () => data.custom!({ url, method: 'get' }),
      staleTime: Infinity,
    })
    .catch(() => undefined);
  return accessUserOf(user as CurrentUser, (answer as { data?: CertificationInfo } | undefined)?.data);
}
