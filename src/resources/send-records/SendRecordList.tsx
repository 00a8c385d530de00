/**
 * 发送记录 (/customer/sendlayout/sendrecord, route statistics_sendrecord; POST /send/getrecords):
 * the filters of filters/send-record.json (state multi-select, carrier, province and city pickers),
 * the last 90 days to start with, 10 a page, state tags coloured by enums/send-record-status
 * (x-color), and two exports of the filtered records: 导出记录 (POST /send/exportrecords, then the
 * file at GET /send/downloadExportSendRecords?filePath=) and 导出号码 (POST /send/exportRecordsTxt,
 * a streamed text file). Refusals (导出记录数不能大于100万。, 当前条件没有数据，无法导出 ...) are the
 * server's messages, shown as it answers them.
 *
 * Follow-up (issue 27 item 10, "Task follow-up"): the task-number filter (taskId; a task's 详情
 * links here with ?taskId=&beginDate=), a number's history across tasks (a click on a number
 * filters by it), receipt and error codes shown by their meaning (enums/receipt-code, the code in
 * a tooltip), and a malformed number or task number refused before any request with the filter
 * schema's own message, once.
 *
 * Retention (issue 40): a range reaching before the kept months lists the kept part under a notice,
 * 只能查询近N个月的发送记录（YYYY-MM-DD 起）; a range wholly before them is refused with that message.
 */
import { useCallback, useState } from 'react';
import { Alert, App, Button, Card, Tooltip, Typography } from 'antd';
import { ExportOutlined, FileTextOutlined } from '@ant-design/icons';
import type { RecordRetention, SendRecord } from '@/generated/schemas';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable, type SchemaColumn } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { LongText } from '@/components/CopyText/CopyContentDialog';
import { ReceiptCode } from '@/components/ReceiptCode/ReceiptCode';
import { schemas } from '@/schema';
import { useCurrentUser } from '@/layout/hooks';
import { isAgent } from '@/providers/access';
import { ApiError, postForm } from '@/providers/http';
import { downloadPosted, SEND_MESSAGES } from '@/domain/send';
import { lastDays, rangeOrderProblem, RECORD_DEFAULT_DAYS } from './recordDates';
import { sendRecords } from './data';
import { useScreen } from '@/layout/screens';

export const DOWNLOAD_EXPORT_URL = '/send/downloadExportSendRecords';

/** the parameters the page reads from its address (a link from a task, a number's history) */
const LINKED = ['taskId', 'phone'] as const;

/** 只能查询近N个月的发送记录 (schemas/forms/send.json recordRetention) */
export const retentionNotice = (months: number) => SEND_MESSAGES.recordRetention.replace('{months}', String(months));

/** a text filter's pattern of the filter schema, checked before a search: its errorMessage, or null */
export function patternProblem(
  filter: string,
  values: Record<string, unknown>,
  fields: readonly string[],
): string | null {
  const props = (schemas.get(filter).properties ?? {}) as Record<string, { pattern?: string; errorMessage?: string }>;
  for (const f of fields) {
    const v = values[f];
    const rule = props[f];
    if (typeof v !== 'string' || !v.trim() || !rule?.pattern) continue;
    if (!new RegExp(rule.pattern).test(v.trim())) return rule.errorMessage ?? null;
  }
  return null;
}

