/**
 * Exact money formatting: amounts travel as decimal strings (NUMERIC in the database) and are
 * never turned into binary floats. These helpers only move digits around.
 */

const DECIMAL = /^([+-])?(\d+)(?:\.(\d+))?$/;

/** Is this a well-formed decimal string ("12", "-3.5", "0.001")? */
export function isDecimal(v: unknown): v is string {
  return typeof v === 'string' && DECIMAL.test(v.trim());
}

/**
 * "1234567.5" -> "1,234,567.50" with `scale` decimals (rounded half up on the digits themselves).
 * Numbers are accepted for convenience but formatted through their shortest decimal text.
 */
export function formatMoney(value: string | number | null | undefined, scale = 2, grouping = true): string {
  if (value === null || value === undefined || value === '') return '-';
  const text = typeof value === 'number' ? String(value) : value.trim();
  const m = DECIMAL.exec(text);
  if (!m) return text;
  const [, sign = '', intPart, frac = ''] = m;
  let digits = (intPart + frac.padEnd(scale, '0').slice(0, scale)).replace(/^0+(?=\d)/, '');
  const roundUp = frac.length > scale && frac[scale] >= '5';
  if (roundUp) {
    const arr = digits.split('').map(Number);
    let i = arr.length - 1;
    while (i >= 0) {
      if (arr[i] === 9) {
        arr[i] = 0;
        i--;
      } else {
        arr[i]++;
        break;
      }
    }
    digits = (i < 0 ? '1' : '') + arr.join('');
  }
  digits = digits.padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale) || '0';
  const fraction = scale ? `.${digits.slice(digits.length - scale)}` : '';
  const grouped = grouping ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : whole;
  const isZero = /^[0.,]*$/.test(grouped + fraction);
  return `${sign === '-' && !isZero ? '-' : ''}${grouped}${fraction}`;
}

/** A count with thousands separators (19996 → "19,996"), as every figure of the console shows it; not a number: as it is. */
export function formatCount(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '-';
  const text = String(value).trim();
  return /^-?\d+$/.test(text) ? text.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : text;
}
