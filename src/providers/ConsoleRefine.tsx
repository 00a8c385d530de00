/**
 * Refine wired to the console's providers (router, auth, data, access control) and to the screen
 * table (Refine's `resources`, the rules `can` applies, the endpoints of the data resources the
 * folders declare). Must sit inside a react-router router and inside AppProviders. Only the
 * protected part of the app mounts it (the public pages do not load Refine); stories use it
 * through src/stories/withApp.tsx.
 *
 * It owns its react-query client (Refine's defaults) so the access control provider reads the
 * identity and certification status from the same cache as the shell (see layout/hooks.ts).
 * Queries are not retried: a failure is toasted once (http.ts) and a list shows it with 重试
 * (SchemaTable), where react-query's three silent retries toasted it four times.
 */
import { useMemo, useState, type ReactNode } from 'react';
import { Refine, type AuthProvider, type DataProvider } from '@refinedev/core';
import { keepPreviousData, QueryClient, type QueryClientConfig } from '@tanstack/react-query';
import { loadAccessUser } from '@/layout/hooks';
import { iconOf } from '@/layout/menuIcons';
import { refineResources, rulesOf, useScreens } from '@/layout/screens';
import { createAccessControlProvider } from './access';
import { routerProvider } from './routerProvider';
import { authProvider as defaultAuthProvider } from './authProvider';
import { resourceRegistry } from '@/layout/declarations';
import { createDataProvider } from './dataProvider';

export interface ConsoleRefineProps {
  children: ReactNode;
  authProvider?: AuthProvider;
  /** default: over the data resources the screen table declares (resourceRegistry) */
  dataProvider?: DataProvider;
  /** react-query client config (stories/tests: no retries) */
  queryClientConfig?: QueryClientConfig;
}

export function ConsoleRefine({
  children,
  authProvider = defaultAuthProvider,
  dataProvider: givenDataProvider,
  queryClientConfig,
}: ConsoleRefineProps) {
  const table = useScreens();
  const dataProvider = useMemo(
    () => givenDataProvider ?? createDataProvider(resourceRegistry(table)),
    [givenDataProvider, table],
  );
  const [queryClient] = useState(
    () =>
      new QueryClient({
        ...queryClientConfig,
        defaultOptions: {
          ...queryClientConfig?.defaultOptions,
          queries: {
            retry: false,
            refetchOnWindowFocus: false,
            placeholderData: keepPreviousData,
            ...queryClientConfig?.defaultOptions?.queries,
          },
        },
      }),
  );
  const accessControlProvider = useMemo(
    () =>
      createAccessControlProvider({
        rulesOf: (resource) => rulesOf(table, resource),
        loadUser: (opts) => loadAccessUser(queryClient, authProvider, dataProvider, opts),
      }),
    [table, queryClient, authProvider, dataProvider],
  );
  const resources = useMemo(() => refineResources(table, iconOf), [table]);
  return (
    <Refine
      routerProvider={routerProvider}
      authProvider={authProvider}
      dataProvider={dataProvider}
      accessControlProvider={accessControlProvider}
      resources={resources}
      options={{
        disableTelemetry: true,
        syncWithLocation: false,
        warnWhenUnsavedChanges: false,
        reactQuery: { clientConfig: queryClient },
      }}
    >
      {children}
    </Refine>
  );
}
