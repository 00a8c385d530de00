/**
 * 购买短信 (/sms/smspurchaselayout/purchase, route service_purchase; POST /sms/products): filters
 * of filters/product.json (product type, carrier, name or code), the catalogue with the account's
 * discounted prices, row selection with a quantity per row (forms/purchase.json rules; a package
 * product a whole number of packages) — typing a quantity selects its row, clearing it unselects —
 * 提交订单 → certification check (请先认证后再购买短信 / the certification prompt) → confirmation
 * with list prices, discount, the rebate as a choice and the total → POST /sms/order/jsmsAdd → the
 * order with links onward (剩余条数, 短信账单).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { App, Button, Card, Input, Space, Statistic, Typography } from 'antd';
import { ShoppingCartOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import type { Product } from '@/generated/schemas';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { Money } from '@/components/Money/Money';
import { useCertificationPrompt } from '@/custom-pages/account/CertificationPrompt';
import { lineCents, lineError, packText, PURCHASE_MESSAGES, yuan } from '@/domain/purchase';
import { MESSAGES } from '../../../common/schema/messages';
import { SEND_MESSAGES } from '@/domain/send';
import { PurchaseConfirm } from './PurchaseConfirm';
import { PurchaseDone } from './PurchaseDone';
import { purchaseApi, type BillData, type PurchaseResult } from './api';
import { products } from './data';
import { useScreen, useScreenPath } from '@/layout/screens';

/** a second submit within 3 s is refused (spec §9) */
const SUBMIT_LOCK_MS = 3000;

export function PurchasePage() {
  const purchaseTab = useScreen();
  // a product's buy page
  const buyPath = useScreenPath('sms_purchase');
  const { message } = App.useApp();
  const { tableProps, searchFormProps } = useSchemaList<Product>(products);
  const { requireCertified, prompt } = useCertificationPrompt();
  const [summary, setSummary] = useState<BillData>();
  const [selected, setSelected] = useState<Record<number, Product>>({});
  const [qty, setQty] = useState<Record<number, string>>({});
  const [errors, setErrors] = useState<Record<number, string | undefined>>({});
  const [confirming, setConfirming] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [useRebate, setUseRebate] = useState(true);
  const [done, setDone] = useState<PurchaseResult>();
  const lastSubmit = useRef(0);

  const loadSummary = useCallback(() => {
    purchaseApi
      .billData()
      .then((b) => setSummary(b.data))
      .catch(() => undefined);
  }, []);
  useEffect(loadSummary, [loadSummary]);

  /** a typed quantity selects its row (a cleared one unselects it): what the user types is what is ordered */
  const setQuantity = (p: Product, v: string) => {
    const id = p.product_id;
    setQty((q) => ({ ...q, [id]: v }));
    setErrors((e) => ({ ...e, [id]: v ? lineError(p, v) : undefined }));
    setSelected((prev) => {
      if (v && !prev[id]) return { ...prev, [id]: p };
      if (!v && prev[id]) {
        const { [id]: _gone, ...rest } = prev;
        return rest;
      }
      return prev;
    });
  };

  const lines = Object.values(selected).map((p) => ({ product: p, num: Number(qty[p.product_id] ?? '') }));

  const submit = () => {
    if (!lines.length) {
      message.error(PURCHASE_MESSAGES.noSelection);
      return;
    }
    const found = Object.fromEntries(
      lines.map((l) => [l.product.product_id, lineError(l.product, qty[l.product.product_id])]),
    );
    setErrors((e) => ({ ...e, ...found }));
    const first = Object.values(found).find(Boolean);
    if (first) {
      message.error(first);
      return;
    }
    requireCertified(() => {
      setUseRebate(true);
      setConfirming(true);
    });
  };

  const buy = async () => {
    if (Date.now() - lastSubmit.current < SUBMIT_LOCK_MS) {
      message.warning(SEND_MESSAGES.submitLock);
      return;
    }
    lastSubmit.current = Date.now();
    setSubmitting(true);
    try {
      const r = await purchaseApi.buyMany(
        lines.map((l) => ({ productId: l.product.product_id, purchaseNum: l.num })),
        useRebate,
      );
      message.success(r.msg || MESSAGES.purchased);
      setDone(r.data);
      setConfirming(false);
      setSelected({});
      setQty({});
      setErrors({});
      loadSummary();
    } catch {
      /* the error toast is shown by the http layer */
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Card title={purchaseTab.label}>
      {done && <PurchaseDone result={done} onClose={() => setDone(undefined)} />}
      <Space size={48} style={{ marginBottom: 16 }} data-testid="purchase-summary">
        <Statistic title="账户余额" valueRender={() => <Money value={summary?.balance} />} />
        <Statistic title="可用返点" valueRender={() => <Money value={summary?.rebate_useable} />} />
      </Space>
      <SchemaFilterBar
        filter={products.filter}
        agent
        formProps={searchFormProps}
        extra={
          <Button type="primary" icon={<ShoppingCartOutlined />} onClick={submit} data-testid="submit-order">
            提交订单
          </Button>
        }
      />
      <SchemaTable<Product>
        {...tableProps}
        rowKey="product_id"
        entity={products.entity}
        rowSelection={{
          selectedRowKeys: Object.keys(selected).map(Number),
          preserveSelectedRowKeys: true,
          onChange: (_keys, rows) =>
            setSelected((prev) => {
              const next: Record<number, Product> = {};
              for (const r of rows) if (r) next[r.product_id] = r;
              // rows of other pages stay selected (antd hands only the rows it knows)
              for (const k of _keys.map(Number)) if (!next[k] && prev[k]) next[k] = prev[k];
              return next;
            }),
        }}
        columns={[
          {
            field: 'product_name',
            render: (v: string, r: Product) => <Link to={buyPath.replace(':id', String(r.product_id))}>{v}</Link>,
          },
          'product_code',
          'productTypeStr',
          'operatorCodeStr',
          'areaCodeStr',
          { field: 'unitPriceStr', align: 'right' },
          { field: 'discountPriceStr', align: 'right' },
          'dueTimeStr',
          {
            field: 'purchaseNum',
            width: 200,
            render: (_: unknown, r: Product) => (
              <div>
                <Input
                  size="small"
                  maxLength={7}
                  inputMode="numeric"
                  placeholder={r.pack_size ? PURCHASE_MESSAGES.packHint.replace('{size}', packText(r)) : '0-9999999'}
                  aria-label={`${r.product_name} 购买数量`}
                  value={qty[r.product_id] ?? ''}
                  status={errors[r.product_id] ? 'error' : undefined}
                  onChange={(e) => setQuantity(r, e.target.value)}
                />
                {errors[r.product_id] && (
                  <Typography.Text type="danger" style={{ fontSize: 12 }}>
                    {errors[r.product_id]}
                  </Typography.Text>
                )}
              </div>
            ),
          },
          {
            field: 'price',
            align: 'right',
            render: (_: unknown, r: Product) => {
              const v = qty[r.product_id];
              return v && !lineError(r, v) ? yuan(lineCents(Number(v), r.unit_price, r.discount ?? '100')) : '-';
            },
          },
        ]}
        locale={{ emptyText: '暂无数据' }}
      />
      <PurchaseConfirm
        open={confirming}
        lines={lines}
        rebateUseable={summary?.rebate_useable ?? '0'}
        balance={summary?.balance}
        submitting={submitting}
        useRebate={useRebate}
        onUseRebateChange={setUseRebate}
        onOk={buy}
        onCancel={() => setConfirming(false)}
      />
      {prompt}
    </Card>
  );
}

export default PurchasePage;
