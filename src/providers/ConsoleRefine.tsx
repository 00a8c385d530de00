/**
 * Refine wired to the console's providers (router, auth, data). Must sit inside a react-router
 * router and inside AppProviders. Only the protected part of the app mounts it (the public pages
 * do not load Refine); stories use it through src/stories/withApp.tsx.
 */
import type { ReactNode } from 'react';
import { Refine, type AuthProvider, type DataProvider, type IRefineOptions } from '@refinedev/core';
import routerProvider from '@refinedev/react-router';
import { authProvider as defaultAuthProvider } from './authProvider';
import { dataProvider as defaultDataProvider } from './dataProvider';

export interface ConsoleRefineProps {
  children: ReactNode;
  authProvider?: AuthProvider;
  dataProvider?: DataProvider;
  /** react-query client config (stories/tests: no retries) */
  queryClientConfig?: NonNullable<IRefineOptions['reactQuery']>['clientConfig'];
}

export function ConsoleRefine({ children, authProvider = defaultAuthProvider, dataProvider = defaultDataProvider, queryClientConfig }: ConsoleRefineProps) {
  return (
    <Refine
      routerProvider={routerProvider}
      authProvider={authProvider}
      dataProvider={dataProvider}
      options={{
        disableTelemetry: true,
        syncWithLocation: false,
        warnWhenUnsavedChanges: false,
        ...(queryClientConfig ? { reactQuery: { clientConfig: queryClientConfig } } : {}),
      }}
    >
      {children}
    </Refine>
  );
}
