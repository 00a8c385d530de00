/**
 * Our own string formats, shared by the run-time ajv (common/schema/ajv.ts) and the compiled form
 * validators (src/components/SchemaForm/ajv-runtime/formats.ts). No ajv import: the public pages'
 * compiled validators load this file.
 */

/** an exact amount as entities carry it (a decimal string; shown with <Money> by SchemaDescriptions) */
export const MONEY_FORMAT = /^-?[0-9]+(\.[0-9]+)?$/;

/** 'YYYY-MM-DD HH:mm:ss' naming a moment that exists (no month 13, no 25:61). */
export function isBusinessDateTime(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number);
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi, se));
  return (
    y >= 1 &&
    t.getUTCFullYear() === y &&
    t.getUTCMonth() === mo - 1 &&
    t.getUTCDate() === d &&
    h < 24 &&
    mi < 60 &&
    se < 60
  );
}

/** a comma-separated list without a repeated item ('' passes; the items' own form is the pattern's business) */
export function isDistinctList(s: string): boolean {
  const items = s.split(',');
  return new Set(items).size === items.length;
}

/** format name -> check, as ajv's addFormat and its standalone code take them */
export const CUSTOM_FORMATS = {
  money: MONEY_FORMAT,
  'business-date-time': { type: 'string' as const, validate: isBusinessDateTime },
  'distinct-list': { type: 'string' as const, validate: isDistinctList },
};
