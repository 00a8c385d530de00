/**
 * 监控 (/ops/monitor, GET /operator/monitor?range=hour|day): the platform's last hour or day a
 * minute at a time, every process together (entities/monitor-series.json; docs/api-metrics.md
 * "Per-minute series"): the range's totals and the current backlog, then charts — messages
 * accepted, submitted, delivered and failed a minute; waiting and unconfirmed messages; the
 * delivery rate per carrier and per channel; refusals by protocol, code and reason; the doors'
 * sessions; today's budgets (credit-alarm SMS, verification codes) above the charts. Asked again every minute (in a background tab too: a wall display) and on 刷新; the
 * range is kept in the address (?range=day). A chart with nothing to show (a fresh platform, a
 * quiet hour) says so instead of drawing empty axes. The request is silent: a failure shows its
 * message with 重试 in place of the charts.
 */
import { useMemo, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import {
  Alert,
  Button,
  Card,
  Col,
  Empty,
  Row,
  Segmented,
  Skeleton,
  Space,
  Statistic,
  Table,
  Tooltip,
  Typography,
} from 'antd';
import { QuestionCircleOutlined, ReloadOutlined } from '@ant-design/icons';
import { useCustom } from '@refinedev/core';
import type { MonitorSeries } from '@/generated/schemas';
import { Chart } from '@/components/Chart/Chart';
import { EnumTag } from '@/components/EnumTag/EnumTag';
import { enumLabel, schemas } from '@/schema';
import {
  anyValue,
  backlogOption,
  carrierName,
  carrierRatesOption,
  channelRatesOption,
  flowOption,
  lastSample,
  refusalsOption,
  seriesTitle,
  sessionsOption,
} from './charts';
import { BudgetsPanel } from './Budgets';
import { MONITOR_REFRESH_MS, MONITOR_URL } from './data';
import { useScreen } from '@/layout/screens';

type Range = MonitorSeries['range'];
type Refusal = MonitorSeries['refusals'][number];
const RANGES: { value: Range; label: string }[] = [
  { value: 'hour', label: '最近一小时' },
  { value: 'day', label: '最近一天' },
];
const rangeText = (r: Range) => RANGES.find((x) => x.value === r)!.label;

const count = (v: number | null | undefined) => (v === null || v === undefined ? '-' : v.toLocaleString('zh-CN'));
const pct = (v: number | null) => (v === null ? '-' : `${v.toFixed(2)}%`);
const protocolName = (p: string) => enumLabel('access-protocol', p) ?? p.toUpperCase();
const channelName = (c: string) => c || (enumLabel('channel-source', 'default') ?? c);
/** a refusal as the chart names it: protocol, the reason in words, the code it answered */
const refusalName = (r: Refusal) => `${protocolName(r.protocol)} ${r.label}（${r.code}）`;
/** entities/monitor-series.json: a nested property's title (refusals.items.code …) */
const itemTitle = (list: string, field: string) =>
  (
    schemas.get('entities/monitor-series').properties?.[list]?.items as
      { properties?: Record<string, { title?: string }> } | undefined
  )?.properties?.[field]?.title ?? field;

/** one chart's card: its title, and the chart or, with nothing to show, the reason */
function Panel({
  title,
  extra,
  empty,
  children,
  testId,
}: {
  title: string;
  extra?: ReactNode;
  empty?: string | false;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Card size="small" title={title} extra={extra} data-testid={testId} styles={{ body: { minHeight: 260 } }}>
      {empty ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} style={{ paddingTop: 56 }} /> : children}
    </Card>
  );
}

function Totals({ s }: { s: MonitorSeries }) {
  const sessions = s.sessions.reduce<number | null>((n, x) => {
    const v = lastSample(x.counts);
    return v === null ? n : (n ?? 0) + v;
  }, null);
  const rate = schemas.get('entities/monitor-series').properties?.totals?.properties?.deliveryRate;
  const items: { key: string; title: ReactNode; value: string; colour?: string }[] = [
    { key: 'accepted', title: seriesTitle('accepted'), value: count(s.totals.accepted) },
    { key: 'submitted', title: seriesTitle('submitted'), value: count(s.totals.submitted) },
    { key: 'delivered', title: seriesTitle('delivered'), value: count(s.totals.delivered), colour: '#389e0d' },
    {
      key: 'failed',
      title: seriesTitle('failed'),
      value: count(s.totals.failed),
      colour: s.totals.failed ? '#cf1322' : undefined,
    },
    {
      key: 'deliveryRate',
      title: (
        <Tooltip title={rate?.description}>
          {rate?.title} <QuestionCircleOutlined />
        </Tooltip>
      ),
      value: pct(s.totals.deliveryRate),
    },
    { key: 'waiting', title: `${seriesTitle('waiting')}（当前）`, value: count(lastSample(s.waiting)) },
    { key: 'unconfirmed', title: `${seriesTitle('unconfirmed')}（当前）`, value: count(lastSample(s.unconfirmed)) },
    { key: 'sessions', title: `${seriesTitle('sessions')}（当前）`, value: count(sessions) },
  ];
  return (
    <Row gutter={[16, 16]} data-testid="monitor-totals">
      {items.map((i) => (
        <Col key={i.key} xs={12} md={6} xl={3}>
          <Statistic
            title={i.title}
            value={i.value}
            valueStyle={i.colour ? { color: i.colour } : undefined}
            data-testid={`total-${i.key}`}
          />
        </Col>
      ))}
    </Row>
  );
}

