/**
 * 工作台 (/ops): a welcome with the operator's name, role and last login, a card per review list
 * with its pending count (GET /operator/review/counts: the menu's badges), and the other screens
 * this role may open (the table's `home: true` screens, as the accounts' home lists its quick links).
 */
import { Link } from 'react-router';
import { Card, Col, Descriptions, Row, Skeleton, Statistic, Typography } from 'antd';
import { RightOutlined } from '@ant-design/icons';
import { useGetIdentity } from '@refinedev/core';
import type { ReviewCounts } from '@/generated/schemas';
import { EnumTag } from '@/components/EnumTag/EnumTag';
import { iconOf } from '@/layout/menuIcons';
import { quickLinksFor, useScreens } from '@/layout/screens';
import { schemas } from '@/schema';
import type { OperatorIdentity } from '@/ops/authProvider';
import { useReviewCounts } from '@/ops/review/counts';

export default function OpsHome() {
  const { data: operator, isLoading } = useGetIdentity<OperatorIdentity | null>();
  const table = useScreens();
  const { counts } = useReviewCounts(!!operator);
  if (isLoading || !operator) return <Skeleton active />;
  const links = quickLinksFor(table, operator);
  const reviews = links.filter((l) => l.badge);
  const others = links.filter((l) => !l.badge);
  const field = (name: string) => schemas.field('entities/operator', name)?.title;
  return (
    <>
      <Card>
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          欢迎您，{operator.name}
        </Typography.Title>
        <Descriptions column={{ xs: 1, sm: 2, lg: 3 }} size="small">
          <Descriptions.Item label={field('role')}>
            <EnumTag enumName="operator-role" value={operator.role} />
          </Descriptions.Item>
          <Descriptions.Item label={field('totpEnabled')}>
            {operator.totpEnabled ? '已开启' : '未开启'}
          </Descriptions.Item>
          <Descriptions.Item label={field('lastLoginAt')}>{operator.lastLoginAt || '-'}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Typography.Title level={5} style={{ margin: '24px 0 12px' }}>
        待审核
      </Typography.Title>
      <Row gutter={[16, 16]} data-testid="review-counts">
        {reviews.map((l) => {
          const n = counts?.[l.badge as keyof ReviewCounts];
          return (
            <Col key={l.key} xs={24} sm={12} xl={6}>
              <Link to={l.link!}>
                <Card hoverable>
                  <Statistic
                    title={
                      <span>
                        {iconOf(l.icon)} {l.label}
                      </span>
                    }
                    value={n ?? '-'}
                    suffix={n === undefined ? undefined : '条'}
                    valueStyle={{ color: n ? '#d48806' : undefined }}
                  />
                  <Typography.Text type="secondary">
                    {n ? '去审核' : '暂无待审核'} <RightOutlined style={{ fontSize: 10 }} />
                  </Typography.Text>
                </Card>
              </Link>
            </Col>
          );
        })}
      </Row>
      {others.length > 0 && (
        <Row gutter={[16, 16]} style={{ marginTop: 16 }} data-testid="quick-links">
          {others.map((l) => (
            <Col key={l.key} xs={24} sm={12} xl={6}>
              <Link to={l.link!}>
                <Card hoverable>
                  <Card.Meta avatar={iconOf(l.icon)} title={l.label} />
                </Card>
              </Link>
            </Col>
          ))}
        </Row>
      )}
    </>
  );
}
