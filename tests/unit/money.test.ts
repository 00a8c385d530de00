import { describe, expect, it } from 'vitest';
import { formatMoney, isDecimal } from '@/components/Money/money';

describe('formatMoney', () => {
  it('groups and pads exact decimal strings', () => {
    expect(formatMoney('1234567.5')).toBe('1,234,567.50');
    expect(formatMoney('0')).toBe('0.00');
    expect(formatMoney('0.1', 4)).toBe('0.1000');
    expect(formatMoney('-12.345', 2)).toBe('-12.35');
  });
  it('rounds half up on the digits, carrying through nines', () => {
    expect(formatMoney('9.995')).toBe('10.00');
    expect(formatMoney('999999.999')).toBe('1,000,000.00');
    expect(formatMoney('0.0049', 2)).toBe('0.00');
    expect(formatMoney('-0.001')).toBe('0.00');
  });
  it('keeps large amounts exact (no float rounding)', () => {
    expect(formatMoney('12345678901234567.89')).toBe('12,345,678,901,234,567.89');
  });
  it('shows - for empty and leaves malformed text as it is', () => {
    expect(formatMoney(undefined)).toBe('-');
    expect(formatMoney('abc')).toBe('abc');
    expect(isDecimal('1.5')).toBe(true);
    expect(isDecimal('1.5.5')).toBe(false);
  });
});
