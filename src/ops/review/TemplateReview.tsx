/**
 * 审核 / 模板 (/ops/review/templates): the accounts' templates (POST /operator/review/templates/list),
 * each pending one approved or rejected with a reason the account sees on its template list (the
 * result is also pushed to the account's template callback by the server).
 */
import { Typography } from 'antd';
import { TemplateAuditState, type ReviewTemplate } from '@/generated/schemas';
import type { SchemaColumn } from '@/components/SchemaTable/SchemaTable';
import { ReviewList, withReason } from './ReviewList';
import { DecisionActions } from './DecisionActions';
import { reviewTemplates } from './data';
import { useScreen } from '@/layout/screens';

const columns: (string | SchemaColumn<ReviewTemplate>)[] = [
  'clientid',
  'sign',
  'content',
  'templateType',
  { field: 'state', render: (v: number, r, _i, cell) => withReason(cell, r.remark, v === TemplateAuditState.Rejected) },
  'createTime',
  'reviewedBy',
];

export default function TemplateReview() {
  const templateReview = useScreen();
  return (
    <ReviewList<ReviewTemplate>
      screen={templateReview}
      resource={reviewTemplates}
      columns={columns}
      actions={(r, done) => (
        <DecisionActions
          resource={reviewTemplates}
          id={r.id}
          what={`模板 ${r.id}`}
          pending={r.state === TemplateAuditState.Pending}
          done={done}
          summary={
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
              账户 {r.clientid}：{r.sign ? `【${r.sign}】` : ''}
              {r.content}
            </Typography.Paragraph>
          }
        />
      )}
    />
  );
}
