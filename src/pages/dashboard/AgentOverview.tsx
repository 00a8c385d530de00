/**
 * The agent's overview on the home page (GET /index/agentOverview, docs/api-reports.md "Agent
 * overview"): the sub-accounts that consumed most over the last 30 days, those low on balance (below
 * their 余额提醒, or 10 元 when none is set) and their pools about to expire, each with the way to
 * recharge or renew (客户财务). Agents only.
 */
import { Link } from 'react-router';
import { Alert, Button, Card, Col, Empty, List, Row, Space, Tag, Typography } from 'antd';
import { useCustom } from '@refinedev/core';
import type { AgentOverview as Overview } from '@/generated/schemas';
import { enumLabel } from '@/schema';
import { ProductType } from '@/generated/schemas';

/** where an agent recharges a sub-account or adds to its pools */
export const FINANCE_PATH = '/customer/finance';
const managerPath = (clientid: string) => `/customer/manager/${encodeURIComponent(clientid)}/info`;

const fmt = (n: number) => n.toLocaleString('zh-CN');

function Who({ clientid, name }: { clientid: string; name: string }) {
  return (
    <Space size={4} style={{ minWidth: 0 }}>
      <Link to={managerPath(clientid)}>{clientid}</Link>
      <Typography.Text type="secondary" ellipsis={{ tooltip: name }} style={{ maxWidth: 160 }}>
        {name}
      </Typography.Text>
    </Space>
  );
}

export function AgentOverviewView({
  data: raw,
  loading,
  error,
}: {
  data?: Partial<Overview>;
  loading?: boolean;
  error?: string;
}) {
  // before the answer (or a partial one) the lists are empty, never undefined
  const data = raw?.topConsumers
    ? ({
        ...raw,
        topConsumers: raw.topConsumers,
        lowBalance: raw.lowBalance ?? [],
        expiringPools: raw.expiringPools ?? [],
      } as Overview)
    : undefined;
  const card = { size: 'small' as const, loading, style: { height: '100%' } };
  if (error)
    return (
      <Alert
        style={{ marginTop: 16 }}
        type="error"
        showIcon
        message="子账户概览加载失败"
        description={error}
        data-testid="agent-overview-error"
      />
    );
  return (
    <Row gutter={[16, 16]} style={{ marginTop: 16 }} data-testid="agent-overview">
      <Col xs={24} md={12} xl={8}>
        <Card {...card} title={`消费排行（近${data?.days ?? 30}天）`} data-testid="top-consumers">
          {data && data.topConsumers.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="近期没有子账户消费" />
          ) : (
            <List
              size="small"
              dataSource={data?.topConsumers ?? []}
              renderItem={(r, i) => (
                <List.Item
                  extra={
                    <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>
                      {fmt(r.chargeNum)} 条
                    </Typography.Text>
                  }
                >
                  <Space size={8} style={{ minWidth: 0, flex: 1, overflow: 'hidden' }}>
                    <Tag color={i < 3 ? 'blue' : 'default'} style={{ marginInlineEnd: 0 }}>
                      {i + 1}
                    </Tag>
                    <Who clientid={r.clientid} name={r.name} />
                  </Space>
                </List.Item>
              )}
            />
          )}
        </Card>
      </Col>
      <Col xs={24} md={12} xl={8}>
        <Card
          {...card}
          title="余额不足的子账户"
          extra={<Link to={FINANCE_PATH}>客户财务</Link>}
          data-testid="low-balance"
        >
          {data && data.lowBalance.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有余额不足的子账户" />
          ) : (
            <List
              size="small"
              dataSource={data?.lowBalance ?? []}
              renderItem={(r) => (
                <List.Item
                  actions={[
                    <Link key="recharge" to={FINANCE_PATH}>
                      <Button size="small" type="link" style={{ padding: 0 }}>
                        去充值
                      </Button>
                    </Link>,
                  ]}
                >
                  <Space direction="vertical" size={0} style={{ minWidth: 0 }}>
                    <Who clientid={r.clientid} name={r.name} />
                    <Typography.Text type="danger" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
                      余额 {r.balance} 元（提醒线 {r.threshold} 元）
                    </Typography.Text>
                  </Space>
                </List.Item>
              )}
            />
          )}
        </Card>
      </Col>
      <Col xs={24} md={12} xl={8}>
        <Card
          {...card}
          title={`即将过期的产品（${data?.expiringDays ?? 7}天内）`}
          extra={<Link to={FINANCE_PATH}>客户财务</Link>}
          data-testid="expiring-pools"
        >
          {data && data.expiringPools.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有即将过期的产品" />
          ) : (
            <List
              size="small"
              dataSource={data?.expiringPools ?? []}
              renderItem={(r) => {
                const unit = r.productType === ProductType.International ? '元' : '条';
                return (
                  <List.Item
                    actions={[
                      <Link key="renew" to={FINANCE_PATH}>
                        <Button size="small" type="link" style={{ padding: 0 }}>
                          续费充值
                        </Button>
                      </Link>,
                    ]}
                  >
                    <Space direction="vertical" size={0} style={{ minWidth: 0, flex: 1 }}>
                      <Who clientid={r.clientid} name={r.name} />
                      <Typography.Text type="warning" style={{ fontSize: 12 }}>
                        {enumLabel('product-type', r.productType)} {fmt(r.remaining)} {unit}，{r.dueTime.slice(0, 10)}{' '}
                        到期
                      </Typography.Text>
                    </Space>
                  </List.Item>
                );
              }}
            />
          )}
        </Card>
      </Col>
    </Row>
  );
}

export function AgentOverview() {
  const { result, query } = useCustom<Overview>({ url: '/index/agentOverview', method: 'get', meta: { silent: true } });
  const error = query.isError ? ((query.error as { message?: string } | null)?.message ?? '请稍后重试') : undefined;
  return <AgentOverviewView data={result.data} loading={query.isLoading} error={error} />;
}

export default AgentOverview;
