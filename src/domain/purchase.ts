/**
 * Purchase arithmetic of the console, exact (BigInt, no binary floats), the same rules as the
 * server (docs/api-purchase.md): a line costs round₂(num × unit_price × discount / 100), half up;
 * the order's total is the sum of its lines; when the total is more than 10 yuan the usable rebate
 * pays first (min(rebate, total)), the rest comes from the balance.
 */
import purchaseForm from '../../schemas/forms/purchase.json';
import { checkForm } from '@/components/SchemaForm/compiled';
import purchaseCompiled from '@/generated/forms/purchase';

export const PURCHASE_MESSAGES = purchaseForm['x-messages'];
export const REBATE_THRESHOLD_CENTS = 1000n;

/** '0.0450' with `scale` decimals -> 450n (scale 4) */
function scaled(v: string, scale: number): bigint {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(String(v).trim());
  if (!m) return 0n;
  const frac = (m[3] ?? '').padEnd(scale, '0').slice(0, scale);
  const n = BigInt(m[2] + frac);
  return m[1] ? -n : n;
}

/** ⌈num × unit × discount / 100⌉ in cents: a fraction of a cent is charged as a cent (the server's rule, docs/api-purchase.md) */
export function lineCents(num: number, unitPrice: string, discount: string): bigint {
  if (!Number.isSafeInteger(num) || num <= 0) return 0n;
  // unit ×1e4, discount ×1e2, /100 → units of 1e-8 yuan; cents = 1e-2 → divide by 1e6, rounded up
  const raw = BigInt(num) * scaled(unitPrice, 4) * scaled(discount, 2);
  return (raw + 999_999n) / 1_000_000n;
}

export const centsOf = (yuan: string) => scaled(yuan, 2);

/** 42750n -> '427.50' */
export function yuan(cents: bigint): string {
  const neg = cents < 0n;
  const a = neg ? -cents : cents;
  return `${neg ? '-' : ''}${a / 100n}.${String(a % 100n).padStart(2, '0')}`;
}

export interface PricedLine {
  productId: number;
  num: number;
  cents: bigint;
}

export function orderTotals(lines: PricedLine[], rebateUseable: string) {
  const total = lines.reduce((s, l) => s + l.cents, 0n);
  const usable = centsOf(rebateUseable);
  const rebate = total > REBATE_THRESHOLD_CENTS ? (usable < total ? usable : total) : 0n;
  return { total, rebate, paid: total - rebate };
}

/** The purchase form's message for a quantity (forms/purchase.json), or undefined when valid. */
export function quantityError(num: string | undefined): string | undefined {
  const r = checkForm(purchaseCompiled, { product_id: 1, num: num ?? '' });
  return r.ok ? undefined : (r.errors.find((e) => e.field === 'num')?.message ?? r.errors[0]?.message);
}
