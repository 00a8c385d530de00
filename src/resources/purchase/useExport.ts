/** An export button's state: posts the list's parameters, saves the xlsx or shows the server's refusal. */
import { useState } from 'react';
import { App } from 'antd';
import { ApiError } from '@/providers/http';
import { downloadPosted } from '@/domain/send';
import { MESSAGES } from '../../../common/schema/messages';

export function useExport(url: string, fallbackName: string) {
  const { message } = App.useApp();
  const [exporting, setExporting] = useState(false);
  const run = async (params: Record<string, unknown>) => {
    setExporting(true);
    try {
      await downloadPosted(url, params, fallbackName);
    } catch (e) {
      message.error(e instanceof ApiError ? e.message : MESSAGES.exportNoData);
    } finally {
      setExporting(false);
    }
  };
  return { exporting, run };
}
