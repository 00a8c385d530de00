/**
 * Long text (an SMS's content) shown shortened in a table cell; a click opens it whole in a
 * dialog with a 复制 button (spec 02 §2 "Long content opens in a copy dialog"; §8 复制成功 /
 * 复制失败 with a browser-support note, from schemas/forms/send.json).
 */
import { useState } from 'react';
import { App, Button, Modal, Typography } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { SEND_MESSAGES } from '@/domain/send';

/** Writes text to the clipboard (the Clipboard API, else the selection fallback); false when neither works. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* try the fallback */
  }
  try {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  } catch {
    return false;
  }
}

export interface LongTextProps {
  text?: string | null;
  /** dialog title */
  title?: string;
  /** characters shown in the cell */
  max?: number;
}

/** A table cell: the text cut at `max` characters; a click opens the copy dialog. */
export function LongText({ text, title = '短信内容', max = 30 }: LongTextProps) {
  const [open, setOpen] = useState(false);
  const { message } = App.useApp();
  if (!text) return <span>-</span>;
  const short = text.length > max ? `${text.slice(0, max)}…` : text;
  const copy = async () => {
    if (await copyText(text)) message.success(SEND_MESSAGES.copied);
    else message.error(SEND_MESSAGES.copyFailed);
  };
  return (
    <>
      <Typography.Link
        onClick={() => setOpen(true)}
        data-testid="long-text"
        style={{ whiteSpace: 'normal', display: 'inline-block', maxWidth: 280 }}
      >
        {short}
      </Typography.Link>
      <Modal
        open={open}
        title={title}
        onCancel={() => setOpen(false)}
        footer={[
          <Button key="close" onClick={() => setOpen(false)}>
            关闭
          </Button>,
          <Button key="copy" type="primary" icon={<CopyOutlined />} onClick={copy}>
            复制
          </Button>,
        ]}
      >
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid="long-text-full">
          {text}
        </Typography.Paragraph>
        <Typography.Text type="secondary">共 {text.length} 个字符</Typography.Text>
      </Modal>
    </>
  );
}
