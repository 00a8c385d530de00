/**
 * 批量导入: download the Excel template, choose one .xlsx file, import; the answer tells how many
 * rows were imported and lists the refused rows with their reason (the single add's messages).
 */
import { useState } from 'react';
import { Alert, App, Button, Modal, Space, Table, Upload, type UploadFile } from 'antd';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useInvalidate } from '@refinedev/core';
import { ApiError } from '@/providers/http';
import { importTemplates, TEMPLATE_EXCEL_URL, type ImportResult } from './api';
import { MESSAGES } from '../../../common/schema/messages';
import { templates } from './data';

export interface TemplateImportDialogProps {
  open: boolean;
  onClose: () => void;
}

export function TemplateImportDialog({ open, onClose }: TemplateImportDialogProps) {
  const { message } = App.useApp();
  const invalidate = useInvalidate();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ msg: string; data: ImportResult }>();
  const [error, setError] = useState<string>();

  const close = () => {
    setFiles([]);
    setResult(undefined);
    setError(undefined);
    onClose();
  };

  const run = async () => {
    const file = files[0]?.originFileObj;
    if (!file) {
      setError(MESSAGES.pickExcelFile);
      return;
    }
    setBusy(true);
    setError(undefined);
    setResult(undefined);
    try {
      const body = await importTemplates(file, file.name);
      setResult({ msg: body.msg ?? '', data: body.data! });
      if (body.data?.importSuccess) {
        message.success(`成功导入${body.data.importSuccess}条模板，请等待审核`);
        await invalidate({ resource: templates.name, invalidates: ['list'] });
      }
    } catch (e) {
      setError(e instanceof ApiError ? e.message : '接口异常');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title="批量导入模板"
      onCancel={close}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={close}>关闭</Button>
          <Button type="primary" loading={busy} onClick={run}>
            开始导入
          </Button>
        </Space>
      }
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Alert
          type="info"
          showIcon
          message="请先下载模板，按模板格式填写后上传（仅支持xlsx格式，单次最多1000条）。导入的模板需审核通过后方可使用。"
        />
        <Button icon={<DownloadOutlined />} href={TEMPLATE_EXCEL_URL} download>
          下载模板
        </Button>
        <Upload
          accept=".xlsx"
          maxCount={1}
          fileList={files}
          beforeUpload={() => false}
          onChange={({ fileList }) => setFiles(fileList.slice(-1))}
        >
          <Button icon={<UploadOutlined />}>选择文件</Button>
        </Upload>
        {error && <Alert type="error" showIcon message={error} data-testid="import-error" />}
        {result && (
          <>
            <Alert
              type={result.data.importFall ? 'warning' : 'success'}
              showIcon
              message={result.msg}
              data-testid="import-result"
            />
            {result.data.errors.length > 0 && (
              <Table
                size="small"
                rowKey="row"
                pagination={false}
                dataSource={result.data.errors}
                columns={[
                  { key: 'row', dataIndex: 'row', title: '行号', width: 80 },
                  { key: 'msg', dataIndex: 'msg', title: '失败原因' },
                ]}
              />
            )}
          </>
        )}
      </Space>
    </Modal>
  );
}

export default TemplateImportDialog;
