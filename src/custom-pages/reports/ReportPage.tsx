/**
 * 消费报表 (statistics_report_pre / statistics_report_post under
 * /customer/deliverlayout/customer/report/pre|post, also /customer/report/pre): one row per
 * sub-account, SMS type and paytype (POST /client/report/consume/pretotal | suftotal), a link to
 * its daily view, and the export (consumeReportTotalExport). Tabs: package mode 子账户(预付费) /
 * 子账户(后付费); direct mode 普通短信 (clickType=normal) / 国际短信 (clickType=inter).
 * Date rules: reportDates.ts (up to today: the figures are live). Under the table the totals row
 * (every row's sums, not the page's) with the success rate, and the delivery analysis (echarts, a
 * lazy chunk): per day, carrier, province and failure reason over 7 / 30 days.
 */
import { ExportButton } from '@/components/ExportButton/ExportButton';
import { lazy, Suspense, useCallback, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Card, Skeleton, Tabs, Typography } from 'antd';
import type { ReportRow } from '@/generated/schemas';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { useCurrentUser } from '@/layout/hooks';
import { isAgent, isPackageMode } from '@/providers/access';
import { defaultReportRange, reportPickerProps, reportRangeProblem, type ReportTab } from './reportDates';
import { REPORT_COUNT_COLUMNS, reportTabs, tabQuery } from './tabs';
import { reportSummary, totalsOf } from './ReportTotals';

const DeliveryAnalytics = lazy(() => import('./DeliveryAnalytics'));
import { reportsPre, reportsSuf } from './data';
import { useScreen, useScreenPath } from '@/layout/screens';

function ReportTable({ tab, agent, packageMode }: { tab: ReportTab; agent: boolean; packageMode: boolean }) {
  const dailyReportScreen = useScreen('report_daily');
  const q = tabQuery(tab, packageMode);
  const [initialValues] = useState(() => {
    const { from, to } = defaultReportRange();
    return { start_time_day: from, end_time_day: to };
  });
  const validate = useCallback(
    (v: Record<string, unknown>) => reportRangeProblem(tab, v.start_time_day, v.end_time_day),
    [tab],
  );
  const { tableProps, searchFormProps, params, tableQuery } = useSchemaList<ReportRow>(
    tab === 'pre' ? reportsPre : reportsSuf,
    {
      initialValues,
      validate,
      filters: { permanent: Object.entries(q).map(([field, value]) => ({ field, operator: 'eq' as const, value })) },
    },
  );

  const picker = reportPickerProps(tab);
  const dailyLink = (r: ReportRow) =>
    `${dailyReportScreen.path}?${new URLSearchParams({ id: r.clientid, ...(packageMode ? { paytype: tab === 'pre' ? '0' : '1' } : { clickType: q.clickType! }) })}`;
  return (
    <>
      <SchemaFilterBar
        filter={reportsPre.filter}
        agent={agent}
        omit={['paytype', 'clickType', 'id', 'phone_type']}
        formProps={searchFormProps}
        fieldProps={{ start_time_day: picker, end_time_day: picker }}
        extra={
          <ExportButton
            url="/client/report/consume/consumeReportTotalExport"
            params={{ ...params, ...q, paytype: tab === 'pre' ? 0 : 1 }}
            fileName="消费报表.xlsx"
          />
        }
      />
      <SchemaTable<ReportRow>
        {...tableProps}
        rowKey={(r) => `${r.clientid}-${r.smstype}-${r.paytype}`}
        entity={reportsPre.entity}
        columns={[
          { field: 'rownum', width: 64 },
          'clientid',
          'name',
          'smstype_str',
          'paytype_str',
          ...REPORT_COUNT_COLUMNS,
        ]}
        summary={reportSummary(totalsOf(tableQuery.data), 5, 1)}
        extraColumns={[
          {
            key: 'actions',
            title: '操作',
            fixed: 'right',
            render: (_: unknown, r: ReportRow) => <Link to={dailyLink(r)}>{dailyReportScreen.label}</Link>,
          },
        ]}
        locale={{ emptyText: '暂无数据' }}
      />
    </>
  );
}

export function ReportPage() {
  const reportPreScreen = useScreen();
  const reportPaths = { pre: useScreenPath('statistics_report_pre'), post: useScreenPath('statistics_report_post') };
  const { user } = useCurrentUser();
  const location = useLocation();
  const navigate = useNavigate();
  const tab: ReportTab = location.pathname.endsWith('/post') ? 'post' : 'pre';
  const packageMode = isPackageMode(user);
  const agent = isAgent(user);
  if (!user) return null;
  return (
    <>
      <Card
        title={reportPreScreen.label}
        extra={<Typography.Text type="secondary">今日数据为实时统计</Typography.Text>}
      >
        <Tabs
          activeKey={tab}
          onChange={(k) => navigate(reportPaths[k as ReportTab])}
          items={reportTabs(packageMode).map((t) => ({ key: t.key, label: t.label }))}
          destroyOnHidden
        />
        <ReportTable key={tab} tab={tab} agent={agent} packageMode={packageMode} />
      </Card>
      <Suspense fallback={<Skeleton active style={{ marginTop: 16 }} />}>
        <DeliveryAnalytics style={{ marginTop: 16 }} />
      </Suspense>
    </>
  );
}

export default ReportPage;
