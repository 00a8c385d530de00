/**
 * The sandbox provider's pay page: what a payer's phone opens from the QR code. Plain HTML (no
 * script: the CSP allows none inline), a form with 确认支付 / 取消 posting to /api/onlinePay/sandbox/pay.
 */
import { money2 } from '../../lib/money';
import { formatDateTime } from '../../lib/time';
import { PayOrderState } from '../../../common/generated/schemas';
import { MESSAGES } from '../../../common/schema/messages';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

interface PageOrder {
  payment_id: string;
  amount: string;
  payment_mode: number;
  state: number;
  expires_at: Date;
}

export function sandboxPage(p: {
  order: PageOrder | null;
  token: string;
  now: Date;
  label: (enumName: string, v: unknown) => string;
  result?: { ok: boolean; message: string };
}): string {
  const o = p.order;
  let body: string;
  if (!o) {
    body = `<p class="msg err" data-testid="sandbox-result">支付订单不存在</p>`;
  } else {
    const open = (o.state === PayOrderState.Unpaid || o.state === PayOrderState.Submitted) && o.expires_at > p.now;
    const rows = [
      ['支付订单号', o.payment_id],
      ['支付方式', `${p.label('payment-mode', o.payment_mode)}（沙箱）`],
      ['支付金额', `¥ ${money2(o.amount)}`],
      ['订单状态', p.label('pay-order-state', o.state)],
      ['失效时间', formatDateTime(o.expires_at)],
    ]
      .map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`)
      .join('');
    const result = p.result
      ? `<p class="msg ${p.result.ok ? 'ok' : 'err'}" data-testid="sandbox-result">${esc(p.result.message)}</p>`
      : '';
    const form = open
      ? `<form method="post" action="/api/onlinePay/sandbox/pay">
  <input type="hidden" name="paymentId" value="${esc(o.payment_id)}">
  <input type="hidden" name="token" value="${esc(p.token)}">
  <button type="submit" name="action" value="confirm" class="primary">确认支付</button>
  <button type="submit" name="action" value="cancel">取消</button>
</form>`
      : !p.result
        ? `<p class="msg err" data-testid="sandbox-result">${o.state === PayOrderState.Paid || o.state === PayOrderState.PaidAlt ? MESSAGES.payOrderPaid : MESSAGES.payOrderClosed}</p>`
        : '';
    body = `<table>${rows}</table>${result}${form}`;
  }
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>沙箱支付</title>
<style>
body{font-family:system-ui,"Noto Sans CJK SC",sans-serif;background:#f5f5f5;margin:0;padding:24px;color:#222}
main{max-width:420px;margin:0 auto;background:#fff;border-radius:8px;padding:24px;box-shadow:0 1px 4px rgba(0,0,0,.1)}
h1{font-size:20px;margin:0 0 4px}.hint{color:#888;font-size:13px;margin:0 0 16px}
table{width:100%;border-collapse:collapse;margin-bottom:16px}th,td{text-align:left;padding:6px 0;border-bottom:1px solid #eee;font-weight:normal}th{color:#888;width:96px}
button{font-size:16px;padding:8px 20px;border-radius:6px;border:1px solid #d9d9d9;background:#fff;margin-right:12px;cursor:pointer}
button.primary{background:#1677ff;border-color:#1677ff;color:#fff}
.msg{font-size:16px;padding:8px 12px;border-radius:6px}.ok{background:#f6ffed;color:#389e0d}.err{background:#fff2f0;color:#cf1322}
</style></head>
<body><main><h1>沙箱支付</h1><p class="hint">测试环境的模拟支付页，不会产生真实扣款。</p>${body}</main></body></html>`;
}
