/**
 * Protected content of a console (the accounts' ConsoleRoot, the operators' OpsRoot): the session
 * check of the Refine auth provider in use (<Authenticated>), with the target path kept for the
 * login redirect; or, with `fallback`, that instead of the redirect.
 */
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { Authenticated } from '@refinedev/core';
import type { CheckParams } from '@/providers/authProvider';
import { PageLoading } from '@/pages/PageLoading';

export function RequireSession({ children, fallback }: { children: ReactNode; fallback?: ReactNode }) {
  const location = useLocation();
  const params: CheckParams = { target: `${location.pathname}${location.search}` };
  return (
    <Authenticated
      key="console"
      appendCurrentPathToQuery={false}
      params={params}
      loading={<PageLoading />}
      fallback={fallback}
    >
      {children}
    </Authenticated>
  );
}
