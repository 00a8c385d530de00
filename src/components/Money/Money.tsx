import { Typography } from 'antd';
import { formatMoney } from './money';

export interface MoneyProps {
  value: string | number | null | undefined;
  /** decimals shown: 2 for balances, 3 or 4 for unit prices */
  scale?: number;
  /** unit after the figure (元 by default; pass '条' for pieces) */
  unit?: string;
  /** colour negative amounts red */
  signed?: boolean;
}

/** An exact amount (decimal string), grouped, with its unit; never wraps (a table cell, a narrow card). */
export function Money({ value, scale = 2, unit = '元', signed }: MoneyProps) {
  const text = formatMoney(value, scale);
  const negative = text.startsWith('-');
  return (
    <Typography.Text
      type={signed && negative ? 'danger' : undefined}
      style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
    >
      {text}
      {text !== '-' && unit ? ` ${unit}` : ''}
    </Typography.Text>
  );
}

export default Money;
