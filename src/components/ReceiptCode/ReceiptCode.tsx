/**
 * A carrier receipt or error code (DELIVRD, UNDELIV, 001 ...) shown by its meaning, the code kept
 * in a tooltip and beside the meaning in small grey text (issue 27 item 10). The meanings are the
 * code table schemas/enums/receipt-code.json; a code it does not know shows as it is.
 */
import { Tooltip, Typography } from 'antd';
import { schemas } from '@/schema';

export const RECEIPT_CODES = 'receipt-code';

/** the meaning of a code, undefined when the table does not know it */
export const receiptMeaning = (code: unknown): string | undefined =>
  code === undefined || code === null || code === '' ? undefined : schemas.enumLabel(RECEIPT_CODES, String(code));

export function ReceiptCode({ code }: { code: string | undefined | null }) {
  if (code === undefined || code === null || code === '') return <span>-</span>;
  const meaning = receiptMeaning(code);
  if (!meaning) return <span data-code={code}>{code}</span>;
  return (
    <Tooltip title={`代码：${code}`}>
      <span data-code={code}>
        {meaning}
        <Typography.Text type="secondary" style={{ fontSize: 12, marginInlineStart: 4 }}>
          {code}
        </Typography.Text>
      </span>
    </Tooltip>
  );
}

export default ReceiptCode;
