/**
 * 投递分析 (GET /client/report/delivery, docs/api-reports.md; issue 27 "Delivery analytics" and
 * item 11's chart): the messages of the last 7 / 30 days, today included (live), per day (submitted
 * and success rate), per carrier and province (success rate) and the failure reasons (the carrier's
 * codes explained by enums/receipt-code, the code kept beside its meaning). An agent's figures are
 * its own sending and its sub-accounts'.
 *
 * `compact` is the home page's card: the carriers' success rate and the three main failure reasons,
 * with a link to the full analysis on the reports. Loaded lazily (echarts ships only with the pages
 * that chart). A failed load is an error state with 重试 (the request is silent: no toast).
 */
import { useState, type CSSProperties } from 'react';
import { Link } from 'react-router';
import { Alert, Button, Card, Col, Empty, Row, Segmented, Statistic, Table, Typography } from 'antd';
import { useCustom } from '@refinedev/core';
import type { DeliveryStats } from '@/generated/schemas';
import { enumLabel, schemas } from '@/schema';
import { receiptMeaning } from '@/components/ReceiptCode/ReceiptCode';
import { Chart, type ChartOption } from '@/components/Chart/Chart';
import { useScreen } from '@/layout/screens';

export const DELIVERY_URL = '/client/report/delivery';
export type DeliveryDays = 7 | 30;
/** the headline titles: the report's own columns (entities/report-row) */
const title = (field: string) => schemas.field('entities/report-row', field)?.title ?? field;
const pct = (n: number) => `${n.toFixed(2)}%`;
/** a failure reason: its meaning and the code, the code alone when the table does not know it */
const reasonLabel = (r: DeliveryStats['reasons'][number]) => {
  if (!r.code) return '未返回错误码';
  const meaning = r.meaning || receiptMeaning(r.code);
  return meaning ? `${meaning}（${r.code}）` : r.code;
};

const carrierName = (c: number) => enumLabel('carrier', c) ?? String(c);

function carrierOption(d: DeliveryStats): ChartOption {
  return {
    tooltip: { trigger: 'axis' },
    grid: { left: 48, right: 16, top: 16, bottom: 28 },
    xAxis: { type: 'category', data: d.byCarrier.map((c) => carrierName(c.carrier)) },
    yAxis: { type: 'value', max: 100, axisLabel: { formatter: '{value}%' } },
    series: [
      {
        name: '成功率',
        type: 'bar',
        barMaxWidth: 40,
        data: d.byCarrier.map((c) => c.successRate),
        label: { show: true, position: 'top', formatter: '{c}%' },
        itemStyle: { color: '#52c41a' },
      },
    ],
  };
}

function dayOption(d: DeliveryStats): ChartOption {
  return {
    tooltip: { trigger: 'axis' },
    // the legend above the grid, never over the axis (issue 27 item 12)
    legend: { data: ['提交', '成功', '失败', '成功率'], top: 0 },
    grid: { left: 56, right: 56, top: 40, bottom: 28 },
    xAxis: { type: 'category', data: d.byDay.map((x) => x.day.slice(5)) },
    yAxis: [
      { type: 'value', minInterval: 1 },
      { type: 'value', max: 100, axisLabel: { formatter: '{value}%' }, splitLine: { show: false } },
    ],
    series: [
      { name: '提交', type: 'bar', data: d.byDay.map((x) => x.submit), itemStyle: { color: '#1677ff' } },
      { name: '成功', type: 'line', data: d.byDay.map((x) => x.success), itemStyle: { color: '#52c41a' } },
      { name: '失败', type: 'line', data: d.byDay.map((x) => x.fail), itemStyle: { color: '#ff4d4f' } },
      {
        name: '成功率',
        type: 'line',
        yAxisIndex: 1,
        data: d.byDay.map((x) => x.successRate),
        itemStyle: { color: '#faad14' },
        lineStyle: { type: 'dashed' },
      },
    ],
  };
}

function reasonOption(d: DeliveryStats): ChartOption {
  return {
    tooltip: { trigger: 'item', formatter: '{b}<br/>{c} 条（{d}%）' },
    // the legend under the donut (beside it, long reasons ran over it at 1024 px: issue 41 item 3),
    // a long reason cut with the whole text in the legend's tooltip
    legend: {
      type: 'scroll',
      orient: 'horizontal',
      bottom: 0,
      left: 'center',
      tooltip: { show: true },
      textStyle: { width: 200, overflow: 'truncate' },
    },
    series: [
      {
        name: '失败原因',
        type: 'pie',
        radius: ['32%', '58%'],
        center: ['50%', '42%'],
        label: { show: false },
        data: d.reasons.map((r) => ({ name: reasonLabel(r), value: r.count })),
      },
    ],
  };
}

/** the four headline figures */
function Totals({ d }: { d: DeliveryStats }) {
  const items: [string, number | string][] = [
    [title('send_num'), d.total.submit],
    [title('success_num'), d.total.success],
    [title('fail_num'), d.total.fail],
    [title('success_rate'), pct(d.total.successRate)],
  ];
  return (
    <Row gutter={[16, 16]} data-testid="delivery-totals">
      {items.map(([t, v]) => (
        <Col key={t} xs={12} md={6}>
          <Statistic title={t} value={v} />
        </Col>
      ))}
    </Row>
  );
}

