/**
 * The protected part of the console, loaded as its own chunk: Refine with the console's
 * providers, the session check (<Authenticated>, target path kept for the login redirect) and
 * the layout. Public pages never load this.
 *
 * A path that is no screen (Not Found) needs no session: a logged-in user sees Not Found in the
 * shell, anyone else sees it alone (no redirect to the login page).
 */
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { Authenticated } from '@refinedev/core';
import { ConsoleRefine } from '@/providers/ConsoleRefine';
import type { CheckParams } from '@/providers/authProvider';
import { PageLoading } from '@/pages/PageLoading';
import NotFound from '@/pages/NotFound';
import ConsoleLayout from './ConsoleLayout';
import { screenAt, useScreens } from './screens';

/**
 * Protected content: session check first, with the target path in the login redirect; or, with
 * `fallback`, that instead of the redirect.
 */
export function RequireSession({ children, fallback }: { children: ReactNode; fallback?: ReactNode }) {
  const location = useLocation();
  const params: CheckParams = { target: `${location.pathname}${location.search}` };
  return (
    <Authenticated key="console" appendCurrentPathToQuery={false} params={params} loading={<PageLoading />} fallback={fallback}>
      {children}
    </Authenticated>
  );
}

export default function ConsoleRoot() {
  const table = useScreens();
  const { pathname } = useLocation();
  const unknown = !screenAt(table, pathname);
  return (
    <ConsoleRefine>
      <RequireSession fallback={unknown ? <NotFound /> : undefined}>
        <ConsoleLayout />
      </RequireSession>
    </ConsoleRefine>
  );
}