function Charts({ s }: { s: MonitorSeries }) {
  const range = rangeText(s.range);
  const options = useMemo(
    () => ({
      flow: flowOption(s),
      backlog: backlogOption(s),
      carriers: carrierRatesOption(s),
      channels: channelRatesOption(s, channelName),
      refusals: refusalsOption(s, refusalName),
      sessions: sessionsOption(s, protocolName),
    }),
    [s],
  );
  const refusalTotal = s.refusals.reduce((n, r) => n + r.total, 0);
  return (
    <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
      <Col xs={24}>
        <Panel
          title="每分钟短信量"
          testId="panel-flow"
          empty={!anyValue(s.accepted, s.submitted, s.delivered, s.failed) && `${range}没有受理或发送的短信`}
        >
          <Chart
            option={options.flow}
            height={280}
            label={`${range}每分钟受理、提交、成功、失败条数`}
            testId="flow-chart"
            data={{ points: s.minutes.length, accepted: s.totals.accepted, submitted: s.totals.submitted }}
          />
        </Panel>
      </Col>
      <Col xs={24} xl={12}>
        <Panel
          title="等待与未确认"
          testId="panel-backlog"
          empty={!s.waiting.some((x) => x !== null) && !s.unconfirmed.some((x) => x !== null) && `${range}尚无采样`}
        >
          <Chart option={options.backlog} label={`${range}每分钟等待发送与未确认的短信`} testId="backlog-chart" />
        </Panel>
      </Col>
      <Col xs={24} xl={12}>
        <Panel
          title={seriesTitle('sessions')}
          testId="panel-sessions"
          empty={!s.sessions.length && `${range}没有接入会话（SMPP、CMPP、SMGP、SGIP）`}
        >
          <Chart option={options.sessions} label={`${range}各协议已登录的接入会话`} testId="sessions-chart" />
        </Panel>
      </Col>
      <Col xs={24} xl={12}>
        <Panel title="各运营商成功率" testId="panel-carriers" empty={!s.carriers.length && `${range}没有发送结果`}>
          <Chart
            option={options.carriers}
            label={`${range}各运营商每分钟成功率`}
            testId="carriers-chart"
            data={{ rates: s.carriers.map((c) => `${carrierName(c.carrier)} ${pct(c.deliveryRate)}`).join('，') }}
          />
        </Panel>
      </Col>
      <Col xs={24} xl={12}>
        <Panel title="各通道成功率" testId="panel-channels" empty={!s.channels.length && `${range}没有通道提交`}>
          <Chart option={options.channels} label={`${range}各通道每分钟成功率`} testId="channels-chart" />
          <Table
            size="small"
            rowKey="channel"
            pagination={false}
            data-testid="channel-totals"
            dataSource={s.channels.map((c) => ({
              channel: c.channel,
              submitted: c.submitted.reduce((a, b) => a + b, 0),
              delivered: c.delivered.reduce((a, b) => a + b, 0),
              failed: c.failed.reduce((a, b) => a + b, 0),
              deliveryRate: c.deliveryRate,
            }))}
            columns={[
              {
                key: 'channel',
                dataIndex: 'channel',
                title: itemTitle('channels', 'channel'),
                render: (v: string) => channelName(v),
              },
              {
                key: 'submitted',
                dataIndex: 'submitted',
                title: itemTitle('channels', 'submitted'),
                align: 'right',
                render: count,
              },
              {
                key: 'delivered',
                dataIndex: 'delivered',
                title: itemTitle('channels', 'delivered'),
                align: 'right',
                render: count,
              },
              {
                key: 'failed',
                dataIndex: 'failed',
                title: itemTitle('channels', 'failed'),
                align: 'right',
                render: count,
              },
              {
                key: 'deliveryRate',
                dataIndex: 'deliveryRate',
                title: itemTitle('channels', 'deliveryRate'),
                align: 'right',
                render: pct,
              },
            ]}
          />
        </Panel>
      </Col>
      <Col xs={24}>
        <Panel
          title={schemas.get('entities/monitor-series').properties?.refusals?.title ?? ''}
          testId="panel-refusals"
          empty={!refusalTotal && `${range}没有被拒绝的提交`}
        >
          <Row gutter={16}>
            <Col xs={24} xl={14}>
              <Chart
                option={options.refusals}
                label={`${range}每分钟被拒绝的提交`}
                testId="refusals-chart"
                data={{ total: refusalTotal }}
              />
            </Col>
            <Col xs={24} xl={10}>
              <Table<Refusal>
                size="small"
                rowKey={(r) => `${r.protocol} ${r.code} ${r.reason}`}
                data-testid="refusal-table"
                pagination={
                  s.refusals.length > 8 ? { pageSize: 8, showSizeChanger: false, hideOnSinglePage: true } : false
                }
                dataSource={[...s.refusals].sort((a, b) => b.total - a.total)}
                columns={[
                  {
                    key: 'protocol',
                    dataIndex: 'protocol',
                    title: itemTitle('refusals', 'protocol'),
                    width: 110,
                    render: (v: string) => <EnumTag enumName="access-protocol" value={v} />,
                  },
                  { key: 'code', dataIndex: 'code', title: itemTitle('refusals', 'code'), width: 90 },
                  {
                    key: 'label',
                    dataIndex: 'label',
                    title: itemTitle('refusals', 'label'),
                    render: (v: string, r: Refusal) => (
                      <Tooltip title={r.reason}>
                        <span className="refusal-label">{v}</span>
                      </Tooltip>
                    ),
                  },
                  {
                    key: 'total',
                    dataIndex: 'total',
                    title: itemTitle('refusals', 'total'),
                    align: 'right',
                    width: 96,
                    render: count,
                  },
                ]}
              />
            </Col>
          </Row>
        </Panel>
      </Col>
    </Row>
  );
}

