/** Shows every failed call's msg as an error toast (http.ts onError). Mount once, inside antd's App. */
import { useEffect } from 'react';
import { App } from 'antd';
import { httpEvents } from '@/providers/http';

export function HttpErrorToasts() {
  const { message } = App.useApp();
  useEffect(() => {
    const off = httpEvents.onError((msg) => {
      if (msg) message.error(msg);
    });
    return () => {
      off();
    };
  }, [message]);
  return null;
}
