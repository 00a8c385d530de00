/**
 * 审核 / 签名 (/ops/review/signs): the accounts' signs (POST /operator/review/signs/list, pending
 * first, oldest first), each pending one approved or rejected with a reason the account sees on
 * its 签名报备 list.
 */
import { SignState, type ReviewSign } from '@/generated/schemas';
import type { SchemaColumn } from '@/components/SchemaTable/SchemaTable';
import { ReviewList, withReason } from './ReviewList';
import { DecisionActions } from './DecisionActions';
import { reviewSigns } from './data';
import { useScreen } from '@/layout/screens';

const columns: (string | SchemaColumn<ReviewSign>)[] = [
  'clientid',
  'sign',
  'remarks',
  { field: 'state', render: (v: number, r, _i, cell) => withReason(cell, r.cause, v === SignState.Rejected) },
  'createTime',
  'reviewedBy',
];

export default function SignReview() {
  const signReview = useScreen();
  return (
    <ReviewList<ReviewSign>
      screen={signReview}
      resource={reviewSigns}
      columns={columns}
      actions={(r, done) => (
        <DecisionActions
          resource={reviewSigns}
          id={r.id}
          what={`签名【${r.sign}】`}
          pending={r.state === SignState.Pending}
          done={done}
          summary={`账户 ${r.clientid}：${r.sign}`}
        />
      )}
    />
  );
}
