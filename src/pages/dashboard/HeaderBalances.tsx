/**
 * The header figures of the home page (GET /index/data): agents their balance and credit, and in
 * package mode the remaining pieces per product type with the part about to expire; a sub-account
 * its balance only when paytype is 3 (by amount) and its stock only when paytype is 0, and its gift
 * pool. Each remaining figure opens /remain?type=<product type>.
 */
import { Link } from 'react-router';
import { Alert, Card, Col, Row, Statistic, Typography } from 'antd';
import { useCustom } from '@refinedev/core';
import { PayType, ProductType } from '@/generated/schemas';
import { enumLabel } from '@/schema';
import { billingNote, isAgent, isPackageMode } from '@/providers/access';
import type { CurrentUser } from '@/generated/schemas';
import { REMAIN_KEYS, type IndexData } from './api';
import { formatCount, formatMoney } from '@/components/Money/money';

export function HeaderBalances({ user }: { user: CurrentUser }) {
  const { result, query } = useCustom<IndexData>({ url: '/index/data', method: 'get', meta: { silent: true } });
  const d = result.data as IndexData | undefined;
  const agent = isAgent(user);
  const paytype = Number(d?.paytype ?? user.paytype);
  const showBalance = agent || paytype === PayType.PrepaidByAmount;
  const showStock = agent ? isPackageMode(user) : paytype === PayType.Prepaid;
  const gift = d?.smsGivePoolData;
  // a postpaid sub-account (billed through its agent) or a direct-charge account (per message) is told so, never an empty card
  const note = billingNote({ ...user, paytype });
  return (
    <Card title="账户概况" style={{ marginTop: 16 }} loading={query.isLoading} data-testid="header-balances">
      <Row gutter={[16, 16]}>
        {showBalance && (
          <Col xs={12} sm={8} lg={4} data-testid="balance">
            <Statistic title="账户余额（元）" value={d?.agent_account_data?.balance ?? '0.00'} />
          </Col>
        )}
        {agent && (
          <Col xs={12} sm={8} lg={4}>
            <Statistic title="可用额度（元）" value={d?.agent_account_data?.available_line ?? '0.00'} />
          </Col>
        )}
        {showStock &&
          REMAIN_KEYS.map(({ key, productType }) => {
            const due = d?.agent_pool_due_time_data?.[key] ?? 0;
            // international pools hold yuan (gj_remain_amount), the others pieces
            const unit = productType === ProductType.International ? '元' : '条';
            return (
              <Col key={key} xs={12} sm={8} lg={4} data-testid={`remain-${key}`}>
                <Link to={`/remain?type=${productType}`}>
                  <Statistic
                    title={`${enumLabel('product-type', productType)}剩余（${unit}）`}
                    value={d?.data?.[key] ?? 0}
                    precision={productType === ProductType.International ? 2 : undefined}
                  />
                </Link>
                {due > 0 && (
                  <Typography.Text type="warning" style={{ fontSize: 12 }}>
                    {unit === '元' ? formatMoney(due) : formatCount(due)} {unit}即将过期
                  </Typography.Text>
                )}
              </Col>
            );
          })}
      </Row>
      {note && (
        <Alert
          style={{ marginTop: showBalance || showStock ? 16 : 0 }}
          type="info"
          showIcon
          data-testid="billing-note"
          message={note}
        />
      )}
      {!agent && gift?.isShow === 1 && (
        <Alert
          style={{ marginTop: 16 }}
          type="info"
          showIcon
          data-testid="gift-pool"
          message={`赠送短信：${(gift.list?.length ? gift.list : [gift]).map((g) => `${g.smstypeStr} 剩余 ${formatCount(g.remainNumber)} 条，${g.dueTime.slice(0, 10)} 到期`).join('；')}`}
        />
      )}
    </Card>
  );
}

export default HeaderBalances;
