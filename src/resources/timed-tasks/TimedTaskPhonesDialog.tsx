/** 查看号码 of a timed task: POST /send/getAllPhone/list {uid, submitTime, page, rows}, paged. */
import { Modal, Table } from 'antd';
import { useTable } from '@refinedev/antd';
import type { TimedTask } from '@/generated/schemas';
import { listPagination } from '@/components/SchemaTable/SchemaTable';
import { listPageSize } from '@/components/SchemaTable/useSchemaList';
import { timedTaskPhones } from './data';

export function TimedTaskPhonesDialog({ task, onClose }: { task: TimedTask | null; onClose: () => void }) {
  return (
    <Modal open={!!task} title="查看号码" width={480} footer={null} onCancel={onClose} destroyOnHidden>
      {task && <PhoneTable task={task} />}
    </Modal>
  );
}

function PhoneTable({ task }: { task: TimedTask }) {
  const { tableProps } = useTable<{ phone: string }>({
    resource: timedTaskPhones.name,
    syncWithLocation: false,
    pagination: { pageSize: listPageSize(timedTaskPhones) },
    meta: { params: { uid: task.taskId, submitTime: task.setSendTimeStr } },
  });
  return (
    <Table
      {...tableProps}
      rowKey="phone"
      size="small"
      pagination={listPagination(tableProps.pagination)}
      locale={{ emptyText: '暂无号码' }}
      columns={[
        {
          key: 'no',
          title: '序号',
          width: 70,
          render: (_v, _r, i) =>
            i + 1 + ((Number((tableProps.pagination || {}).current) || 1) - 1) * listPageSize(timedTaskPhones),
        },
        { key: 'phone', dataIndex: 'phone', title: '手机号码' },
      ]}
    />
  );
}
