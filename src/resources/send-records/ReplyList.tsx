/**
 * 回复记录 (/customer/sendlayout/sendrecord/reply, route statistics_reply; POST /send/getmologs):
 * filters of filters/mo-record.json, the last month to start with, dates within the last three
 * months and a span of one month at most (只能查询近三个月的上行记录 / 查询时间跨度不能超过一个月,
 * schemas/forms/send.json), 15 a page, export (POST /send/exportmologs, .xlsx).
 */
import { ExportButton } from '@/components/ExportButton/ExportButton';
import { useCallback, useState } from 'react';
import { Card } from 'antd';
import type { MoRecord } from '@/generated/schemas';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { LongText } from '@/components/CopyText/CopyContentDialog';
import { useCurrentUser } from '@/layout/hooks';
import { isAgent } from '@/providers/access';
import { lastUplinkMonth, uplinkDayDisabled, uplinkRangeProblem } from './recordDates';
import { moRecords } from './data';
import { useScreen } from '@/layout/screens';

export function ReplyList() {
  const replyTab = useScreen();
  const { user } = useCurrentUser();
  const agent = isAgent(user);
  const [initialValues] = useState(() => {
    const { from, to } = lastUplinkMonth();
    return { startReceivedate: from, endReceivedate: to };
  });
  const validate = useCallback(
    (v: Record<string, unknown>) => uplinkRangeProblem(v.startReceivedate, v.endReceivedate),
    [],
  );
  const { tableProps, searchFormProps, params } = useSchemaList<MoRecord>(moRecords, {
    initialValues,
    validate,
    queryOptions: { enabled: !!user },
  });

  const dateProps = {
    allowClear: false,
    disabledDate: (d: Parameters<typeof uplinkDayDisabled>[0]) => uplinkDayDisabled(d),
  };
  return (
    <Card title={replyTab.label}>
      <SchemaFilterBar
        filter={moRecords.filter}
        agent={agent}
        formProps={searchFormProps}
        fieldProps={{ startReceivedate: dateProps, endReceivedate: dateProps }}
        extra={<ExportButton url="/send/exportmologs" params={params} fileName="回复记录.xlsx" />}
      />
      <SchemaTable<MoRecord>
        {...tableProps}
        rowKey={(r) => `${r.rowNum ?? ''}-${r.phone}-${r.receivedateStr}`}
        entity={moRecords.entity}
        columns={[
          { field: 'rowNum', width: 64 },
          ...(agent ? ['clientid'] : []),
          'phone',
          { field: 'content', render: (v: string) => <LongText text={v} title="回复内容" /> },
          'receivedateStr',
        ]}
        locale={{ emptyText: '暂无数据' }}
      />
    </Card>
  );
}

export default ReplyList;
