/**
 * The pending counts of 审核 (GET /operator/review/counts, entities/review-counts.json): the side
 * menu's badges and the review lists' headers read one query; a decision refreshes it
 * (useRefreshReviewCounts), and it is asked again every minute and when the window gets the focus
 * back, so work another operator took leaves the badges. A failure shows no badge (no toast).
 */
import { useCallback } from 'react';
import { useCustom } from '@refinedev/core';
import { useQueryClient } from '@tanstack/react-query';
import type { ReviewCounts } from '@/generated/schemas';
import { REVIEW_COUNTS_URL } from './data';

export const REVIEW_COUNTS_QUERY = ['ops', 'review-counts'] as const;
export const REVIEW_COUNTS_EVERY_MS = 60_000;

export function useReviewCounts(enabled = true) {
  const { result, query } = useCustom<ReviewCounts>({
    url: REVIEW_COUNTS_URL,
    method: 'get',
    meta: { silent: true },
    queryOptions: {
      enabled,
      queryKey: REVIEW_COUNTS_QUERY,
      refetchInterval: REVIEW_COUNTS_EVERY_MS,
      refetchOnWindowFocus: true,
    },
  });
  return { counts: query.isError ? undefined : (result.data as ReviewCounts | undefined), isLoading: query.isLoading };
}

export function useRefreshReviewCounts() {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: REVIEW_COUNTS_QUERY }), [queryClient]);
}
