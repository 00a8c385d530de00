/**
 * antd's App context (message / modal / notification hooks) with the toasts of failed calls
 * (./HttpErrorToasts), as a layout route around every page but /login (App.tsx), loaded as its own
 * chunk. `ToastsOnly`: the toasts alone, which /login loads in the background once it shows.
 */
import { Outlet } from 'react-router';
import { App as AntApp } from 'antd';
import { HttpErrorToasts } from './HttpErrorToasts';

export default function AntAppLayer() {
  return (
    <AntApp>
      <HttpErrorToasts />
      <Outlet />
    </AntApp>
  );
}

export function ToastsOnly() {
  return (
    <AntApp component={false}>
      <HttpErrorToasts />
    </AntApp>
  );
}
