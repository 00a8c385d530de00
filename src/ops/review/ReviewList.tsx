/**
 * What the four review lists share (资质认证, 签名, 模板, 发票): the card titled by the screen's
 * label with the pending count of the menu's badge, the filter bar of filters/review.json (只看待审核
 * on by default, 账户), the table of the kind's entity with paging, and a fixed 操作 column whose
 * actions (通过 / 驳回, 变更状态) call `done` after a decision: the list and the menu's counts refresh
 * (whatever the answer: a refusal may mean another operator took it).
 */
import { useCallback, type ReactNode } from 'react';
import { Card, Space, Tag, Typography } from 'antd';
import type { BaseRecord } from '@refinedev/core';
import type { ReviewCounts } from '@/generated/schemas';
import type { Screen } from '@/layout/declarations';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable, type SchemaColumn } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { useRefreshReviewCounts, useReviewCounts } from './counts';
import type { ReviewResource } from './data';

export interface ReviewListProps<T extends BaseRecord> {
  screen: Screen;
  resource: ReviewResource;
  columns: (string | SchemaColumn<T>)[];
  /** the row's actions; `done` refreshes the list and the counts */
  actions: (row: T, done: () => void) => ReactNode;
  /** the 操作 column's width */
  actionsWidth?: number;
}

export function ReviewList<T extends BaseRecord>({
  screen,
  resource,
  columns,
  actions,
  actionsWidth = 130,
}: ReviewListProps<T>) {
  const { tableProps, searchFormProps, tableQuery } = useSchemaList<T>(resource);
  const { counts } = useReviewCounts();
  const refreshCounts = useRefreshReviewCounts();
  const done = useCallback(() => {
    void tableQuery.refetch();
    void refreshCounts();
  }, [tableQuery, refreshCounts]);
  const waiting = screen.badge ? counts?.[screen.badge as keyof ReviewCounts] : undefined;

  return (
    <Card
      title={
        <Space>
          {screen.label}
          {waiting !== undefined && (
            <Tag color={waiting ? 'gold' : 'default'} data-testid="pending-count">
              待审核 {waiting}
            </Tag>
          )}
        </Space>
      }
    >
      <SchemaFilterBar filter={resource.filter} formProps={searchFormProps} />
      <SchemaTable<T>
        {...tableProps}
        entity={resource.entity}
        columns={columns}
        extraColumns={[
          {
            key: 'actions',
            title: '操作',
            fixed: 'right',
            width: actionsWidth,
            render: (_: unknown, r: T) => actions(r, done),
          },
        ]}
      />
    </Card>
  );
}

/** A cell with a second, smaller line under it (the account's kind under the account, the time under the reviewer). */
export function stacked(main: ReactNode, sub: ReactNode) {
  return (
    <Space direction="vertical" size={0}>
      {main}
      {sub && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {sub}
        </Typography.Text>
      )}
    </Space>
  );
}

/** A status cell with the reason under it (a rejection's, shown to the account). */
export function withReason(cell: ReactNode, reason: string | undefined | null, show: boolean) {
  return (
    <Space direction="vertical" size={2}>
      {cell}
      {show && reason && (
        <Typography.Text
          type="danger"
          style={{ fontSize: 12, whiteSpace: 'normal', display: 'inline-block', maxWidth: 260 }}
          data-testid="review-reason"
        >
          原因：{reason}
        </Typography.Text>
      )}
    </Space>
  );
}
