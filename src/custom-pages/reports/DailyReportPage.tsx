/**
 * 日报表 (/customer/report/daily_post?id=<clientid>&clickType=normal|inter, or &paytype=0|1 in
 * package mode): one sub-account's rows per day (GET /client/report/consume/preday | sufday), the
 * export (consumeReportDayExport) and a back button. Date rules: reportDates.ts.
 */
import { ExportButton } from '@/components/ExportButton/ExportButton';
import { useCallback, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, Card, Space } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import type { ReportRow } from '@/generated/schemas';
import { ReportClickType } from '@/generated/schemas';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { defaultReportRange, reportPickerProps, reportRangeProblem, type ReportTab } from './reportDates';
import { REPORT_COUNT_COLUMNS } from './tabs';
import { reportSummary, totalsOf } from './ReportTotals';
import { reportsPreDay, reportsSufDay } from './data';
import { useScreen, useScreenPath } from '@/layout/screens';

export function DailyReportPage() {
  const dailyReportScreen = useScreen();
  const reportPaths = { pre: useScreenPath('statistics_report_pre'), post: useScreenPath('statistics_report_post') };
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const id = search.get('id') ?? '';
  const clickType =
    search.get('clickType') === ReportClickType.International
      ? ReportClickType.International
      : search.get('clickType') === ReportClickType.Normal
        ? ReportClickType.Normal
        : undefined;
  const tab: ReportTab = clickType === ReportClickType.International || search.get('paytype') === '1' ? 'post' : 'pre';
  const fixed: Record<string, string> = { id, ...(clickType ? { clickType } : {}) };
  const [initialValues] = useState(() => {
    const { from, to } = defaultReportRange();
    return { start_time_day: from, end_time_day: to };
  });
  const validate = useCallback(
    (v: Record<string, unknown>) => reportRangeProblem(tab, v.start_time_day, v.end_time_day),
    [tab],
  );
  const { tableProps, searchFormProps, params, tableQuery } = useSchemaList<ReportRow>(
    tab === 'pre' ? reportsPreDay : reportsSufDay,
    {
      initialValues,
      validate,
      filters: {
        permanent: Object.entries(fixed).map(([field, value]) => ({ field, operator: 'eq' as const, value })),
      },
    },
  );
  const picker = reportPickerProps(tab);
  return (
    <Card
      title={`${dailyReportScreen.label} ${id}`}
      extra={
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(reportPaths[tab])}>
          返回
        </Button>
      }
    >
      <SchemaFilterBar
        filter={reportsPreDay.filter}
        omit={['customerInfo', 'paytype', 'clickType', 'id', 'phone_type']}
        formProps={searchFormProps}
        fieldProps={{ start_time_day: picker, end_time_day: picker }}
        extra={
          <Space>
            <ExportButton
              url="/client/report/consume/consumeReportDayExport"
              params={{ ...params, ...fixed, paytype: tab === 'pre' ? 0 : 1 }}
              fileName="日报表.xlsx"
            />
          </Space>
        }
      />
      <SchemaTable<ReportRow>
        {...tableProps}
        rowKey={(r) => `${r.date}-${r.smstype}-${r.paytype}`}
        entity={reportsPreDay.entity}
        columns={[
          { field: 'rownum', width: 64 },
          'date',
          'clientid',
          'name',
          'smstype_str',
          'paytype_str',
          ...REPORT_COUNT_COLUMNS,
        ]}
        summary={reportSummary(totalsOf(tableQuery.data), 6)}
        locale={{ emptyText: '暂无数据' }}
      />
    </Card>
  );
}

export default DailyReportPage;