export function SendRecordList() {
  const sendRecordTab = useScreen();
  const { message } = App.useApp();
  const { user } = useCurrentUser();
  const agent = isAgent(user);
  const [exporting, setExporting] = useState<'xlsx' | 'txt' | null>(null);
  // the first values (and 重置's): the default range; a link's taskId / phone / beginDate come in
  // through the address bar like any list's filters (useSchemaList, listUrl.ts)
  const [initialValues] = useState(() => {
    const { from, to } = lastDays(RECORD_DEFAULT_DAYS);
    return { beginDate: from, endDate: to };
  });
  const validate = useCallback(
    (v: Record<string, unknown>) =>
      patternProblem(sendRecords.filter, v, LINKED) ?? rangeOrderProblem(v.beginDate, v.endDate),
    [],
  );
  const { tableProps, searchFormProps, params, tableQuery } = useSchemaList<SendRecord>(sendRecords, {
    initialValues,
    validate,
    queryOptions: { enabled: !!user },
  });

  // a range reaching before the kept months (RECORDS_KEEP_MONTHS): the rows are the kept part, and
  // the answer's `retention` says from when (responses/record-retention.json)
  const retention = (tableQuery.data as { retention?: RecordRetention } | undefined)?.retention;

  const exportRecords = async () => {
    setExporting('xlsx');
    try {
      const body = await postForm<{ filePath: string }>('/send/exportrecords', params);
      const filePath = body.data?.filePath;
      if (filePath) await downloadPosted(DOWNLOAD_EXPORT_URL, { filePath }, '发送记录.xlsx', 'get');
    } catch (e) {
      // a refused export was toasted by the client; a refused download is shown here
      if (e instanceof ApiError && e.code === -1) message.error(e.message);
    } finally {
      setExporting(null);
    }
  };
  const exportNumbers = async () => {
    setExporting('txt');
    try {
      await downloadPosted('/send/exportRecordsTxt', params, '发送记录号码.txt');
    } catch (e) {
      message.error(e instanceof ApiError ? e.message : SEND_MESSAGES.noData);
    } finally {
      setExporting(null);
    }
  };

  /** a number's history: its records across tasks (the other filters but the dates cleared) */
  const history = (phone: string) => {
    const form = searchFormProps.form;
    if (!form) return;
    form.setFieldsValue({
      phone,
      taskId: undefined,
      searchContent: undefined,
      stateList: undefined,
      operatorstype: undefined,
      province: undefined,
      city: undefined,
    });
    form.submit();
  };
  const columns: (string | SchemaColumn<SendRecord>)[] = [
    ...(agent ? ['clientid'] : []),
    {
      field: 'phone',
      width: 130,
      render: (v: string) => (
        <Tooltip title="查看该号码的发送历史">
          <Typography.Link onClick={() => history(v)} data-testid="phone-history" style={{ whiteSpace: 'nowrap' }}>
            {v}
          </Typography.Link>
        </Tooltip>
      ),
    },
    { field: 'taskId', width: 200, render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{v || '-'}</span> },
    { field: 'operatorstype', width: 80 },
    { field: 'cityName', width: 120, render: (v: string, r) => [r.provinceName, v].filter(Boolean).join(' ') || '-' },
    { field: 'content', width: 260, render: (v: string) => <LongText text={v} /> },
    { field: 'state', width: 110, labelField: 'stateStr' },
    { field: 'errorcode', width: 200, render: (v: string) => <ReceiptCode code={v} /> },
    { field: 'report', width: 200, render: (v: string) => <ReceiptCode code={v} /> },
    { field: 'smsNum', width: 90 },
    { field: 'dateStr', width: 170, render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{v || '-'}</span> },
  ];

  return (
    <Card title={sendRecordTab.label}>
      <SchemaFilterBar
        filter={sendRecords.filter}
        agent={agent}
        formProps={searchFormProps}
        fieldProps={{ beginDate: { allowClear: false }, endDate: { allowClear: false } }}
        extra={
          <>
            <Button
              icon={<ExportOutlined />}
              loading={exporting === 'xlsx'}
              disabled={!!exporting}
              onClick={exportRecords}
            >
              导出记录
            </Button>
            <Button
              icon={<FileTextOutlined />}
              loading={exporting === 'txt'}
              disabled={!!exporting}
              onClick={exportNumbers}
            >
              导出号码
            </Button>
          </>
        }
      />
      {retention && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="record-retention"
          message={SEND_MESSAGES.recordRetentionFrom
            .replace('{months}', String(retention.months))
            .replace('{from}', retention.from)}
        />
      )}
      <SchemaTable<SendRecord>
        {...tableProps}
        rowKey={(r) => String(r.id ?? `${r.phone}-${r.dateStr}`)}
        entity={sendRecords.entity}
        columns={columns}
        locale={{ emptyText: '暂无数据' }}
      />
    </Card>
  );
}

export default SendRecordList;
