/**
 * Resumable chunked upload of one large file (docs/api-files.md, "Console component"): the MD5 in
 * a Web Worker, then the file service's check (a complete file is reused at once, a partial one
 * resumes from the chunks the server holds — also after a reload, when the user picks the file
 * again), 1 MB chunks 3 at a time with 3 tries each, merge. Pause / resume / cancel; the queue
 * item shows its state (pending / uploading / paused / done), progress bar, speed and any of the
 * spec's upload messages.
 */
import { useEffect, useRef, useState } from 'react';
import { Alert, App, Button, Progress, Space, Typography, Upload } from 'antd';
import { CloudUploadOutlined, DeleteOutlined, PauseOutlined, CaretRightOutlined } from '@ant-design/icons';
import { UploadState } from '@/generated/schemas';
import { EnumTag } from '../EnumTag/EnumTag';
import { fileApi } from './api';
import { workerHasher } from './hasher';
import { fileLimitError, formatSize, formatSpeed, UploadTask, type Hasher, type UploadApi } from './queue';
import type { ChunkedUploadProps, QueueItemView } from './types';
import { MESSAGES } from '../../../common/schema/messages';

export interface UploadItemProps {
  item: QueueItemView;
  onPause?: () => void;
  onResume?: () => void;
  onCancel?: () => void;
}

/** One queue row (shown alone in the stories of each state). */
export function UploadItem({ item, onPause, onResume, onCancel }: UploadItemProps) {
  const busy = item.state === UploadState.Uploading || (item.state === UploadState.Pending && item.hashing);
  const status = item.error ? 'exception' : item.state === UploadState.Done ? 'success' : busy ? 'active' : 'normal';
  let note = '';
  if (item.state === UploadState.Pending)
    note = item.hashing ? `${MESSAGES.statusEncrypting}（计算文件MD5）${item.percent}%` : '等待上传';
  else if (item.state === UploadState.Uploading) note = `上传中 ${formatSpeed(item.speed)}`;
  else if (item.state === UploadState.Done) note = item.reused ? '文件已存在，秒传完成' : '上传完成';
  else if (item.state === UploadState.Paused && !item.error) note = '已暂停';
  return (
    <div
      data-testid="upload-item"
      data-state={item.state}
      style={{ border: '1px solid #f0f0f0', borderRadius: 6, padding: '8px 12px', maxWidth: 560 }}
    >
      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
        <Space size={8}>
          <Typography.Text strong ellipsis style={{ maxWidth: 280 }} title={item.fileName}>
            {item.fileName}
          </Typography.Text>
          <Typography.Text type="secondary">{formatSize(item.size)}</Typography.Text>
          <EnumTag enumName="upload-state" value={item.state} />
        </Space>
        <Space size={4}>
          {busy && onPause && (
            <Button size="small" icon={<PauseOutlined />} onClick={onPause}>
              暂停
            </Button>
          )}
          {item.state === UploadState.Paused && onResume && (
            <Button size="small" type="primary" icon={<CaretRightOutlined />} onClick={onResume}>
              继续
            </Button>
          )}
          {onCancel && (
            <Button size="small" danger icon={<DeleteOutlined />} onClick={onCancel}>
              {item.state === UploadState.Done ? '移除' : '取消'}
            </Button>
          )}
        </Space>
      </Space>
      <Progress percent={item.percent} status={status} size="small" data-testid="upload-progress" />
      {note && (
        <Typography.Text type="secondary" data-testid="upload-note">
          {note}
        </Typography.Text>
      )}
      {item.error && (
        <Alert type="error" showIcon message={item.error} style={{ marginTop: 6 }} data-testid="upload-error" />
      )}
    </div>
  );
}

export function ChunkedUpload(props: ChunkedUploadProps & { api?: UploadApi; hasher?: Hasher }) {
  const {
    accept,
    maxSize,
    maxNameLength,
    messages,
    onDone,
    onRemove,
    buttonText = '上传文件',
    disabled,
    concurrency,
    retries,
  } = props;
  const { message } = App.useApp();
  const [item, setItem] = useState<QueueItemView | null>(null);
  const task = useRef<UploadTask | null>(null);
  const callbacks = useRef({ onDone, onRemove });
  useEffect(() => {
    callbacks.current = { onDone, onRemove };
  }, [onDone, onRemove]);
  const api = props.api ?? fileApi;
  const hasher = props.hasher ?? workerHasher;

  // leaving the page stops sending (the chunks stay: a later visit resumes)
  useEffect(() => () => void task.current?.pause(), []);

  const start = (file: File) => {
    const limit = fileLimitError(file, { accept, maxSize, maxNameLength, messages });
    if (limit) {
      message.error(limit);
      return;
    }
    const t: UploadTask = new UploadTask(
      file,
      api,
      hasher,
      (v) => task.current === t && setItem(v),
      (f) => task.current === t && callbacks.current.onDone(f),
      { concurrency, retries },
    );
    task.current = t;
    setItem(t.current);
    void t.start();
  };

  const cancel = async () => {
    const t = task.current;
    if (!t) return;
    try {
      await t.cancel();
    } catch (e) {
      message.error((e as Error).message);
      return;
    }
    task.current = null;
    setItem(null);
    callbacks.current.onRemove?.();
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="chunked-upload">
      <Upload
        accept={accept.join(',')}
        showUploadList={false}
        disabled={disabled || !!item}
        beforeUpload={(file) => (start(file), false)}
      >
        <Button icon={<CloudUploadOutlined />} disabled={disabled || !!item}>
          {buttonText}
        </Button>
      </Upload>
      {item && (
        <UploadItem
          item={item}
          onPause={() => void task.current?.pause()}
          onResume={() => void task.current?.resume()}
          onCancel={() => void cancel()}
        />
      )}
    </Space>
  );
}

export default ChunkedUpload;
