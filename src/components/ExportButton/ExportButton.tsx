/**
 * 导出: POSTs a list's filters to its export route and saves the file it answers (downloadPosted);
 * busy while it runs; a refusal (当前条件没有数据，无法导出, 导出数据过多, ...) is toasted once with
 * the server's message. The one export button of the list screens.
 */
import { useState, type ReactNode } from 'react';
import { App, Button, type ButtonProps } from 'antd';
import { ExportOutlined } from '@ant-design/icons';
import { ApiError } from '@/providers/http';
import { downloadPosted, SEND_MESSAGES } from '@/domain/send';

export interface ExportButtonProps extends Omit<ButtonProps, 'onClick' | 'loading' | 'children'> {
  /** the export route under /api */
  url: string;
  /** the list's filters as sent (useSchemaList's `params`, plus what the page fixes) */
  params: Record<string, unknown>;
  /** the file name when the answer names none */
  fileName: string;
  /** the toast when the failure carries no message of its own (default 当前条件没有数据，无法导出) */
  fallbackError?: string;
  children?: ReactNode;
}

export function ExportButton({
  url,
  params,
  fileName,
  fallbackError = SEND_MESSAGES.noData,
  children = '导出',
  icon = <ExportOutlined />,
  ...button
}: ExportButtonProps) {
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await downloadPosted(url, params, fileName);
    } catch (e) {
      message.error(e instanceof ApiError ? e.message : fallbackError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={icon} loading={busy} onClick={() => void run()} {...button}>
      {children}
    </Button>
  );
}
