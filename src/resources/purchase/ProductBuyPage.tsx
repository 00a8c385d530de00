/**
 * 单个产品购买 (/sms/purchase/:id): the product (POST /sms/products with product_id), a quantity
 * (forms/purchase.json rules), 购买 → certification check → confirmation → POST /sms/order/add;
 * 返回 goes back.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, App, Button, Card, Form, Input, Space } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useNavigate, useParams } from 'react-router';
import type { Product } from '@/generated/schemas';
import { SchemaDescriptions } from '@/components/SchemaDescriptions/SchemaDescriptions';
import { useCertificationPrompt } from '@/custom-pages/account/CertificationPrompt';
import { lineError, packText, PURCHASE_MESSAGES } from '@/domain/purchase';
import { SEND_MESSAGES } from '@/domain/send';
import { MESSAGES } from '../../../common/schema/messages';
import { PurchaseConfirm } from './PurchaseConfirm';
import { PurchaseDone } from './PurchaseDone';
import { purchaseApi, type BillData, type PurchaseResult } from './api';
import { products } from './data';
import { useScreen } from '@/layout/screens';

const SUBMIT_LOCK_MS = 3000;

export function ProductBuyPage() {
  const purchaseTab = useScreen('service_purchase');
  const { id } = useParams();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const { requireCertified, prompt } = useCertificationPrompt();
  const [product, setProduct] = useState<Product | null>();
  const [summary, setSummary] = useState<BillData>();
  const [num, setNum] = useState('');
  const [error, setError] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [useRebate, setUseRebate] = useState(true);
  const [done, setDone] = useState<PurchaseResult>();
  const lastSubmit = useRef(0);

  const load = useCallback(() => {
    purchaseApi
      .billData()
      .then((b) => setSummary(b.data))
      .catch(() => undefined);
  }, []);
  useEffect(() => {
    const pid = Number(id);
    const valid = Number.isInteger(pid) && pid >= 1 && pid <= 2_147_483_647;
    (valid ? purchaseApi.product(pid) : Promise.resolve(undefined))
      .then((p) => setProduct(p ?? null))
      .catch(() => setProduct(null));
    load();
  }, [id, load]);

  const submit = () => {
    if (!product) return;
    const e = lineError(product, num);
    setError(e);
    if (e) {
      message.error(e);
      return;
    }
    requireCertified(() => {
      setUseRebate(true);
      setConfirming(true);
    });
  };

  const buy = async () => {
    if (!product) return;
    if (Date.now() - lastSubmit.current < SUBMIT_LOCK_MS) {
      message.warning(SEND_MESSAGES.submitLock);
      return;
    }
    lastSubmit.current = Date.now();
    setSubmitting(true);
    try {
      const r = await purchaseApi.buyOne(product.product_id, Number(num), useRebate);
      message.success(r.msg || MESSAGES.purchased);
      setDone(r.data);
      setConfirming(false);
      setNum('');
      load();
    } catch {
      /* toasted by the http layer */
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Card
      title={purchaseTab.label}
      loading={product === undefined}
      extra={
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(-1)}>
          返回
        </Button>
      }
    >
      {done && <PurchaseDone result={done} onClose={() => setDone(undefined)} />}
      {product === null && <Alert type="warning" showIcon message="产品不存在" />}
      {product && (
        <>
          <SchemaDescriptions
            entity={products.entity}
            record={product}
            fields={[
              'product_name',
              'product_code',
              'productTypeStr',
              'operatorCodeStr',
              'areaCodeStr',
              'unitPriceStr',
              'discountPriceStr',
              'dueTimeStr',
            ]}
          />
          <Form layout="inline" style={{ marginTop: 24 }} onFinish={submit}>
            <Form.Item label="购买数量" validateStatus={error ? 'error' : undefined} help={error}>
              <Space>
                <Input
                  maxLength={7}
                  inputMode="numeric"
                  placeholder={
                    product.pack_size ? PURCHASE_MESSAGES.packHint.replace('{size}', packText(product)) : '0-9999999'
                  }
                  aria-label="购买数量"
                  value={num}
                  onChange={(e) => {
                    setNum(e.target.value);
                    setError(lineError(product, e.target.value));
                  }}
                  style={{ width: 200 }}
                />
                <Button type="primary" htmlType="submit">
                  购买
                </Button>
              </Space>
            </Form.Item>
          </Form>
          <PurchaseConfirm
            open={confirming}
            lines={[{ product, num: Number(num) }]}
            rebateUseable={summary?.rebate_useable ?? '0'}
            balance={summary?.balance}
            submitting={submitting}
            useRebate={useRebate}
            onUseRebateChange={setUseRebate}
            onOk={buy}
            onCancel={() => setConfirming(false)}
          />
        </>
      )}
      {prompt}
    </Card>
  );
}

export default ProductBuyPage;
