/**
 * The buttons console forms put inside <SchemaForm> (console-only: imported directly, not through
 * the index the public pages use).
 * - ConfirmCancel: 确认 (submits) and 取消, for the view → edit → confirm/cancel screens.
 * - UploadAwareSubmit: a submit button that waits for image uploads still running in the form
 *   (图片正在上传，请稍候) instead of submitting half a form.
 */
import type { ReactNode } from 'react';
import { App, Button, Space } from 'antd';

export function ConfirmCancel({ saving, onCancel }: { saving?: boolean; onCancel: () => void }) {
  return (
    <Space>
      <Button type="primary" htmlType="submit" loading={saving}>
        确认
      </Button>
      <Button onClick={onCancel}>取消</Button>
    </Space>
  );
}

export function UploadAwareSubmit({
  uploading,
  loading,
  disabled,
  children,
}: {
  uploading: boolean;
  loading?: boolean;
  disabled?: boolean;
  children: ReactNode;
}) {
  const { message } = App.useApp();
  return (
    <Button
      type="primary"
      htmlType="submit"
      loading={loading}
      disabled={disabled}
      onClick={(e) => {
        if (!uploading) return;
        e.preventDefault();
        message.warning('图片正在上传，请稍候');
      }}
    >
      {children}
    </Button>
  );
}
