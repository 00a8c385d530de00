/**
 * The order confirmation of a purchase: the lines with their discounted prices, the total, the
 * usable rebate deducted when the total is more than 10 yuan, and what the balance pays.
 */
import { Descriptions, Modal, Table, Typography } from 'antd';
import type { Product } from '@/generated/schemas';
import { Money } from '@/components/Money/Money';
import { lineCents, orderTotals, yuan } from '@/domain/purchase';

export interface ConfirmLine {
  product: Product;
  num: number;
}

export interface PurchaseConfirmProps {
  open: boolean;
  lines: ConfirmLine[];
  rebateUseable: string;
  balance?: string;
  submitting?: boolean;
  onOk: () => void;
  onCancel: () => void;
}

export function PurchaseConfirm({ open, lines, rebateUseable, balance, submitting, onOk, onCancel }: PurchaseConfirmProps) {
  const priced = lines.map((l) => ({ ...l, productId: l.product.product_id, cents: lineCents(l.num, l.product.unit_price, l.product.discount ?? '100') }));
  const t = orderTotals(priced, rebateUseable);
  return (
    <Modal open={open} title="确认订单" okText="确认购买" cancelText="取消" onOk={onOk} onCancel={onCancel} confirmLoading={submitting} width={720} destroyOnHidden data-testid="purchase-confirm">
      <Table
        rowKey={(r) => r.productId}
        size="small"
        pagination={false}
        dataSource={priced}
        columns={[
          { title: '产品名称', dataIndex: ['product', 'product_name'] },
          { title: '产品类型', dataIndex: ['product', 'productTypeStr'] },
          { title: '折后单价（元）', dataIndex: ['product', 'discountPriceStr'], align: 'right' },
          { title: '购买数量', dataIndex: 'num', align: 'right' },
          { title: '金额（元）', dataIndex: 'cents', align: 'right', render: (c: bigint) => yuan(c) },
        ]}
      />
      <Descriptions size="small" column={1} style={{ marginTop: 16 }} bordered>
        <Descriptions.Item label="订单总额">
          <span data-testid="order-total">
            <Money value={yuan(t.total)} />
          </span>
        </Descriptions.Item>
        {t.rebate > 0n && (
          <Descriptions.Item label="返点抵扣">
            <span data-testid="order-rebate">
              <Money value={yuan(-t.rebate)} signed />
            </span>
          </Descriptions.Item>
        )}
        <Descriptions.Item label="余额支付">
          <Typography.Text strong data-testid="order-paid">
            <Money value={yuan(t.paid)} />
          </Typography.Text>
        </Descriptions.Item>
        {balance !== undefined && (
          <Descriptions.Item label="当前余额">
            <Money value={balance} />
          </Descriptions.Item>
        )}
      </Descriptions>
      {t.rebate === 0n && Number(rebateUseable) > 0 && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          订单总额超过 10 元时可使用返点抵扣（可用返点 {rebateUseable} 元）。
        </Typography.Paragraph>
      )}
    </Modal>
  );
}
