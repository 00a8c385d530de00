/**
 * The route guard: asks Refine's access control (`can({ resource: <screen name>, action: 'list' })`,
 * see providers/access.ts) whether this account may open the screen at the current location, and
 * renders the page only then. Refused: the 无权访问 page, and the page component is never mounted
 * (so it makes no call). While deciding: a spinner. Not a screen (Not Found): rendered as is.
 */
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { useCan } from '@refinedev/core';
import Forbidden from '@/pages/Forbidden';
import { PageLoading } from '@/pages/PageLoading';
import { refusalOf } from '@/providers/access';
import { enumLabel } from '@/schema';
import { useCurrentUser } from './hooks';
import {
  linkOf,
  screenAllowed,
  screenAt,
  screenByName,
  useScreens,
  type ScreenEntry,
  type ScreenTable,
} from './screens';

/** The refused page: why, and the screen to go to instead when this user may open it. */
function Refused({ table, entry }: { table: ScreenTable; entry: ScreenEntry }) {
  const { user } = useCurrentUser();
  const { reason, go } = refusalOf(
    entry.chain.map((s) => s.access),
    user,
    (role) => enumLabel('operator-role', role) ?? String(role),
  );
  const target = go ? screenByName(table, go) : undefined;
  return (
    <Forbidden
      reason={reason}
      home={table.home}
      go={
        target && screenAllowed(target, user)
          ? { label: `前往${target.screen.label}`, link: linkOf(target) }
          : undefined
      }
    />
  );
}

export function RouteGuard({ children }: { children: ReactNode }) {
  const table = useScreens();
  const { pathname } = useLocation();
  const entry = screenAt(table, pathname);
  const { data, isPlaceholderData, isError } = useCan({
    resource: entry?.screen.name,
    action: 'list',
    // never the previous screen's answer while this one's is loading
    queryOptions: { enabled: !!entry, placeholderData: undefined },
  });
  if (!entry) return <>{children}</>;
  if (isError) return <Forbidden home={table.home} />;
  if (!data || isPlaceholderData) return <PageLoading />;
  return data.can ? <>{children}</> : <Refused table={table} entry={entry} />;
}
