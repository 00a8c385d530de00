/** Exact money: decimal strings in, decimal strings out (decimal.js), never binary floats. */
import Decimal from 'decimal.js';

export const Money = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type MoneyValue = InstanceType<typeof Money>;

/** '12.5' -> '12.50' */
export const money2 = (v: string | number | MoneyValue) => new Money(v).toFixed(2);

/** '48499.5' -> '48,499.50': an amount as a message shows it (thousands separators, two decimals) */
export const yuanText = (v: string | number | MoneyValue) => {
  const [int, frac] = money2(v).split('.');
  return `${int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`;
};

/** A positive amount with at most two decimals ('12', '0.01', '3000.50'), else null. */
export function parseAmount(v: unknown): MoneyValue | null {
  if (typeof v !== 'string' || !/^(?:0|[1-9][0-9]{0,9})(?:\.[0-9]{1,2})?$/.test(v.trim())) return null;
  const d = new Money(v.trim());
  return d.gt(0) ? d : null;
}
