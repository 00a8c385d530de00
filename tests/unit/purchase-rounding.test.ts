import { describe, expect, it } from 'vitest';
import { exactDiscountPrice, lineCents, yuan } from '@/domain/purchase';

describe('lineCents (the console’s preview of the server’s rule)', () => {
  it('rounds a line up to the cent, as the server charges it', () => {
    expect(yuan(lineCents(1, '0.0460', '95'))).toBe('0.05'); // 0.0437
    expect(yuan(lineCents(100, '0.0460', '95'))).toBe('4.37');
    expect(yuan(lineCents(1, '0.0450', '95'))).toBe('0.05'); // 0.04275
    expect(yuan(lineCents(10000, '0.0450', '95'))).toBe('427.50');
  });
});

describe('exactDiscountPrice (the 折后单价 the amount is computed with)', () => {
  it('shows every decimal the computation uses, at least four', () => {
    expect(exactDiscountPrice('0.0450', '95')).toBe('0.04275');
    expect(exactDiscountPrice('0.0450', '100')).toBe('0.0450');
    expect(exactDiscountPrice('0.0460', '95')).toBe('0.0437');
    expect(exactDiscountPrice('0.0333', '87.5')).toBe('0.02913750'.replace(/0+$/, ''));
    expect(exactDiscountPrice('12', '90')).toBe('10.8000');
  });
  it('times the quantity gives the line amount (issue 41 item 8: 0.04275 × 20,000 = 855.00)', () => {
    expect(yuan(lineCents(20000, '0.0450', '95'))).toBe('855.00');
    expect(Number(exactDiscountPrice('0.0450', '95')) * 20000).toBeCloseTo(855, 6);
  });
});
