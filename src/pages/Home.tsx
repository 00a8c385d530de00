/**
 * Home (index route), the dashboard: a welcome with the account's name and kind, the header
 * figures (balances, remaining pieces, expiring and gift pools), today's figures, the week chart
 * (echarts, loaded lazily with its card), an agent's overview of its sub-accounts (top consumers, low
 * balances, pools about to expire), the last 7 days' delivery analysis (success rate by carrier,
 * main failure reasons; the reports hold the full one), the API info of a sub-account, a card for each quick link
 * of the screen table (src/screens.tsx `home: true`) this account may open, and the latest notices.
 */
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { Card, Col, Descriptions, Row, Skeleton, Typography } from 'antd';
import { enumLabel } from '@/schema';
import { oauthStatusOf } from '@/domain/certification';
import { iconOf } from '@/layout/menuIcons';
import { accessUserOf, useCertification, useCurrentUser } from '@/layout/hooks';
import { quickLinksFor, useScreens } from '@/layout/screens';
import { LatestNotices } from '@/resources/notices/LatestNotices';
import { isAgent, isSubAccount } from '@/providers/access';
import { HeaderBalances } from './dashboard/HeaderBalances';
import { TodayStats } from './dashboard/TodayStats';
import { ApiInfo } from './dashboard/ApiInfo';
import { AgentOverview } from './dashboard/AgentOverview';

const WeekChart = lazy(() => import('./dashboard/WeekChart'));
const DeliveryAnalytics = lazy(() => import('@/custom-pages/reports/DeliveryAnalytics'));

export default function Home() {
  const { user, isLoading } = useCurrentUser();
  // the same source as the layout's certification banner (base info), so both always agree
  const { info: certification } = useCertification(user);
  const table = useScreens();
  if (isLoading || !user) return <Skeleton active />;
  const links = quickLinksFor(table, accessUserOf(user, certification));
  return (
    <>
      <Card>
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          欢迎您，{user.name || user.realname || user.clientid}
        </Typography.Title>
        <Descriptions column={{ xs: 1, sm: 2, lg: 4 }} size="small">
          <Descriptions.Item label="账户">{user.clientid}</Descriptions.Item>
          <Descriptions.Item label="用户类型">{enumLabel('user-type', user.userType)}</Descriptions.Item>
          <Descriptions.Item label="运营模式">{enumLabel('operation-mode', user.operation_mode)}</Descriptions.Item>
          <Descriptions.Item label="认证状态">
            {enumLabel('oauth-status', oauthStatusOf(certification?.oauth_status ?? user.oauth_status)) ?? '-'}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <HeaderBalances user={user} />
      {/* agents: top sub-accounts by consumption, low balances, pools about to expire (issue 27) */}
      {isAgent(user) && <AgentOverview />}
      <TodayStats />
      <Suspense fallback={<Skeleton active style={{ marginTop: 16 }} />}>
        <WeekChart />
      </Suspense>
      <Suspense fallback={<Skeleton active style={{ marginTop: 16 }} />}>
        <DeliveryAnalytics compact style={{ marginTop: 16 }} />
      </Suspense>
      {isSubAccount(user) && <ApiInfo />}
      {links.length > 0 && (
        <Row gutter={[16, 16]} style={{ marginTop: 16 }} data-testid="quick-links">
          {links.map((a) => (
            <Col key={a.key} xs={24} sm={12} lg={6}>
              <Link to={a.link!}>
                <Card hoverable>
                  <Card.Meta avatar={iconOf(a.icon)} title={a.label} />
                </Card>
              </Link>
            </Col>
          ))}
        </Row>
      )}
      <LatestNotices />
    </>
  );
}
