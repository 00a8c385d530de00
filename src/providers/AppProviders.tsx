/**
 * What every screen sits in, all at once: ./BaseProviders (antd in Chinese, business time) and
 * antd's App context (message/modal hooks). Used by Storybook and by component tests; the app
 * itself (App.tsx) loads antd's App apart (./AntAppLayer) so /login stays small.
 */
import type { ReactNode } from 'react';
import { App as AntApp } from 'antd';
import { BaseProviders } from './BaseProviders';

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <BaseProviders>
      <AntApp>{children}</AntApp>
    </BaseProviders>
  );
}
