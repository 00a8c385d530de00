/**
 * Image upload as a form field (`"ui:widget": "imageUpload"`): pictures uploaded one by one
 * through POST /file/upload (field photoFile), shown as a picture wall with previews. The field's
 * value is the stored paths of the uploaded images joined by `|` (the schemas' `imgUrl`), so the
 * schema's own rules (at least one, at most five) check it like any string.
 * ui:options (all optional):
 * - `maxCount` (5), `maxBytes` (2M): refused in the browser with the schemas' messages
 * - `types`: the accepted extensions (gif, jpg, jpeg, png; with `scene` "open-account" bmp too)
 * - `scene`: the upload's `scene` query parameter (e.g. "open-account")
 * - `fileUrl`: the preview address of an already stored path (default `/api/files/<path>`)
 * - `onBusy(busy)`: told while an upload is under way (a submit should wait)
 * - `text`: the add button's text (上传图片)
 */
import { useRef, useState } from 'react';
import { PlusOutlined } from '@ant-design/icons';
import { App, Modal, Upload, type UploadFile, type UploadProps } from 'antd';
import type { WidgetProps } from '@rjsf/utils';
import { ApiError, type ApiBody } from '@/providers/http';
import { http } from '@/providers/httpRaw';
import { MESSAGES } from '../../../../common/schema/messages';

type UploadRequestOption = Parameters<NonNullable<UploadProps['customRequest']>>[0];

const IMAGE_TYPES = ['gif', 'jpg', 'jpeg', 'png'];
const MIME: Record<string, string> = {
  gif: 'image/gif',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  bmp: 'image/bmp',
};
const extOf = (name: string) => name.split('.').pop()?.toLowerCase() ?? '';
const COUNT_TEXT = ['零', '一', '两', '三', '四', '五', '六', '七', '八', '九', '十'];

interface ImageUploadOptions {
  maxCount?: number;
  maxBytes?: number;
  types?: string[];
  scene?: string;
  fileUrl?: (path: string) => string;
  onBusy?: (busy: boolean) => void;
  text?: string;
}

/** POST /file/upload: the stored path and its address */
export async function uploadImage(file: Blob, filename: string, scene?: string) {
  const fd = new FormData();
  fd.append('photoFile', file, filename);
  const res = await http.post<ApiBody<{ path: string; url: string }>>('/file/upload', fd, {
    params: scene ? { scene } : undefined,
    silent: true,
  } as object);
  return res.data;
}

const pathsOf = (value: unknown) => (typeof value === 'string' ? value.split('|').filter(Boolean) : []);
const pathOf = (f: UploadFile) => (f.response as { path?: string } | undefined)?.path;
const joined = (files: UploadFile[]) =>
  files
    .filter((f) => f.status === 'done')
    .map(pathOf)
    .filter(Boolean)
    .join('|');

export function ImageUploadWidget({ id, value, onChange, disabled, readonly, options }: WidgetProps) {
  const {
    maxCount = 5,
    maxBytes = 2 * 1024 * 1024,
    types = IMAGE_TYPES,
    scene,
    fileUrl = (p: string) => `/api/files/${p}`,
    onBusy,
    text = '上传图片',
  } = options as ImageUploadOptions;
  const { message } = App.useApp();
  const [files, setFiles] = useState<UploadFile[]>(() =>
    pathsOf(value).map((p, i) => ({
      uid: `prev-${i}`,
      name: p.split('/').pop() ?? p,
      status: 'done' as const,
      url: fileUrl(p),
      response: { path: p },
    })),
  );
  const [preview, setPreview] = useState<string | null>(null);
  const busy = useRef(false);
  const mimes = types.map((t) => MIME[t]).filter(Boolean);
  const accept = [...types.map((t) => `.${t}`), ...new Set(mimes)].join(',');

  const update = (list: UploadFile[]) => {
    setFiles(list);
    const uploading = list.some((f) => f.status === 'uploading');
    if (uploading !== busy.current) onBusy?.((busy.current = uploading));
    const v = joined(list);
    if (v !== (value ?? '')) onChange(v === '' ? undefined : v);
  };

  const beforeUpload = (file: File, list: File[]) => {
    if (files.length + list.indexOf(file) >= maxCount) {
      message.error(`最多${COUNT_TEXT[maxCount] ?? maxCount}张图片`);
      return Upload.LIST_IGNORE;
    }
    if (!types.includes(extOf(file.name)) && !mimes.includes(file.type)) {
      message.error(MESSAGES.imageBadType);
      return Upload.LIST_IGNORE;
    }
    if (file.size > maxBytes) {
      message.error(MESSAGES.imageTooLarge);
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest = async ({ file, onSuccess, onError }: UploadRequestOption) => {
    const f = file as File;
    try {
      onSuccess?.((await uploadImage(f, f.name, scene)).data);
    } catch (e) {
      const msg = e instanceof ApiError ? e.message : MESSAGES.imageUploadFailed;
      message.error(msg.startsWith(MESSAGES.imageUploadFailed) ? msg : `${MESSAGES.imageUploadFailed}：${msg}`);
      onError?.(new Error(msg));
    }
  };

  return (
    <>
      <Upload
        id={id}
        listType="picture-card"
        name="photoFile"
        accept={accept}
        multiple
        disabled={disabled || readonly}
        fileList={files}
        maxCount={maxCount}
        beforeUpload={beforeUpload}
        customRequest={customRequest}
        onChange={({ fileList }) => update(fileList.filter((f) => f.status !== 'error'))}
        onPreview={(f) => setPreview(f.url ?? f.thumbUrl ?? (f.response as { url?: string } | undefined)?.url ?? null)}
      >
        {files.length >= maxCount ? null : (
          <button type="button" style={{ border: 0, background: 'none' }} aria-label={text}>
            <PlusOutlined />
            <div style={{ marginTop: 8 }}>{text}</div>
          </button>
        )}
      </Upload>
      <Modal open={!!preview} footer={null} title="图片预览" onCancel={() => setPreview(null)}>
        {preview && (
          <img alt="预览" style={{ width: '100%' }} src={preview} onError={() => message.error('图片预览失败')} />
        )}
      </Modal>
    </>
  );
}
