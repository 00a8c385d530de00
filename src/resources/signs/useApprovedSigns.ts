import { useList } from '@refinedev/core';
import { SignState, type Sign } from '@/generated/schemas';

/**
 * The account's approved signs (POST /sign/list: state 审核通过, the chosen account): what a send or a
 * template may carry (the server refuses any other). Nothing is asked before an account is known.
 */
export function useApprovedSigns(clientId: string | undefined) {
  const { result, query } = useList<Sign & { id?: number }>({
    resource: 'signs',
    pagination: { currentPage: 1, pageSize: 100 },
    filters: [
      { field: 'state', operator: 'eq', value: SignState.Approved },
      ...(clientId ? [{ field: 'clientid', operator: 'eq' as const, value: clientId }] : []),
    ],
    queryOptions: { enabled: !!clientId, staleTime: 60_000 },
  });
  const signs = [
    ...new Set(
      (result?.data ?? [])
        .filter((s) => s.state === SignState.Approved && (!clientId || !s.clientid || s.clientid === clientId))
        .map((s) => s.sign),
    ),
  ];
  return { signs, loading: query.isFetching, loaded: !!clientId && query.isSuccess };
}