export default function Monitor() {
  const monitorScreen = useScreen();
  const [search, setSearch] = useSearchParams();
  const range: Range = search.get('range') === 'day' ? 'day' : 'hour';
  const { result, query } = useCustom<MonitorSeries>({
    url: MONITOR_URL,
    method: 'get',
    config: { query: { range } },
    meta: { silent: true },
    queryOptions: {
      queryKey: ['ops', 'monitor', range],
      refetchInterval: MONITOR_REFRESH_MS,
      refetchIntervalInBackground: true,
    },
  });
  const s = query.isSuccess ? result.data : undefined;
  const at = query.dataUpdatedAt
    ? new Date(query.dataUpdatedAt).toLocaleTimeString('zh-CN', { hour12: false })
    : undefined;
  const setRange = (r: Range) =>
    setSearch(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (r === 'hour') next.delete('range');
        else next.set('range', r);
        return next;
      },
      { replace: true },
    );

  return (
    <>
      <Card
        title={monitorScreen.label}
        extra={
          <Space wrap>
            <Typography.Text type="secondary" data-testid="monitor-updated">
              每分钟自动刷新{at ? `，更新于 ${at}` : ''}
            </Typography.Text>
            <Segmented<Range> options={RANGES} value={range} onChange={setRange} />
            <Button
              icon={<ReloadOutlined />}
              onClick={() => void query.refetch()}
              loading={query.isFetching && !query.isLoading}
            >
              刷新
            </Button>
          </Space>
        }
      >
        {query.isLoading && (
          <div data-testid="monitor-loading">
            <Skeleton active paragraph={{ rows: 2 }} />
          </div>
        )}
        {query.isError && (
          <Alert
            type="error"
            showIcon
            message={query.error?.message || '加载失败'}
            action={
              <Button size="small" onClick={() => void query.refetch()}>
                重试
              </Button>
            }
            data-testid="monitor-error"
          />
        )}
        {s && (
          <>
            <Typography.Paragraph type="secondary" data-testid="monitor-range">
              {rangeText(s.range)}：{s.minutes[0]} 至 {s.minutes[s.minutes.length - 1]}
              （北京时间，每分钟一个点，所有进程合计）
            </Typography.Paragraph>
            <Totals s={s} />
          </>
        )}
      </Card>
      {query.isLoading && (
        <Card style={{ marginTop: 16 }}>
          <Skeleton active paragraph={{ rows: 8 }} />
        </Card>
      )}
      {s && <BudgetsPanel b={s.budgets} />}
      {s && <Charts s={s} />}
    </>
  );
}
