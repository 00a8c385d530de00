/** A certification as submitted: state, type, id type, company, id number, images (previews). */
import { useState } from 'react';
import { Alert, Descriptions, Image, Space, Typography } from 'antd';
import { type CertificationInfo, CertType, OauthStatus } from '@/generated/schemas';
import { EnumTag } from '@/components/EnumTag/EnumTag';
import { oauthStatusOf } from '@/domain/certification';

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
      <div data-testid="image-failed" style={{ width: 104, height: 104, border: '1px dashed #d9d9d9', display: 'flex', alignItems: 'center', justifyContent: 'center', color: '#999', fontSize: 12 }}>
        图片预览失败
      </div>
    );
  }
  return <Image width={104} height={104} style={{ objectFit: 'cover' }} src={src} alt={`证件图片${index + 1}`} onError={() => setFailed(true)} />;
}

export function CertificationView({ info, title }: { info: CertificationInfo; title?: string }) {
  const status = oauthStatusOf(info.oauth_status);
  const urls = imageUrls(info);
  return (
    <div data-testid="certification-view">
      {title && <Typography.Title level={5}>{title}</Typography.Title>}
      {status === OauthStatus.Pending && <Alert type="info" showIcon style={{ marginBottom: 16 }} message="待认证：您的认证资料已提交，正在审核中，审核通过后才能发送短信" />}
      {status === OauthStatus.Certified && <Alert type="success" showIcon style={{ marginBottom: 16 }} message="已认证：资质认证已通过" />}
      {status === OauthStatus.Rejected && (
        <Alert type="error" showIcon style={{ marginBottom: 16 }} data-testid="rejected-reason" message="认证不通过" description={info.remark ? `驳回原因：${info.remark}` : undefined} />
      )}
      <Descriptions column={1} bordered size="middle" style={{ maxWidth: 760 }}>
        <Descriptions.Item label="认证状态">
          <EnumTag enumName="oauth-status" value={status ?? info.oauth_status} />
        </Descriptions.Item>
        {info.cert_type ? (
          <Descriptions.Item label="认证类型">
            <EnumTag enumName="cert-type" value={info.cert_type} plain />
          </Descriptions.Item>
        ) : null}
        <Descriptions.Item label="证件类型">{info.id_type || '-'}</Descriptions.Item>
        <Descriptions.Item label={info.cert_type === CertType.Personal ? '姓名' : '公司名称'}>{info.company || '-'}</Descriptions.Item>
        <Descriptions.Item label="证件号码">{info.id_nbr || '-'}</Descriptions.Item>
        <Descriptions.Item label="证件图片">
          {urls.length ? (
            <Image.PreviewGroup>
              <Space wrap>
                {urls.map((u, i) => (
                  <CertImage key={u} src={u} index={i} />
                ))}
              </Space>
            </Image.PreviewGroup>
          ) : (
            '-'
          )}
        </Descriptions.Item>
        {info.submitted_at ? <Descriptions.Item label="提交时间">{info.submitted_at}</Descriptions.Item> : null}
        {info.oauth_date ? <Descriptions.Item label="认证时间">{info.oauth_date}</Descriptions.Item> : null}
      </Descriptions>
    </div>
  );
}
