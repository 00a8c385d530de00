/**
 * What follows a purchase: the order number, what was paid, and the way on — the pools the pieces
 * went to (剩余条数), the SMS bill, or another purchase.
 */
import { Alert, Button, Space } from 'antd';
import { useNavigate } from 'react-router';
import { Money } from '@/components/Money/Money';
import type { PurchaseResult } from './api';
import { useScreen } from '@/layout/screens';

export function PurchaseDone({ result, onClose }: { result: PurchaseResult; onClose?: () => void }) {
  const smsBillScreen = useScreen('finance_bill');
  const poolScreen = useScreen('purchase_pools');
  const navigate = useNavigate();
  return (
    <Alert
      type="success"
      showIcon
      closable={!!onClose}
      onClose={onClose}
      style={{ marginBottom: 16 }}
      data-testid="purchase-done"
      message={
        <span>
          购买成功，订单号 {result.orderId}：订单总额 <Money value={result.total} />
          {Number(result.rebate) > 0 && (
            <>
              ，返点抵扣 <Money value={result.rebate} />
            </>
          )}
          ，余额支付 <Money value={result.paid} />
          ，当前余额 <Money value={result.balance} />。
        </span>
      }
      description={
        <Space wrap>
          短信已加入产品池：
          <Button size="small" type="primary" onClick={() => navigate(poolScreen.link ?? poolScreen.path)}>
            查看{poolScreen.label}
          </Button>
          <Button size="small" onClick={() => navigate(smsBillScreen.path)}>
            查看{smsBillScreen.label}
          </Button>
        </Space>
      }
    />
  );
}
