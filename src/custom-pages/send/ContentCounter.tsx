/**
 * The content counter of the send pages: characters counted as the carriers do (content + sign + 2,
 * at most 500) and the pieces each number is charged (common/sms/pieces: 70 / 67 Chinese, 140 / 134
 * English). `layout="row"`: the count and the pieces side by side (the ordinary page adds how a
 * piece is counted: `explain`); `layout="inline"`: one line under the content (the variable page).
 */
import { useMemo } from 'react';
import { Space, Typography } from 'antd';
import { countPieces, MAX_MESSAGE_CHARS, type PieceCount } from '../../../common/sms/pieces';

/** The pieces of a message with its sign (trimmed), as the counter shows them. */
export function usePieces(content: string, sign: string): PieceCount {
  return useMemo(() => countPieces({ content, sign: sign.trim() }), [content, sign]);
}

export interface ContentCounterProps {
  pieces: PieceCount;
  layout?: 'row' | 'inline';
  /** say how a piece is counted (中文短信：70字一条…) */
  explain?: boolean;
}

export function ContentCounter({ pieces, layout = 'row', explain }: ContentCounterProps) {
  const type = pieces.tooLong ? 'danger' : 'secondary';
  if (layout === 'inline')
    return (
      <Typography.Text type={type} data-testid="content-counter">
        {pieces.chars} / {MAX_MESSAGE_CHARS}，预计每个号码计费 {pieces.pieces} 条
      </Typography.Text>
    );
  return (
    <Space size="large" wrap>
      <Typography.Text type={type} data-testid="content-counter">
        {pieces.chars} / {MAX_MESSAGE_CHARS}
      </Typography.Text>
      <Typography.Text type="secondary" data-testid="content-pieces">
        预计每个号码计费 {pieces.pieces} 条
        {explain &&
          pieces.chars > 0 &&
          `（${pieces.isEnglish ? '英文短信：140字一条，超过按134字一条' : '中文短信：70字一条，超过按67字一条'}）`}
      </Typography.Text>
    </Space>
  );
}
