import { randomInt } from 'node:crypto';
import { numericSortKey } from './sortable';

/** A decimal string of up to `maxDigits` digits, sometimes with leading zeros. */
function randomDecimal(maxDigits: number): string {
  const digits = Array.from({ length: randomInt(1, maxDigits + 1) }, () => String(randomInt(10))).join('');
  return randomInt(4) === 0 ? `${'0'.repeat(randomInt(1, 4))}${digits}` : digits;
}

describe('numericSortKey', () => {
  it.each([
    ['0', '00010'],
    ['7', '00017'],
    ['000', '00010'],
    ['0042', '000242'],
    ['10', '000210'],
    ['5000000', '00075000000'],
  ])('gives %s the key %s: its digit count, then its digits without leading zeros', (decimal, key) => {
    expect(numericSortKey(decimal)).toBe(key);
  });

  it('gives amounts longer than the width of most a length prefix of the same width', () => {
    expect(numericSortKey('1'.repeat(150))).toBe(`0150${'1'.repeat(150)}`);
  });

  it('orders keys as text exactly as their amounts order as numbers, past 2^53 too', () => {
    const decimals = Array.from({ length: 2000 }, () => randomDecimal(randomInt(2) === 0 ? 6 : 40));
    const byKey = [...decimals].sort((a, b) => {
      const [left, right] = [numericSortKey(a), numericSortKey(b)];
      return left < right ? -1 : left > right ? 1 : 0;
    });
    const byNumber = [...decimals].sort((a, b) => {
      const [left, right] = [BigInt(a), BigInt(b)];
      return left < right ? -1 : left > right ? 1 : 0;
    });
    expect(byKey.map((decimal) => BigInt(decimal))).toEqual(byNumber.map((decimal) => BigInt(decimal)));
  });
});
