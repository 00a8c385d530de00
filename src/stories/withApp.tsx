/**
 * Storybook decorator for routed screens: a MemoryRouter at `parameters.app.path` (default "/"),
 * Refine with the console's real auth and data providers (their calls answered by the story's
 * MSW handlers), the global error toasts, and a stand-in /login route that shows where a
 * redirect went ("登录页 /login?redirect=...").
 *
 *   export default { decorators: [withApp], parameters: { app: { path: '/remain?type=0' } } }
 */
import type { Decorator } from '@storybook/react-vite';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { ConsoleRefine } from '@/providers/ConsoleRefine';
import { HttpErrorToasts } from '@/providers/HttpErrorToasts';

export interface AppStoryParameters {
  /** initial URL (path + search) */
  path?: string;
  /** route pattern the story renders at (default: every path except /login) */
  route?: string;
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

export const withApp: Decorator = (Story, context) => {
  const { path = '/', route = '*' } = (context.parameters.app ?? {}) as AppStoryParameters;
  return (
    <MemoryRouter initialEntries={[path]}>
      <HttpErrorToasts />
      <ConsoleRefine queryClientConfig={{ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }}>
        <Routes>
          <Route path="/login" element={<LoginStandIn />} />
          <Route path={route} element={<Story />} />
        </Routes>
      </ConsoleRefine>
    </MemoryRouter>
  );
};
