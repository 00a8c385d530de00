/**
 * The order confirmation of a purchase: per line the list price, the discount, the discounted
 * price, the quantity and the amount; then the list-price total, what the discount saves, the
 * order total, the usable rebate as the buyer's choice (offered when the total is more than
 * 10 yuan; checked by default) and what the balance pays.
 */
import { Checkbox, Descriptions, Modal, Table, Typography } from 'antd';
import type { Product } from '@/generated/schemas';
import { Money } from '@/components/Money/Money';
import { exactDiscountPrice, grouped, lineCents, orderTotals, rebateApplies, yuan } from '@/domain/purchase';

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
  /** pay with the usable rebate first (the buyer's choice) */
  useRebate: boolean;
  onUseRebateChange: (use: boolean) => void;
  onOk: () => void;
  onCancel: () => void;
}

export function PurchaseConfirm({
  open,
  lines,
  rebateUseable,
  balance,
  submitting,
  useRebate,
  onUseRebateChange,
  onOk,
  onCancel,
}: PurchaseConfirmProps) {
  const priced = lines.map((l) => ({
    ...l,
    productId: l.product.product_id,
    cents: lineCents(l.num, l.product.unit_price, l.product.discount ?? '100'),
    listCents: lineCents(l.num, l.product.unit_price, '100'),
  }));
  const t = orderTotals(priced, rebateUseable, useRebate);
  const listTotal = priced.reduce((s, l) => s + l.listCents, 0n);
  const offered = rebateApplies(t.total, rebateUseable);
  return (
    <Modal
      open={open}
      title="确认订单"
      okText="确认购买"
      cancelText="取消"
      onOk={onOk}
      onCancel={onCancel}
      confirmLoading={submitting}
      width={820}
      destroyOnHidden
      data-testid="purchase-confirm"
    >
      <Table<(typeof priced)[number]>
        rowKey={(r) => r.productId}
        size="small"
        pagination={false}
        dataSource={priced}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: '产品名称', dataIndex: ['product', 'product_name'] },
          {
            title: '单价（元）',
            dataIndex: ['product', 'unitPriceStr'],
            align: 'right',
            render: (v: string, r) => (
              <span data-testid={`confirm-list-price-${r.productId}`}>{v ?? r.product.unit_price}</span>
            ),
          },
          {
            title: '折扣',
            dataIndex: ['product', 'discount'],
            align: 'right',
            render: (v?: string) => (v && Number(v) < 100 ? `${v}%` : '无'),
          },
          {
            // the price the amount is computed with (not the 4-decimal discountPriceStr): price × quantity = amount
            title: '折后单价（元）',
            key: 'discountPrice',
            align: 'right',
            render: (_: unknown, r) => (
              <span data-testid={`confirm-price-${r.productId}`}>
                {exactDiscountPrice(r.product.unit_price, r.product.discount ?? '100')}
              </span>
            ),
          },
          {
            title: '购买数量',
            dataIndex: 'num',
            align: 'right',
            render: (n: number) => <span style={{ whiteSpace: 'nowrap' }}>{grouped(n)}</span>,
          },
          {
            title: '金额（元）',
            dataIndex: 'cents',
            align: 'right',
            render: (c: bigint) => <Money value={yuan(c)} unit="" />,
          },
        ]}
      />
      <Descriptions size="small" column={1} style={{ marginTop: 16 }} bordered>
        {listTotal !== t.total && (
          <Descriptions.Item label="原价合计">
            <span data-testid="order-list-total">
              <Money value={yuan(listTotal)} />
            </span>
            <Typography.Text type="secondary" style={{ marginLeft: 12 }} data-testid="order-discount">
              折扣优惠 <Money value={yuan(t.total - listTotal)} />
            </Typography.Text>
          </Descriptions.Item>
        )}
        <Descriptions.Item label="订单总额">
          <span data-testid="order-total">
            <Money value={yuan(t.total)} />
          </span>
        </Descriptions.Item>
        <Descriptions.Item label="返点抵扣">
          {offered ? (
            <Checkbox
              checked={useRebate}
              onChange={(e) => onUseRebateChange(e.target.checked)}
              data-testid="use-rebate"
            >
              使用返点抵扣（可用返点 <Money value={rebateUseable} />）
              {t.rebate > 0n && (
                <span data-testid="order-rebate" style={{ marginLeft: 8 }}>
                  <Money value={yuan(-t.rebate)} signed />
                </span>
              )}
            </Checkbox>
          ) : (
            <Typography.Text type="secondary" data-testid="rebate-not-offered">
              {Number(rebateUseable) > 0
                ? `订单总额超过 10 元时可使用返点抵扣（可用返点 ${rebateUseable} 元）`
                : '无可用返点'}
            </Typography.Text>
          )}
        </Descriptions.Item>
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
    </Modal>
  );
}
