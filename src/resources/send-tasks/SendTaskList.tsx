/**
 * 发送任务 (/customer/deliverlayout/smstask, POST /send/sendTask): filters of filters/send-task.json,
 * 15 a page, the table of entities/send-task with the send progress (taskSchedule) and the status
 * tag of enums/task-status; refreshes itself every 10 s while open with the spec's countdown
 * (180, −2 a refresh: useAutoRefresh); 详情 opens the task-detail dialog with the number export;
 * long content opens in the copy dialog.
 */
import { useState } from 'react';
import { Button, Card, Flex, Progress, Space, Tooltip, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { TaskStatus, type SendTask } from '@/generated/schemas';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable, type SchemaColumn } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { TASK_REFRESH, useAutoRefresh } from '@/components/SchemaTable/useAutoRefresh';
import { LongText } from '@/components/CopyText/CopyContentDialog';
import { useCurrentUser } from '@/layout/hooks';
import { isAgent } from '@/providers/access';
import { TaskDetailDialog } from './TaskDetailDialog';
import { sendTasks } from './data';
import { useScreen } from '@/layout/screens';

export interface SendTaskListProps {
  /** refresh period (10 s; stories shorten it) */
  refreshEveryMs?: number;
}

export function SendTaskList({ refreshEveryMs = TASK_REFRESH.everyMs }: SendTaskListProps) {
  const sendTaskScreen = useScreen();
  const { user } = useCurrentUser();
  const agent = isAgent(user);
  const [detail, setDetail] = useState<SendTask | null>(null);
  const { tableProps, searchFormProps, tableQuery } = useSchemaList<SendTask>(sendTasks, {
    queryOptions: { enabled: !!user },
  });
  const refresh = useAutoRefresh(() => tableQuery.refetch(), { everyMs: refreshEveryMs });

  const columns: (string | SchemaColumn<SendTask>)[] = [
    { field: 'rowNum', width: 64 },
    'uid',
    ...(agent ? ['clientId'] : []),
    { field: 'content', render: (v: string) => <LongText text={v} /> },
    'sign',
    { field: 'smstype', labelField: 'smstypeStr' },
    { field: 'templateType', labelField: 'templateTypeStr' },
    'submitTotal',
    'blacklistNum',
    'chargeNumTotal',
    {
      field: 'taskSchedule',
      width: 140,
      // the progress bar, and under it (not beside: it would run into the next column) the review note
      render: (v: number, r: SendTask) => (
        <Flex vertical>
          <Progress
            percent={Math.max(0, Math.min(100, Math.round(Number(v) || 0)))}
            size="small"
            data-testid="task-progress"
          />
          {/* a task held for review does not move until the platform reviews it: say so instead of a frozen 0 % */}
          {!!r.auditNum && r.status === TaskStatus.Processing && (
            <Typography.Text
              type="warning"
              style={{ fontSize: 12, whiteSpace: 'nowrap' }}
              data-testid="task-awaiting-review"
            >
              {r.auditNum} 条待平台审核
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    { field: 'status', labelField: 'statusStr' },
    'sendtime',
    'createTimeStr',
    'creator',
  ];

  return (
    <Card
      title={sendTaskScreen.label}
      extra={
        <Space>
          <Typography.Text type="secondary" data-testid="refresh-countdown">
            {refresh.running ? `自动刷新中（${refresh.left}）` : '自动刷新已停止'}
          </Typography.Text>
          <Tooltip title="立即刷新并重新开始自动刷新">
            <Button icon={<ReloadOutlined />} onClick={refresh.restart}>
              刷新
            </Button>
          </Tooltip>
        </Space>
      }
    >
      <SchemaFilterBar filter={sendTasks.filter} agent={agent} formProps={searchFormProps} />
      <SchemaTable<SendTask>
        {...tableProps}
        // a background refresh keeps the rows on screen (no spinner every 10 s)
        loading={tableQuery.isLoading}
        entity={sendTasks.entity}
        columns={columns}
        locale={{ emptyText: '暂无数据' }}
        extraColumns={[
          {
            key: 'actions',
            title: '操作',
            fixed: 'right',
            render: (_: unknown, r: SendTask) => (
              <Button type="link" size="small" onClick={() => setDetail(r)}>
                详情
              </Button>
            ),
          },
        ]}
      />
      <TaskDetailDialog task={detail} onClose={() => setDetail(null)} onResent={() => void tableQuery.refetch()} />
    </Card>
  );
}

export default SendTaskList;
