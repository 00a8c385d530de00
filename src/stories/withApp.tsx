/**
 * Storybook decorator for routed screens: a MemoryRouter at `parameters.app.path` (default "/"),
 * Refine with the console's real auth and data providers (their calls answered by the story's
 * MSW handlers), the global error toasts, and a stand-in /login route that shows where a
 * redirect went ("登录页 /login?redirect=..."). The story's page is the screen at its path
 * (useScreen(), as the console's routes provide it).
 *
 *   export default { decorators: [withApp], parameters: { app: { path: '/remain?type=0' } } }
 *
 * With `app.route`, a path the page navigates to outside that route shows as "went <path>"
 * (data-testid="went"), so a story can check where a link or a redirect led.
 */
import { useState, type ReactNode } from 'react';
import type { Decorator } from '@storybook/react-vite';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { within } from 'storybook/test';
import type { AuthProvider } from '@refinedev/core';
import { ConsoleRefine } from '@/providers/ConsoleRefine';
import { HttpErrorToasts } from '@/providers/HttpErrorToasts';
import { CurrentScreenProvider, screenAt, ScreensProvider, type ScreenTable } from '@/layout/screens';
import { consoleScreens } from '@/screens';
import { sessionKind } from '@/providers/sessionKind';
import { resetOpsSession } from '@/ops/authProvider';

export interface AppStoryParameters {
  /** initial URL (path + search) */
  path?: string;
  /**
   * route pattern the story renders at (default: every path except /login); any other path shows
   * where the page went ("went": its path and query) instead of the page
   */
  route?: string;
  /** the screen table (default: the accounts' console; the operators' stories pass theirs) */
  screens?: ScreenTable;
  /** the auth provider (default: the accounts' console's) */
  authProvider?: AuthProvider;
}

function LoginStandIn() {
  const location = useLocation();
  return (
    <div style={{ padding: 48 }} data-testid="login-stand-in">
      登录页 {location.pathname}
      {location.search}
    </div>
  );
}

/** where the page navigated to when it left the story's route: its path and query */
function WentStandIn() {
  const location = useLocation();
  return <div data-testid="went">{location.pathname + location.search}</div>;
}

/** The story's page is rendered as the screen at the story's path, as routeElements renders it there (useScreen). */
function AtScreen({ screens, children }: { screens: ScreenTable; children: ReactNode }) {
  const { pathname } = useLocation();
  return <CurrentScreenProvider value={screenAt(screens, pathname)}>{children}</CurrentScreenProvider>;
}

/** Each story starts as a fresh page: the browser's note of the session kind (providers/sessionKind.ts) from another story forgotten. */
function FreshPage() {
  useState(() => {
    sessionKind.clear();
    resetOpsSession();
    return true;
  });
  return null;
}

export const withApp: Decorator = (Story, context) => {
  const {
    path = '/',
    route = '*',
    screens = consoleScreens,
    authProvider,
  } = (context.parameters.app ?? {}) as AppStoryParameters;
  return (
    <MemoryRouter initialEntries={[path]}>
      <FreshPage />
      <HttpErrorToasts />
      <ScreensProvider value={screens}>
        <ConsoleRefine
          authProvider={authProvider}
          queryClientConfig={{ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }}
        >
          <Routes>
            <Route path="/login" element={<LoginStandIn />} />
            {route !== '*' && <Route path="*" element={<WentStandIn />} />}
            <Route
              path={route}
              element={
                <AtScreen screens={screens}>
                  <Story />
                </AtScreen>
              }
            />
          </Routes>
        </ConsoleRefine>
      </ScreensProvider>
    </MemoryRouter>
  );
};

/** how long a play function waits for what the page shows after its calls */
export const T = { timeout: 5000 };
/** the page's dialogs, drawers, menus and toasts, rendered outside the story's root */
export const body = () => within(document.body);
/** a story file's record of calls emptied before each story: `beforeEach: clearCalls(calls)` */
export const clearCalls = (calls: Record<string, unknown>) => () => {
  for (const k of Object.keys(calls)) delete calls[k];
};
