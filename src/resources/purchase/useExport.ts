/** An export button's state: posts the list's parameters, saves the xlsx or shows the server's refusal. */
import { useState } from 'react';
import { App } from 'antd';
import { ApiError } from '@/providers/http';
import { downloadPosted, SEND_MESSAGES } from '@/domain/send';

export function useExport(url: string, fallbackName: string) {
  const { message } = App.useApp();
  const [exporting, setExporting] = useState(false);
  const run = async (params: Record<string, unknown>) => {
    setExporting(true);
    try {
      await downloadPosted(url, params, fallbackName);
    } catch (e) {
      message.error(e instanceof ApiError ? e.message : SEND_MESSAGES.noData);
    } finally {
      setExporting(false);
    }
  };
  return { exporting, run };
}
