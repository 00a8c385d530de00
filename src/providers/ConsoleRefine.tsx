/**
 * Refine wired to the console's providers (router, auth, data) inside the Chinese antd
 * providers, plus the global error toasts. Must sit inside a react-router router.
 * The app uses it with a BrowserRouter; stories (src/stories/withApp.tsx) with a MemoryRouter.
 */
import type { ReactNode } from 'react';
import { Refine, type AuthProvider, type DataProvider, type IRefineOptions } from '@refinedev/core';
import routerProvider from '@refinedev/react-router';
import { AppProviders } from './AppProviders';
import { HttpErrorToasts } from './HttpErrorToasts';
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
    <AppProviders>
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
        <HttpErrorToasts />
        {children}
      </Refine>
    </AppProviders>
  );
}
