import { describe, expect, it } from 'vitest';
import { lineCents, yuan } from '@/domain/purchase';

describe('lineCents (the console’s preview of the server’s rule)', () => {
  it('rounds a line up to the cent, as the server charges it', () => {
    expect(yuan(lineCents(1, '0.0460', '95'))).toBe('0.05'); // 0.0437
    expect(yuan(lineCents(100, '0.0460', '95'))).toBe('4.37');
    expect(yuan(lineCents(1, '0.0450', '95'))).toBe('0.05'); // 0.04275
    expect(yuan(lineCents(10000, '0.0450', '95'))).toBe('427.50');
  });
});
