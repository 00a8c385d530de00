/**
 * The protected part of the operator console, its own chunk: Refine with the operators' auth
 * provider (./authProvider: GET /login/timeout, GET /operator/me, an account's session sent to
 * "/"), the session check and the shell. A path of /ops that is no screen shows Not Found in the
 * shell once the session is checked, alone otherwise.
 */
import { useLocation } from 'react-router';
import { ConsoleRefine } from '@/providers/ConsoleRefine';
import NotFound from '@/pages/NotFound';
import { RequireSession } from '@/layout/RequireSession';
import { screenAt, useScreens } from '@/layout/screens';
import { opsAuthProvider } from './authProvider';
import OpsLayout from './OpsLayout';

export default function OpsRoot() {
  const table = useScreens();
  const { pathname } = useLocation();
  const unknown = !screenAt(table, pathname);
  return (
    <ConsoleRefine authProvider={opsAuthProvider}>
      <RequireSession fallback={unknown ? <NotFound home={table.home} /> : undefined}>
        <OpsLayout />
      </RequireSession>
    </ConsoleRefine>
  );
}
