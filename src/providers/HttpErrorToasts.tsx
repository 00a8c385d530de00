/**
 * Shows every failed call's msg as an error toast (http.ts onError). Mount once, inside antd's App.
 * Toasts are keyed by their text: the same failure reported by several calls at once (a page's
 * lists failing together) is one toast, not a stack of identical ones.
 */
import { useEffect } from 'react';
import { App } from 'antd';
import { httpEvents } from '@/providers/http';

export function HttpErrorToasts() {
  const { message } = App.useApp();
  useEffect(() => {
    const off = httpEvents.onError((msg) => {
      if (msg) message.error({ content: msg, key: `http-error:${msg}` });
    });
    return () => {
      off();
    };
  }, [message]);
  return null;
}
