/**
 * 今日预算 of 监控 (entities/monitor-series.json `budgets`, computed by the server when asked): the
 * credit alarms' SMS against ALARM_SMS_DAILY with the crossings skipped (as `npm run cli --
 * alarm-stats` shows them), and the verification codes against CODE_DAILY_GLOBAL, the
 * per-country caps and the per-number / per-address caps. Titles are the entity's.
 */
import { Card, Col, Descriptions, Progress, Row, Table, Typography } from 'antd';
import type { MonitorSeries } from '@/generated/schemas';
import { schemas } from '@/schema';

type Budgets = MonitorSeries['budgets'];
type Country = Budgets['codes']['countries'][number];

const node = (path: string[]) => {
  let p = schemas.get('entities/monitor-series') as { properties?: Record<string, unknown>; items?: unknown };
  for (const k of path) p = (k === '[]' ? p.items : p.properties?.[k]) as typeof p;
  return p as { title?: string; description?: string };
};
const title = (...path: string[]) => node(['budgets', ...path]).title ?? path[path.length - 1];
const count = (v: number) => v.toLocaleString('zh-CN');
/** used of cap as a bar: orange from 80 %, red at the cap */
const usage = (used: number, cap: number | null, testId?: string) =>
  cap === null ? (
    <Typography.Text type="secondary">不限</Typography.Text>
  ) : (
    <Progress
      data-testid={testId}
      percent={cap > 0 ? Math.min(100, Math.round((used / cap) * 1000) / 10) : 100}
      status={used >= cap ? 'exception' : 'normal'}
      strokeColor={used >= cap ? undefined : used >= cap * 0.8 ? '#fa8c16' : undefined}
      format={() => `${count(used)} / ${count(cap)}`}
    />
  );

export function BudgetsPanel({ b }: { b: Budgets }) {
  const a = b.alarms;
  const c = b.codes;
  return (
    <Row gutter={[16, 16]} style={{ marginTop: 16 }} data-testid="budgets">
      <Col xs={24} xl={12}>
        <Card
          size="small"
          title={`${title('alarms')}（${a.day}）`}
          data-testid="budget-alarms"
          styles={{ body: { minHeight: 220 } }}
        >
          <Typography.Text type="secondary">
            {title('alarms', 'sms')} / {title('alarms', 'budget')}
          </Typography.Text>
          {usage(a.sms, a.budget, 'alarm-usage')}
          <Descriptions size="small" column={{ xs: 1, sm: 2, xxl: 3 }} style={{ marginTop: 12 }}>
            {(['alarmsSent', 'left', 'skippedCooldown', 'skippedBudget', 'skippedNoPhone', 'pending'] as const).map(
              (k) => (
                <Descriptions.Item key={k} label={title('alarms', k)}>
                  <span data-testid={`alarm-${k}`}>{count(a[k])}</span>
                </Descriptions.Item>
              ),
            )}
          </Descriptions>
        </Card>
      </Col>
      <Col xs={24} xl={12}>
        <Card
          size="small"
          title={`${title('codes')}（${c.day}）`}
          data-testid="budget-codes"
          styles={{ body: { minHeight: 220 } }}
        >
          <Typography.Text type="secondary">
            {title('codes', 'sms')} / {title('codes', 'globalCap')}
          </Typography.Text>
          {usage(c.sms, c.globalCap, 'code-usage')}
          <Descriptions size="small" column={1} style={{ marginTop: 12 }}>
            <Descriptions.Item label={title('codes', 'mail')}>{count(c.mail)}</Descriptions.Item>
            <Descriptions.Item label={title('codes', 'perTargetCap')}>{count(c.perTargetCap)}</Descriptions.Item>
            <Descriptions.Item label={title('codes', 'targetsAtCap')}>
              <Typography.Text type={c.targetsAtCap ? 'warning' : undefined} data-testid="code-targetsAtCap">
                {count(c.targetsAtCap)}（{title('codes', 'maxPerTarget')} {count(c.maxPerTarget)}）
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={title('codes', 'perIpCap')}>{count(c.perIpCap)}</Descriptions.Item>
            <Descriptions.Item label={title('codes', 'ipsAtCap')}>
              <Typography.Text type={c.ipsAtCap ? 'warning' : undefined} data-testid="code-ipsAtCap">
                {count(c.ipsAtCap)}（{title('codes', 'maxPerIp')} {count(c.maxPerIp)}）
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
          {c.countries.length > 0 && (
            <Table<Country>
              size="small"
              rowKey="countryCode"
              data-testid="code-countries"
              pagination={
                c.countries.length > 5 ? { pageSize: 5, showSizeChanger: false, hideOnSinglePage: true } : false
              }
              dataSource={c.countries}
              columns={[
                {
                  key: 'countryCode',
                  dataIndex: 'countryCode',
                  title: title('codes', 'countries', '[]', 'countryCode'),
                  render: (v: string) => `+${v}`,
                },
                {
                  key: 'usage',
                  title: `${title('codes', 'countries', '[]', 'sms')} / ${title('codes', 'countries', '[]', 'cap')}`,
                  render: (_: unknown, r: Country) => usage(r.sms, r.cap),
                },
              ]}
            />
          )}
        </Card>
      </Col>
    </Row>
  );
}
