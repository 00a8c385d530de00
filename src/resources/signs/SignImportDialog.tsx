/**
 * 批量导入签名: download the template, upload one .xlsx (field `excel`), read the result
 * (成功 / 总数 / 失败) and download the failed rows with their reasons.
 */
import { useState } from 'react';
import { Alert, Button, Descriptions, Modal, Space, Typography, Upload } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useInvalidate } from '@refinedev/core';
import { ApiError } from '@/providers/http';
import { IMPORT_FAILURES_URL, IMPORT_MAX_BYTES, importSigns, TEMPLATE_URL, type ImportResult } from './files';
import { MESSAGES } from '../../../common/schema/messages';
import { signs } from './data';

export interface SignImportDialogProps {
  open: boolean;
  onClose: () => void;
}

export function SignImportDialog({ open, onClose }: SignImportDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [result, setResult] = useState<ImportResult>();
  const invalidate = useInvalidate();

  const upload = async (file: File) => {
    setError(undefined);
    setResult(undefined);
    if (!/\.xlsx$/i.test(file.name)) return setError(MESSAGES.notXlsx);
    if (file.size > IMPORT_MAX_BYTES) return setError(`文件大小不能超过${IMPORT_MAX_BYTES / 1024 / 1024}MB`);
    setBusy(true);
    try {
      const r = await importSigns(file);
      setResult(r);
      if (r.importSuccess > 0) await invalidate({ resource: signs.name, invalidates: ['list'] });
    } catch (e) {
      setError(e instanceof ApiError ? e.message : MESSAGES.uploadNetworkError);
    } finally {
      setBusy(false);
    }
  };

  const close = () => {
    setError(undefined);
    setResult(undefined);
    onClose();
  };

  return (
    <Modal
      title="批量导入签名"
      open={open}
      onCancel={close}
      footer={<Button onClick={close}>关闭</Button>}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text>
          请先下载模板，按模板填写后上传（仅支持 .xlsx，不超过5MB，每次最多5000行）。{' '}
          <a href={TEMPLATE_URL} download data-testid="sign-template-link">
            <DownloadOutlined /> 下载模板
          </a>
        </Typography.Text>
        <Upload.Dragger
          name="excel"
          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          multiple={false}
          showUploadList={false}
          disabled={busy}
          beforeUpload={(file) => {
            void upload(file);
            return false;
          }}
          data-testid="sign-import-upload"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{busy ? '正在导入…' : '点击或拖拽Excel文件到此处上传'}</p>
        </Upload.Dragger>
        {error && <Alert type="error" showIcon message={error} data-testid="sign-import-error" />}
        {result && (
          <div data-testid="sign-import-result">
            <Alert
              type={result.importFall > 0 ? 'warning' : 'success'}
              showIcon
              message={`导入完成：共 ${result.importTotal} 条，成功 ${result.importSuccess} 条，失败 ${result.importFall} 条`}
            />
            <Descriptions size="small" column={3} style={{ marginTop: 12 }}>
              <Descriptions.Item label="总数">{result.importTotal}</Descriptions.Item>
              <Descriptions.Item label="成功">{result.importSuccess}</Descriptions.Item>
              <Descriptions.Item label="失败">{result.importFall}</Descriptions.Item>
            </Descriptions>
            {result.importFall > 0 && (
              <a href={IMPORT_FAILURES_URL} download data-testid="sign-import-failures">
                <DownloadOutlined /> 下载失败记录（含失败原因）
              </a>
            )}
          </div>
        )}
      </Space>
    </Modal>
  );
}

export default SignImportDialog;
