/**
 * 定时任务 (/customer/deliverlayout/timingdeliver, POST /send/smsTimerSend/list): every filter of
 * filters/timed-task.json, the table of entities/timed-task, and per waiting task:
 * - 查看号码: the numbers dialog (POST /send/getAllPhone/list);
 * - 取消: refused once the send time is reached (已到发送时间，无法取消), else confirmed, then
 *   POST /send/undoSend {uid, submitTime} (the server checks the time again and refunds);
 * - 重新编辑: warns that the original task is deleted, then opens the send page with ?id=.
 */
import { useState } from 'react';
import { App, Button, Card, Space } from 'antd';
import { useNavigate } from 'react-router';
import { TaskStatus, type TimedTask } from '@/generated/schemas';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable, type SchemaColumn } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { LongText } from '@/components/CopyText/CopyContentDialog';
import { useCurrentUser } from '@/layout/hooks';
import { isAgent } from '@/providers/access';
import { SEND_MESSAGES, undoSend } from '@/domain/send';
import { useScreenPath } from '@/layout/screens';
import { businessNow, businessTime, type BusinessTimeInput } from '@/lib/businessTime';
import { TimedTaskPhonesDialog } from './TimedTaskPhonesDialog';
import { timedTasks } from './data';
import { useScreen } from '@/layout/screens';

/**
 * Has the task's send time come (it can no longer be cancelled)? The send time is Shanghai's
 * (setSendTimeStr), compared with Shanghai's clock whatever the browser's zone.
 */
export const sendTimeReached = (task: Pick<TimedTask, 'setSendTimeStr'>, now: BusinessTimeInput = businessNow()) =>
  !!task.setSendTimeStr && !businessTime(now).isBefore(businessTime(task.setSendTimeStr));

export function TimedTaskList() {
  const timedTaskScreen = useScreen();
  const deliverPath = useScreenPath('sms_deliver');
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const { user } = useCurrentUser();
  const agent = isAgent(user);
  const [phones, setPhones] = useState<TimedTask | null>(null);
  const { tableProps, searchFormProps, tableQuery } = useSchemaList<TimedTask>(timedTasks, {
    queryOptions: { enabled: !!user },
  });

  const cancel = (task: TimedTask) => {
    if (sendTimeReached(task)) {
      message.error(SEND_MESSAGES.undoTooLate);
      return;
    }
    modal.confirm({
      title: '提示',
      content: SEND_MESSAGES.cancelConfirm,
      // the buttons say what they do: [取消][确定] under "取消该定时任务吗" reads both ways
      okText: '取消任务',
      okButtonProps: { danger: true },
      cancelText: '不取消',
      onOk: async () => {
        if (sendTimeReached(task)) {
          message.error(SEND_MESSAGES.undoTooLate);
          return;
        }
        const body = await undoSend(task.taskId, task.setSendTimeStr ?? '');
        message.success(body.msg || SEND_MESSAGES.undone);
        void tableQuery.refetch();
      },
    });
  };

  const reEdit = (task: TimedTask) =>
    modal.confirm({
      title: '提示',
      content: SEND_MESSAGES.reEditWarning,
      okText: '确定',
      cancelText: '取消',
      onOk: () => navigate(`${deliverPath}?id=${encodeURIComponent(task.taskId)}`),
    });

  const columns: (string | SchemaColumn<TimedTask>)[] = [
    { field: 'rowNum', width: 64 },
    'taskId',
    ...(agent ? ['clientid'] : []),
    { field: 'content', render: (v: string) => <LongText text={v} /> },
    'sign',
    { field: 'smstype', labelField: 'smstypeStr' },
    { field: 'templateType', labelField: 'templateTypeStr' },
    'chargeNumTotal',
    'setSendTimeStr',
    { field: 'status', labelField: 'statusStr' },
    'submitTimeStr',
    'creator',
  ];

  return (
    <Card title={timedTaskScreen.label}>
      <SchemaFilterBar filter={timedTasks.filter} agent={agent} formProps={searchFormProps} />
      <SchemaTable<TimedTask>
        {...tableProps}
        rowKey="taskId"
        entity={timedTasks.entity}
        columns={columns}
        locale={{ emptyText: '暂无数据' }}
        extraColumns={[
          {
            key: 'actions',
            title: '操作',
            fixed: 'right',
            render: (_: unknown, r: TimedTask) => (
              <Space size={0}>
                {r.getAllPhoneFlag !== 0 && (
                  <Button type="link" size="small" onClick={() => setPhones(r)}>
                    查看号码
                  </Button>
                )}
                {r.status === TaskStatus.Waiting && r.cancelFlag !== 0 && (
                  <>
                    <Button type="link" size="small" danger onClick={() => cancel(r)}>
                      取消
                    </Button>
                    <Button type="link" size="small" onClick={() => reEdit(r)}>
                      重新编辑
                    </Button>
                  </>
                )}
              </Space>
            ),
          },
        ]}
      />
      <TimedTaskPhonesDialog task={phones} onClose={() => setPhones(null)} />
    </Card>
  );
}

export default TimedTaskList;
