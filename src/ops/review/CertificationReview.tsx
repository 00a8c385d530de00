/**
 * 审核 / 资质认证 (/ops/review/certifications): the accounts' certification submissions (POST
 * /operator/review/certifications/list): the company or person, the document number, the document
 * images as thumbnails (the `images` URLs, served to operators only: GET /operator/files/…) with a
 * preview, and for a pending one 通过 (the account may send from then on) or 驳回 with the reason
 * the account sees on its 资质认证 page.
 */
import { Image, Space, Typography } from 'antd';
import { AuthStatus, type ReviewCertification } from '@/generated/schemas';
import type { SchemaColumn } from '@/components/SchemaTable/SchemaTable';
import { EnumTag } from '@/components/EnumTag/EnumTag';
import { ReviewList, stacked, withReason } from './ReviewList';
import { DecisionActions } from './DecisionActions';
import { reviewCertifications } from './data';
import { useScreen } from '@/layout/screens';

/** The document images: thumbnails, one preview group (arrows between them). */
export function CertificationImages({ images, size = 40 }: { images: string[]; size?: number }) {
  if (!images.length) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <Image.PreviewGroup>
      <Space size={6} data-testid="certification-images">
        {images.map((src, i) => (
          <Image
            key={src}
            src={src}
            alt={`证件图片 ${i + 1}`}
            width={size}
            height={size}
            style={{ objectFit: 'cover', borderRadius: 4, border: '1px solid #f0f0f0' }}
            preview={{ mask: '预览' }}
          />
        ))}
      </Space>
    </Image.PreviewGroup>
  );
}

// the account's kind under the account, the kind of certification under the name, the time under
// the reviewer: the documents stay in view beside 操作 at 1440 px
const columns: (string | SchemaColumn<ReviewCertification>)[] = [
  {
    field: 'clientid',
    render: (v: string, r) => stacked(v, <EnumTag enumName="user-type" value={r.userType} plain />),
  },
  {
    field: 'company',
    render: (_v, r, _i, cell) => stacked(cell, <EnumTag enumName="cert-type" value={r.certType} plain />),
  },
  'idNbr',
  { field: 'images', render: (v: string[]) => <CertificationImages images={v ?? []} /> },
  { field: 'state', render: (v: number, r, _i, cell) => withReason(cell, r.remark, v === AuthStatus.Rejected) },
  'submittedAt',
  { field: 'reviewedBy', render: (v: string, r) => (v ? stacked(v, r.reviewedAt) : '-') },
];

export default function CertificationReview() {
  const certificationReview = useScreen();
  return (
    <ReviewList<ReviewCertification>
      screen={certificationReview}
      resource={reviewCertifications}
      columns={columns}
      actions={(r, done) => (
        <DecisionActions
          resource={reviewCertifications}
          id={r.id}
          what={`${r.clientid} 的资质认证`}
          pending={r.state === AuthStatus.Pending}
          done={done}
          summary={
            <Space direction="vertical" size={8}>
              <Typography.Text type="secondary">{[r.company, r.idNbr].filter(Boolean).join('，')}</Typography.Text>
              <CertificationImages images={r.images} size={64} />
            </Space>
          }
        />
      )}
    />
  );
}
