/**
 * 任务详情 (POST /send/queryTaskInfo {id}): the task's figures (待发送, 成功, 失败, 未知, 拦截 from
 * entities/send-task), the checklist of send states (enums/task-detail-outcome) and the number
 * export (POST /send/exportTaskInfoPhones {id, sendTypes}: a text file; none checked:
 * 请选择需要导出号码状态！). A lookup taking over 10 s says it is still working.
 *
 * Follow-up (issue 27 "Task follow-up"): 查看发送记录 opens the send records of this task (the
 * task-number filter), 重发失败号码 (a task with failures) sends its failed numbers again as a new
 * task after a confirmation (POST /send/resendFailed: the ordinary acceptance and charge; a refusal
 * is the server's message, toasted once by the client).
 */
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Alert, App, Button, Checkbox, Modal, Space, Spin, Typography } from 'antd';
import { DownloadOutlined, RedoOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useCustom } from '@refinedev/core';
import type { SendTask } from '@/generated/schemas';
import { SchemaDescriptions } from '@/components/SchemaDescriptions';
import { enumOptions } from '@/schema';
import { ApiError, postForm } from '@/providers/http';
import { taskRecordsLink } from '@/resources/send-records';
import { MESSAGES } from '../../../common/schema/messages';
import { downloadPosted, SEND_MESSAGES } from '@/domain/send';
import { sendTasks } from './data';

export const SLOW_LOOKUP_MS = 10_000;
export const SLOW_LOOKUP_TEXT = '数据量较大，正在统计，请耐心等待…';

export interface TaskDetailDialogProps {
  task: SendTask | null;
  onClose: () => void;
  /** a resend was accepted (the list reloads to show the new task) */
  onResent?: (taskId: string) => void;
}

export function TaskDetailDialog({ task, onClose, onResent }: TaskDetailDialogProps) {
  return (
    <Modal
      open={!!task}
      title="任务详情"
      width={640}
      onCancel={onClose}
      footer={<Button onClick={onClose}>关闭</Button>}
      destroyOnHidden
    >
      {task && <TaskDetail key={task.id} task={task} onResent={onResent} />}
    </Modal>
  );
}

function TaskDetail({ task, onResent }: { task: SendTask; onResent?: (taskId: string) => void }) {
  const { modal } = App.useApp();
  const [resending, setResending] = useState(false);
  const [resent, setResent] = useState<string | null>(null);
  const { message } = App.useApp();
  const [states, setStates] = useState<number[]>([]);
  const [slow, setSlow] = useState(false);
  const [exporting, setExporting] = useState(false);
  const { result, query } = useCustom<SendTask>({
    url: '/send/queryTaskInfo',
    method: 'post',
    config: { payload: { id: task.id } },
    queryOptions: { staleTime: 0, gcTime: 0 },
  });
  const loading = query.isFetching;
  useEffect(() => {
    if (!loading) return;
    const t = setTimeout(() => setSlow(true), SLOW_LOOKUP_MS);
    return () => {
      clearTimeout(t);
      setSlow(false);
    };
  }, [loading]);

  const detail = (result?.data as SendTask | undefined) ?? undefined;
  const doExport = async () => {
    if (states.length === 0) {
      message.error(SEND_MESSAGES.exportNoState);
      return;
    }
    setExporting(true);
    try {
      await downloadPosted(
        '/send/exportTaskInfoPhones',
        { id: task.id, sendTypes: [...states].sort().join(',') },
        `${task.uid ?? task.id}.txt`,
      );
    } catch (e) {
      message.error(e instanceof ApiError ? e.message : SEND_MESSAGES.noData);
    } finally {
      setExporting(false);
    }
  };

  const resend = () =>
    modal.confirm({
      title: '重发失败号码',
      content: MESSAGES.resendConfirm,
      okText: '重发',
      cancelText: '取消',
      onOk: async () => {
        setResending(true);
        try {
          const r = await postForm<{ taskId: string; submitTotal: number }>('/send/resendFailed', {
            id: task.uid ?? String(task.id),
          });
          const uid = r.data?.taskId ?? '';
          setResent(uid);
          message.success(`${r.msg ?? MESSAGES.saved}：新任务 ${uid}（${r.data?.submitTotal ?? 0} 个号码）`);
          onResent?.(uid);
        } catch {
          // refused: the client toasted the server's message
        } finally {
          setResending(false);
        }
      },
    });
  const failNum = detail?.failNum ?? 0;
  const uid = task.uid ?? String(task.id);

  return (
    <>
      <Space wrap style={{ marginBottom: 12 }}>
        <Link to={taskRecordsLink(uid, task.createTimeStr)} data-testid="task-records-link">
          <Button icon={<UnorderedListOutlined />}>查看发送记录</Button>
        </Link>
        <Button
          icon={<RedoOutlined />}
          disabled={!detail || failNum === 0 || !!resent}
          loading={resending}
          onClick={resend}
          data-testid="resend-failed"
        >
          重发失败号码{detail ? `（${failNum}）` : ''}
        </Button>
      </Space>
      {resent && (
        <Alert
          type="success"
          showIcon
          style={{ marginBottom: 12 }}
          message={`已创建重发任务 ${resent}`}
          data-testid="resent"
        />
      )}
      <Spin spinning={loading}>
        {slow && <Alert type="info" showIcon message={SLOW_LOOKUP_TEXT} style={{ marginBottom: 12 }} />}
        {detail && (
          <SchemaDescriptions
            entity={sendTasks.entity}
            record={detail}
            fields={[
              'uid',
              'submitTotal',
              'sentNum',
              'successNum',
              'failNum',
              'unknownNum',
              'interceptNum',
              'blacklistNum',
            ]}
            column={2}
            size="small"
            bordered
          />
        )}
        <div style={{ marginTop: 16 }} data-testid="export-states">
          <Typography.Text strong>导出号码：</Typography.Text>
          <Space wrap style={{ marginTop: 8 }}>
            <Checkbox.Group
              value={states}
              onChange={(v) => setStates(v)}
              options={enumOptions<number>('task-detail-outcome').map((o) => ({ value: o.value, label: o.label }))}
            />
            <Button type="primary" icon={<DownloadOutlined />} loading={exporting} onClick={doExport}>
              导出号码
            </Button>
          </Space>
        </div>
      </Spin>
    </>
  );
}
