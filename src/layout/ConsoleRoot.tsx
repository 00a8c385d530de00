/**
 * The protected part of the console, loaded as its own chunk: Refine with the console's
 * providers, the session check (<Authenticated>, target path kept for the login redirect) and
 * the layout. Public pages never load this.
 */
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { Authenticated } from '@refinedev/core';
import { ConsoleRefine } from '@/providers/ConsoleRefine';
import type { CheckParams } from '@/providers/authProvider';
import { PageLoading } from '@/pages/PageLoading';
import ConsoleLayout from './ConsoleLayout';

/** Protected content: session check first, with the target path in the login redirect. */
export function RequireSession({ children }: { children: ReactNode }) {
  const location = useLocation();
  const params: CheckParams = { target: `${location.pathname}${location.search}` };
  return (
    <Authenticated key="console" appendCurrentPathToQuery={false} params={params} loading={<PageLoading />}>
      {children}
    </Authenticated>
  );
}

export default function ConsoleRoot() {
  return (
    <ConsoleRefine>
      <RequireSession>
        <ConsoleLayout />
      </RequireSession>
    </ConsoleRefine>
  );
}
