/**
 * The protected part of the console, loaded as its own chunk: Refine with the console's
 * providers, the session check (<Authenticated>, target path kept for the login redirect) and
 * the layout. Public pages never load this.
 *
 * A path that is no screen (Not Found) needs no session: a logged-in user sees Not Found in the
 * shell, anyone else sees it alone (no redirect to the login page).
 */
import { useLocation } from 'react-router';
import { ConsoleRefine } from '@/providers/ConsoleRefine';
import NotFound from '@/pages/NotFound';
import ConsoleLayout from './ConsoleLayout';
import { RequireSession } from './RequireSession';
import { screenAt, useScreens } from './screens';

export { RequireSession };

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
