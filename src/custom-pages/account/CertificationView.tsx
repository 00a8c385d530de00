/**
 * A certification as submitted: state, type, id type, company (name for a personal one), id number,
 * images (previews); labels, order and what shows when: schemas/entities/certification-info.json.
 */
import { useState } from 'react';
import { Alert, Image, Space, Typography } from 'antd';
import { type CertificationInfo, OauthStatus } from '@/generated/schemas';
import { EnumTag } from '@/components/EnumTag/EnumTag';
import { SchemaDescriptions } from '@/components/SchemaDescriptions';
import { oauthStatusOf } from '@/domain/certification';
import { fieldLabel } from '@/schema';

export const imageUrls = (info: Pick<CertificationInfo, 'img_url' | 'smsp_img_url'>) =>
  (info.img_url ?? '')
    .split('|')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `${info.smsp_img_url ?? '/api/files/'}${p}`);

/** An image preview that says 图片预览失败 when the file cannot be shown. */
export function CertImage({ src, index }: { src: string; index: number }) {
  const [failed, setFailed] = useState(false);
  if (failed) {
    return (
      <div
        data-testid="image-failed"
        style={{
          width: 104,
          height: 104,
          border: '1px dashed #d9d9d9',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          color: '#999',
          fontSize: 12,
        }}
      >
        图片预览失败
      </div>
    );
  }
  return (
    <Image
      width={104}
      height={104}
      style={{ objectFit: 'cover' }}
      src={src}
      alt={`证件图片${index + 1}`}
      onError={() => setFailed(true)}
    />
  );
}

export function CertificationView({ info, title }: { info: CertificationInfo; title?: string }) {
  const status = oauthStatusOf(info.oauth_status);
  const urls = imageUrls(info);
  return (
    <div data-testid="certification-view">
      {title && <Typography.Title level={5}>{title}</Typography.Title>}
      {status === OauthStatus.Pending && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message="待认证：您的认证资料已提交，正在审核中，审核通过后才能发送短信"
        />
      )}
      {status === OauthStatus.Certified && (
        <Alert type="success" showIcon style={{ marginBottom: 16 }} message="已认证：资质认证已通过" />
      )}
      {status === OauthStatus.Rejected && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="rejected-reason"
          message="认证不通过"
          description={
            info.remark ? `${fieldLabel('entities/certification-info', 'remark')}：${info.remark}` : undefined
          }
        />
      )}
      <SchemaDescriptions
        entity="entities/certification-info"
        record={info}
        style={{ maxWidth: 760 }}
        render={{
          // the state may come as its text (未认证 ...): shown by its enum value
          oauth_status: (v) => <EnumTag enumName="oauth-status" value={status ?? v} />,
          img_url: () =>
            urls.length ? (
              <Image.PreviewGroup>
                <Space wrap>
                  {urls.map((u, i) => (
                    <CertImage key={u} src={u} index={i} />
                  ))}
                </Space>
              </Image.PreviewGroup>
            ) : (
              '-'
            ),
        }}
      />
    </div>
  );
}
