/** 今日数据 (GET /index/dataoftoday): today's messages by outcome; labels from entities/today-stats. */
import { Card, Col, Row, Statistic } from 'antd';
import { useCustom } from '@refinedev/core';
import { schemas } from '@/schema';
import type { TodayStats as Stats } from './api';

const FIELDS: (keyof Stats)[] = ['submitTotal', 'sending', 'sendSuccess', 'sendFail', 'unknown', 'intercept'];

export function TodayStats() {
  const { result, query } = useCustom<Stats>({ url: '/index/dataoftoday', method: 'get', meta: { silent: true } });
  const data = result.data as Stats | undefined;
  return (
    <Card title="今日数据" style={{ marginTop: 16 }} loading={query.isLoading} data-testid="today-stats">
      <Row gutter={[16, 16]}>
        {FIELDS.map((f) => (
          <Col key={f} xs={12} sm={8} lg={4} data-testid={`today-${f}`}>
            <Statistic
              title={schemas.field('entities/today-stats', f)?.title ?? f}
              value={data?.[f] ?? 0}
              suffix="条"
            />
          </Col>
        ))}
      </Row>
    </Card>
  );
}

export default TodayStats;