const provinceColumns = [
  { key: 'provinceName', dataIndex: 'provinceName', title: '省份' },
  { key: 'submit', dataIndex: 'submit', title: title('send_num'), align: 'right' as const },
  { key: 'success', dataIndex: 'success', title: title('success_num'), align: 'right' as const },
  { key: 'fail', dataIndex: 'fail', title: title('fail_num'), align: 'right' as const },
  {
    key: 'successRate',
    dataIndex: 'successRate',
    title: title('success_rate'),
    align: 'right' as const,
    render: (v: number) => pct(v),
  },
];

export function DeliveryAnalyticsView({ data, compact }: { data: DeliveryStats; compact?: boolean }) {
  const byCarrier = carrierOption(data);
  if (data.total.submit === 0) return <Empty description={`近${data.days}天没有发送记录`} />;
  if (compact)
    return (
      <Row gutter={[16, 16]}>
        <Col xs={24} md={12}>
          <Typography.Text type="secondary">各运营商成功率</Typography.Text>
          <Chart
            option={byCarrier}
            height={200}
            label={`各运营商成功率，合计 ${pct(data.total.successRate)}`}
            testId="carrier-chart"
          />
        </Col>
        <Col xs={24} md={12} data-testid="top-reasons">
          <Typography.Text type="secondary">主要失败原因</Typography.Text>
          {data.reasons.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有失败的短信" />
          ) : (
            <ol style={{ paddingInlineStart: 20, marginTop: 8 }}>
              {data.reasons.slice(0, 3).map((r) => (
                <li key={r.code} style={{ marginBottom: 6 }}>
                  {reasonLabel(r)}：{r.count.toLocaleString('zh-CN')} 条
                </li>
              ))}
            </ol>
          )}
          <Typography.Paragraph style={{ marginTop: 8 }}>
            成功率 <Typography.Text strong>{pct(data.total.successRate)}</Typography.Text>（提交{' '}
            {data.total.submit.toLocaleString('zh-CN')} 条）
          </Typography.Paragraph>
        </Col>
      </Row>
    );
  return (
    <>
      <Totals d={data} />
      <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
        <Col xs={24}>
          <Typography.Text type="secondary">每天的提交与成功率</Typography.Text>
          <Chart
            option={dayOption(data)}
            height={280}
            label={`近${data.days}天每天的提交与成功率`}
            testId="day-chart"
          />
        </Col>
        <Col xs={24} lg={10}>
          <Typography.Text type="secondary">各运营商成功率</Typography.Text>
          <Chart option={byCarrier} label="各运营商成功率" testId="carrier-chart" />
        </Col>
        <Col xs={24} lg={14} data-testid="reason-chart-box">
          <Typography.Text type="secondary">失败原因（运营商错误码）</Typography.Text>
          {data.reasons.length ? (
            <Chart option={reasonOption(data)} label="失败原因" testId="reason-chart" />
          ) : (
            <Empty description="没有失败的短信" />
          )}
        </Col>
        <Col xs={24}>
          <Typography.Text type="secondary">各省份</Typography.Text>
          <Table
            size="small"
            rowKey="province"
            data-testid="province-table"
            columns={provinceColumns}
            dataSource={data.byProvince}
            pagination={
              data.byProvince.length > 10 ? { pageSize: 10, showSizeChanger: false, hideOnSinglePage: true } : false
            }
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: '暂无数据' }}
          />
        </Col>
      </Row>
    </>
  );
}

export interface DeliveryAnalyticsProps {
  /** the home page's card: carriers and the main failure reasons only */
  compact?: boolean;
  style?: CSSProperties;
}

export function DeliveryAnalytics({ compact, style }: DeliveryAnalyticsProps) {
  const reportPreScreen = useScreen('statistics_report_pre');
  const [days, setDays] = useState<DeliveryDays>(7);
  const { result, query } = useCustom<DeliveryStats>({
    url: DELIVERY_URL,
    method: 'get',
    config: { query: { days } },
    meta: { silent: true },
  });
  const data = result.data as DeliveryStats | undefined;
  const extra = compact ? (
    <Link to={reportPreScreen.path}>查看投递分析</Link>
  ) : (
    <Segmented<DeliveryDays>
      value={days}
      onChange={setDays}
      options={[
        { value: 7, label: '近7天' },
        { value: 30, label: '近30天' },
      ]}
    />
  );
  return (
    <Card
      title={compact ? '近7天投递分析' : `投递分析（含今日实时数据）`}
      extra={extra}
      style={style}
      loading={query.isLoading}
      data-testid="delivery-analytics"
    >
      {query.isError ? (
        <Alert
          type="error"
          showIcon
          message="投递分析加载失败"
          description={(query.error as { message?: string } | null)?.message}
          action={
            <Button size="small" onClick={() => void query.refetch()}>
              重试
            </Button>
          }
        />
      ) : data ? (
        <DeliveryAnalyticsView data={data} compact={compact} />
      ) : (
        <Empty description="暂无数据" />
      )}
    </Card>
  );
}

export default DeliveryAnalytics;
