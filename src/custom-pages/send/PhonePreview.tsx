/**
 * 短信预览 of the send pages: the message as a phone shows it — the sign in front (【sign】, [sign]
 * when all English: common/sms/pieces composeMessage), the text, and the pieces each number is
 * charged with the rule that gives them (70 / 67 Chinese, 140 / 134 English). It follows the
 * fields as they are typed. The variable page passes the first rendered rows of its file (`rows`:
 * each its own number, text and pieces).
 */
import { Empty, Flex, Typography } from 'antd';
import { countPieces, PIECE_LIMITS, type PieceCount } from '../../../common/sms/pieces';

export interface PreviewRow {
  /** the number the row goes to (a variable file's row) */
  phone?: string;
  /** the content without the sign */
  content: string;
}

export interface PhonePreviewProps {
  sign: string;
  /** one message for every number (ordinary and international pages, typed variable content) */
  content?: string;
  /** a variable file's first rows, filled in */
  rows?: PreviewRow[];
  /** what to say while there is nothing to show */
  emptyText?: string;
}

/** How a message of these pieces is counted, in words. */
export function pieceRule(p: PieceCount): string {
  const l = p.isEnglish ? PIECE_LIMITS.english : PIECE_LIMITS.chinese;
  const kind = p.isEnglish ? '英文短信' : '中文短信';
  return p.pieces <= 1
    ? `${kind}：${l.single}字以内计1条`
    : `${kind}：超过${l.single}字按${l.multi}字一条计费，共${p.pieces}条`;
}

function Bubble({ row, sign }: { row: PreviewRow; sign: string }) {
  const p = countPieces({ content: row.content, sign: sign.trim() });
  return (
    <div data-testid="preview-message">
      {row.phone && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {row.phone}
        </Typography.Text>
      )}
      <div
        style={{
          background: '#fff',
          borderRadius: 12,
          padding: '8px 12px',
          margin: '4px 0',
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          fontSize: 13,
          lineHeight: 1.6,
          boxShadow: '0 1px 2px rgba(0,0,0,0.08)',
        }}
        data-testid="preview-text"
      >
        {p.text}
      </div>
      <Typography.Text type={p.tooLong ? 'danger' : 'secondary'} style={{ fontSize: 12 }} data-testid="preview-pieces">
        {p.chars} 字，计 {p.pieces} 条（{pieceRule(p)}）
      </Typography.Text>
    </div>
  );
}

export function PhonePreview({ sign, content, rows, emptyText = '输入短信内容后在此预览' }: PhonePreviewProps) {
  const shown: PreviewRow[] = rows?.length ? rows : content?.trim() ? [{ content }] : [];
  return (
    <div style={{ position: 'sticky', top: 16 }} data-testid="phone-preview">
      <Typography.Text strong>短信预览</Typography.Text>
      <div
        style={{
          marginTop: 8,
          width: 228,
          minHeight: 400,
          border: '8px solid #1f1f1f',
          borderRadius: 32,
          background: '#f0f2f5',
          padding: '28px 12px 16px',
          boxSizing: 'border-box',
        }}
      >
        <div style={{ textAlign: 'center', marginBottom: 12 }}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {sign.trim() ? `【${sign.trim()}】` : '短信'}
          </Typography.Text>
        </div>
        {shown.length ? (
          <Flex vertical gap={12}>
            {shown.map((r, i) => (
              <Bubble key={`${i}-${r.phone ?? ''}`} row={r} sign={sign} />
            ))}
          </Flex>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />
        )}
      </div>
    </div>
  );
}

/**
 * The send forms' field column: it takes the rest of the row and never wraps under the label (with
 * antd's `flex: auto` a wide control — a file card, a long hint — pushed the whole control into the
 * label's column: issue 27 item 12).
 */
export const WRAPPER = { flex: '1 1 0', style: { minWidth: 0 } } as const;

/** A send page's form with the preview beside it (below it when the window is narrow). */
export function WithPreview({ children, preview }: { children: React.ReactNode; preview: React.ReactNode }) {
  return (
    <Flex wrap gap={24} align="flex-start">
      <div style={{ flex: '1 1 420px', minWidth: 0, maxWidth: 900 }}>{children}</div>
      <div style={{ flex: '0 0 228px' }}>{preview}</div>
    </Flex>
  );
}
