/**
 * Purchase arithmetic of the console, exact (BigInt, no binary floats), the same rules as the
 * server (docs/api-purchase.md): a line costs round₂(num × unit_price × discount / 100), half up;
 * the order's total is the sum of its lines; when the total is more than 10 yuan the usable rebate
 * pays first (min(rebate, total)), the rest comes from the balance.
 */
import purchaseForm from '../../schemas/forms/purchase.json';
import { checkForm } from '@/components/SchemaForm/compiled';
import purchaseCompiled from '@/generated/forms/purchase';
import { ProductType } from '@/generated/schemas';
import { formatCount } from '@/components/Money/money';

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

/**
 * The discounted unit price exactly as lineCents computes with it (unit × discount / 100, up to 8
 * decimals, at least 4 shown): 0.0450 at 95 % is 0.04275, so 0.04275 × 20,000 = 855.00 reads right
 * (the 4-decimal 0.0428 would make the buyer expect 856.00).
 */
export function exactDiscountPrice(unitPrice: string, discount: string): string {
  const units = scaled(unitPrice, 4) * scaled(discount, 2); // 1e-8 yuan
  const neg = units < 0n;
  const a = neg ? -units : units;
  const frac = String(a % 100_000_000n)
    .padStart(8, '0')
    .replace(/0+$/, '')
    .padEnd(4, '0');
  return `${neg ? '-' : ''}${a / 100_000_000n}.${frac}`;
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

/** Can the usable rebate pay part of this total (more than 10 yuan, some rebate usable)? */
export const rebateApplies = (total: bigint, rebateUseable: string) =>
  total > REBATE_THRESHOLD_CENTS && centsOf(rebateUseable) > 0n;

/** The order's total, the rebate it uses (only when `useRebate`, the buyer's choice) and what the balance pays. */
export function orderTotals(lines: PricedLine[], rebateUseable: string, useRebate = true) {
  const total = lines.reduce((s, l) => s + l.cents, 0n);
  const usable = centsOf(rebateUseable);
  const rebate = useRebate && rebateApplies(total, rebateUseable) ? (usable < total ? usable : total) : 0n;
  return { total, rebate, paid: total - rebate };
}

/** a count with thousands separators: 100000 -> '100,000' */
export const grouped = (n: number) => formatCount(n);

/** A package product's size as shown ('10,000条', international '100.00元'); '' for a product sold by any count. */
export function packText(p: { product_type?: number; pack_size?: number }): string {
  if (!p.pack_size) return '';
  return p.product_type === ProductType.International ? `${grouped(p.pack_size)}.00元` : `${grouped(p.pack_size)}条`;
}

/** The message for a quantity that is not a whole number of the product's packages (the server's rule), or undefined. */
export function packError(
  p: { product_type?: number; pack_size?: number },
  num: string | undefined,
): string | undefined {
  if (!p.pack_size || !num || !/^[1-9][0-9]*$/.test(num) || Number(num) % p.pack_size === 0) return undefined;
  return PURCHASE_MESSAGES.packMultiple.replaceAll('{size}', packText(p));
}

/** Every rule for a product's quantity: the form's, then the package size. */
export const lineError = (p: { product_type?: number; pack_size?: number }, num: string | undefined) =>
  quantityError(num) ?? packError(p, num);

/** The purchase form's message for a quantity (forms/purchase.json), or undefined when valid. */
export function quantityError(num: string | undefined): string | undefined {
  const r = checkForm(purchaseCompiled, { product_id: 1, num: num ?? '' });
  return r.ok ? undefined : (r.errors.find((e) => e.field === 'num')?.message ?? r.errors[0]?.message);
}
