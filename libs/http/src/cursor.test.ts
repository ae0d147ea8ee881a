import type { KeysetPosition, Sort } from '@ledger-api/store';
import { decodeCursor, encodeCursor, sortFingerprint } from './cursor';

const ledgerOrder: Sort = { blockHeight: 1, sequence: 1 };
const byFee: Sort = { 'sortKeys.fee': -1, blockHeight: 1, sequence: 1 };
const tokenOf = (token: unknown) => Buffer.from(JSON.stringify(token)).toString('base64url');
const AT = { height: 7, blockId: 'c'.repeat(64) };

describe('the cursor codec', () => {
  it('reads back every position it writes, with the fingerprint of the sort', () => {
    const positions: KeysetPosition[] = [
      { kind: 'after', values: [12, 3] },
      { kind: 'before', values: ['0004129', 'ab\u00e9%', true] },
      { kind: 'last' },
    ];
    for (const position of positions) {
      expect(decodeCursor(encodeCursor(position, byFee, AT))).toEqual({ ...position, sort: sortFingerprint(byFee), at: AT });
    }
  });

  it('writes the first page as the empty cursor, and a token as URL-safe text', () => {
    expect(encodeCursor({ kind: 'first' }, ledgerOrder, AT)).toBe('');
    expect(decodeCursor('')).toEqual({ kind: 'first' });
    expect(encodeCursor({ kind: 'after', values: ['\u{1F600}?/+=', 1] }, ledgerOrder, AT)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('tells sorts apart by their fields and directions', () => {
    const sorts: Sort[] = [ledgerOrder, { blockHeight: -1, sequence: 1 }, { sequence: 1, blockHeight: 1 }, byFee];
    const fingerprints = sorts.map(sortFingerprint);
    expect(new Set(fingerprints).size).toBe(4);
    expect(sortFingerprint({ blockHeight: 1, sequence: 1 })).toBe(sortFingerprint(ledgerOrder));
  });

  it('refuses text that is not a token it wrote', () => {
    const fingerprint = sortFingerprint(ledgerOrder);
    const valid = encodeCursor({ kind: 'after', values: [1, 2] }, ledgerOrder, AT);
    const { height: h, blockId: b } = AT;
    const refused = [
      'x',
      '%%%',
      `${valid}=`,
      `${valid}A`,
      valid.replace(/.$/, '.'),
      'a'.repeat(5000),
      tokenOf([1, 2]),
      tokenOf('after'),
      tokenOf(null),
      tokenOf({ k: 'x', s: fingerprint, v: [1, 2], h, b }),
      tokenOf({ k: 'a', s: 'short', v: [1, 2], h, b }),
      tokenOf({ k: 'a', s: fingerprint, h, b }),
      tokenOf({ k: 'a', s: fingerprint, v: [], h, b }),
      tokenOf({ k: 'a', s: fingerprint, v: [1, null], h, b }),
      tokenOf({ k: 'a', s: fingerprint, v: [1, { $gt: 1 }], h, b }),
      tokenOf({ k: 'a', s: fingerprint, v: [1, [2]], h, b }),
      tokenOf({ k: 'l', s: fingerprint, v: [1, 2], h, b }),
      tokenOf({ s: fingerprint, k: 'a', v: [1, 2], h, b }),
      tokenOf({ k: 'a', s: fingerprint, v: [1, 2], h, b, extra: true }),
      // The block a walk reads at: a height and a block id (empty before the first block), both or the token is not one.
      tokenOf({ k: 'a', s: fingerprint, v: [1, 2] }),
      tokenOf({ k: 'a', s: fingerprint, v: [1, 2], h }),
      tokenOf({ k: 'a', s: fingerprint, v: [1, 2], h: -1, b }),
      tokenOf({ k: 'a', s: fingerprint, v: [1, 2], h: 1.5, b }),
      tokenOf({ k: 'a', s: fingerprint, v: [1, 2], h, b: 'C'.repeat(64) }),
      tokenOf({ k: 'a', s: fingerprint, v: [1, 2], h, b: 'c' }),
      Buffer.from(`{"k":"a","s":"${fingerprint}","v":[1,2],"h":7,"b":"${b}","__proto__":{"k":"l"}}`).toString('base64url'),
      Buffer.from(`{"k":"a","s":"${fingerprint}","v":[1,1e999],"h":7,"b":"${b}"}`).toString('base64url'),
      Buffer.from(`{"k":"a","s":"${fingerprint}","v":[1, 2],"h":7,"b":"${b}"}`).toString('base64url'),
      Buffer.from([0xff, 0xfe, 0x00]).toString('base64url'),
    ];
    for (const text of refused) expect({ text, decoded: decodeCursor(text) }).toEqual({ text, decoded: undefined });
  });
});
